#pragma once
// What a Client is created with (Client(ClientCreateOptions)): where the platform is, and how the
// SDK's threads and audio behave.

#include <cstdint>
#include <optional>
#include <string>

#include "platformpp/audio.hpp"

namespace platformpp {

class ClientCreateOptions {
public:
    static const ClientCreateOptions nullobj;

    // The bases Client() uses: PLATFORMPP_API_BASE / PLATFORMPP_WEB_BASE from the environment, else
    // the build's configured service; AudioSystem::Standard; no CPU affinity.
    ClientCreateOptions();
    ClientCreateOptions(const ClientCreateOptions&) = default;
    ClientCreateOptions& operator=(const ClientCreateOptions&) = default;
    ClientCreateOptions(ClientCreateOptions&& other) noexcept;
    ClientCreateOptions& operator=(ClientCreateOptions&& other) noexcept;
    ~ClientCreateOptions() = default;

    explicit operator bool() const noexcept { return valid_; }

    // The web base (OAuth2 pages, invites), e.g. "http://127.0.0.1:8787" for the emulator. Checked by
    // the Client constructor: an absolute http(s) URL.
    std::string WebBase() const;
    void SetWebBase(std::string WebBase);
    // The HTTP API base, e.g. "http://127.0.0.1:8787/api/v10".
    std::string ApiBase() const;
    void SetApiBase(std::string ApiBase);
    // Which audio session voice uses where a system has several (consoles, mobile: Game shares the
    // game's session). Kept by the Client for the voice engine; Linux has one session: no effect here.
    AudioSystem ExperimentalAudioSystem() const;
    void SetExperimentalAudioSystem(AudioSystem ExperimentalAudioSystem);
    // Android only on the platform (keeps Bluetooth headsets out of communication mode); stored and
    // reported, with no effect on other systems.
    bool ExperimentalAndroidPreventCommsForBluetooth() const;
    void SetExperimentalAndroidPreventCommsForBluetooth(bool ExperimentalAndroidPreventCommsForBluetooth);
    // The CPUs the SDK's own threads may run on (bit n = CPU n); unset: wherever the OS likes. Applied to
    // the network thread when the Client is created (ValidationError there for a mask of no usable CPU).
    std::optional<uint64_t> CpuAffinityMask() const;
    void SetCpuAffinityMask(std::optional<uint64_t> CpuAffinityMask);

private:
    struct NullTag {};
    explicit ClientCreateOptions(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    std::string webBase_;
    std::string apiBase_;
    AudioSystem audioSystem_ = AudioSystem::Standard;
    bool preventCommsForBluetooth_ = false;
    std::optional<uint64_t> cpuAffinityMask_;
};

}  // namespace platformpp
