#pragma once
// What every social call does first: validate its arguments and require an authenticated Client,
// delivering a ValidationError or ClientNotReady result to the callback otherwise. Private.

#include <memory>
#include <optional>
#include <string>

#include "client/client_impl.hpp"
#include "platformpp/errors.hpp"
#include "social/social_state.hpp"

namespace platformpp::social {

template <typename Callback>
std::shared_ptr<Callback> Share(Callback callback) {
    if (!callback) throw ValidationError("callback", "must not be empty");
    return std::make_shared<Callback>(std::move(callback));
}

// Runs `validate` (which throws ValidationError), then checks that the Client has a token. Returns
// the Authorization header, or nullopt after delivering the failure with `defaults` to `callback`.
template <typename Callback, typename Validate, typename... Defaults>
std::optional<std::string> Begin(Client::Impl& impl, const std::shared_ptr<Callback>& callback, Validate&& validate,
                                 Defaults... defaults) {
    ClientResult failure = ClientResult::Success();
    try {
        validate();
        std::lock_guard lock(impl.mutex);
        if (impl.authenticated) return "Bearer " + impl.token;
        failure = ClientResult::Failure(ErrorType::ClientNotReady, "the Client has no token: call UpdateToken first");
    } catch (const ValidationError& error) {
        failure = ClientResult::Failure(ErrorType::ValidationError, error.what());
    }
    impl.Deliver([callback, failure, defaults...] { (*callback)(failure, defaults...); });
    return std::nullopt;
}

inline void RequireId(uint64_t id, const char* field) {
    if (id == 0) throw ValidationError(field, "must be an id, got 0");
}

// Characters as the platform counts them: Unicode code points of the UTF-8 text.
inline std::size_t Characters(const std::string& text) {
    std::size_t count = 0;
    for (unsigned char c : text) count += (c & 0xC0) != 0x80;
    return count;
}

inline void RequireLength(const std::string& value, const char* field, std::size_t min, std::size_t max) {
    const std::size_t length = Characters(value);
    if (length < min || length > max) {
        throw ValidationError(field, "must be " + std::to_string(min) + "–" + std::to_string(max) + " characters, got " +
                                         std::to_string(length));
    }
}

// Metadata (docs/emulator-gateway.md): at most 25 keys of 1–256 characters, values at most 1024.
inline void RequireMetadata(const detail::Properties& metadata, const char* field) {
    if (metadata.size() > 25) throw ValidationError(field, "must have at most 25 keys, got " + std::to_string(metadata.size()));
    for (const auto& [key, value] : metadata) {
        if (key.empty() || Characters(key) > 256) throw ValidationError(field, "keys must be 1–256 characters");
        if (Characters(value) > 1024) throw ValidationError(field, "values must be at most 1024 characters (key \"" + key + "\")");
    }
}

inline void RequireLimit(int32_t limit) {
    if (limit < 1 || limit > 200) throw ValidationError("limit", "must be 1–200, got " + std::to_string(limit));
}

}  // namespace platformpp::social
