#pragma once
// The argument rules the social calls validate with (client::Begin runs them). Private.

#include <memory>
#include <optional>
#include <string>

#include "client/begin.hpp"
#include "client/client_impl.hpp"
#include "platformpp/errors.hpp"
#include "social/codecs.hpp"
#include "social/social_state.hpp"

namespace platformpp::social {

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
