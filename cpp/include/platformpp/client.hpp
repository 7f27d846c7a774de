#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "platformpp/authorization.hpp"

namespace platformpp {

// The SDK's entry point. Move-only: a Client owns its connection to the platform.
class Client {
public:
    static const Client nullobj;

    Client();
    Client(Client&& other) noexcept;
    Client& operator=(Client&& other) noexcept;
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;
    ~Client();

    explicit operator bool() const noexcept { return impl_ != nullptr; }

    static std::string GetDefaultCommunicationScopes();
    static std::string GetDefaultPresenceScopes();
    static int32_t GetVersionMajor();
    static int32_t GetVersionMinor();
    static int32_t GetVersionPatch();

    // The default ClientId of AuthorizationArgs.
    void SetApplicationId(uint64_t applicationId);
    uint64_t GetApplicationId() const;

    // A fresh PKCE pair: 32 CSPRNG bytes as a base64url verifier and its S256 challenge.
    AuthorizationCodeVerifier CreateAuthorizationCodeVerifier() const;

private:
    struct NullTag {};
    explicit Client(NullTag) noexcept;
    struct Impl;
    Impl& RequireImpl() const;

    std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp
