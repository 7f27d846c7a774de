#pragma once
// The social layer (src/social) as the Client's machinery uses it. The social layer defines these
// (social/social_layer.cpp) and client/ includes none of its headers: the dependency between the two
// points one way, social → client. Private.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "platformpp/client.hpp"

namespace platformpp::social {

class SocialState;  // the social layer's caches
struct SocialStateDeleter {
    void operator()(SocialState* state) const;
};
using SocialStatePtr = std::unique_ptr<SocialState, SocialStateDeleter>;

// Empty caches; a lobby's call info comes from `callInfoOf` (the voice layer).
SocialStatePtr MakeSocialState(std::function<std::shared_ptr<const detail::CallInfoData>(uint64_t lobbyId)> callInfoOf);
// The Gateway's READY and its dispatches, on the network thread.
void OnReady(SocialState& state, Client::Impl& impl, const boost::json::object& ready);
void OnDispatch(SocialState& state, Client::Impl& impl, std::string_view type, const boost::json::value& data);
// ACTIVITY_JOIN from the desktop client.
void OnActivityJoin(SocialState& state, Client::Impl& impl, uint64_t applicationId, const std::string& secret);
bool HasLobby(const SocialState& state, uint64_t lobbyId);
// The user a desktop client's READY names, as seen by `applicationId`; nullopt when it names none.
std::optional<UserHandle> DesktopUser(const boost::json::object& user, uint64_t applicationId);

}  // namespace platformpp::social
