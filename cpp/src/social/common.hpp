#pragma once
// What the social calls share: the argument rules client::Begin runs, the full-account rule, and how a
// relationship answer is applied. Private.

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

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

// A relationship call's answer: 200 carries what remains of the relationship; 204 means nothing does.
inline void ApplyRelationshipAnswer(Client::Impl& impl, uint64_t userId, bool game, const boost::json::value& json) {
    if (json.is_object()) {
        impl.social->ApplyRelationship(impl, json);
    } else {
        impl.social->RemoveRelationship(impl, userId, !game);
    }
}

// A provisional account has no platform client nor guilds: for a call that needs a full account the
// game is asked to merge it first (`merge`, when set), then the call fails with ValidationError
// `message`. True when the current user is provisional and the call was answered so.
template <typename Callback>
bool RequireFullAccount(Client::Impl& impl, const Client& client, Client::ProvisionalUserMergeRequiredCallback merge,
                        const std::shared_ptr<Callback>& callback, const char* message) {
    const auto me = client.GetCurrentUserV2();
    if (!me || !me->IsProvisional()) return false;
    auto ask = std::make_shared<Client::ProvisionalUserMergeRequiredCallback>(std::move(merge));
    impl.Deliver([ask, callback, message] {
        if (*ask) (*ask)();
        std::apply([&](const auto&... values) { (*callback)(ClientResult::Failure(ErrorType::ValidationError, message), values...); },
                   client::AnswerOf<Callback>::Failure());
    });
    return true;
}

inline void RequireLimit(int32_t limit) {
    if (limit < 1 || limit > 200) throw ValidationError("limit", "must be 1–200, got " + std::to_string(limit));
}

}  // namespace platformpp::social
