// The social layer's side of client/social_layer.hpp.
#include "client/social_layer.hpp"

#include "social/codecs.hpp"
#include "social/social_state.hpp"

namespace platformpp::social {

void SocialStateDeleter::operator()(SocialState* state) const { delete state; }

SocialStatePtr MakeSocialState(std::function<std::shared_ptr<const detail::CallInfoData>(uint64_t lobbyId)> callInfoOf) {
    SocialStatePtr state(new SocialState());
    state->callInfoOf = std::move(callInfoOf);
    return state;
}

void OnReady(SocialState& state, Client::Impl& impl, const boost::json::object& ready) { state.OnReady(impl, ready); }

void OnDispatch(SocialState& state, Client::Impl& impl, std::string_view type, const boost::json::value& data) {
    state.OnDispatch(impl, type, data);
}

void OnActivityJoin(SocialState& state, Client::Impl& impl, uint64_t applicationId, const std::string& secret) {
    state.ActivityJoined(impl, applicationId, secret);
}

bool HasLobby(const SocialState& state, uint64_t lobbyId) { return state.Lobby(lobbyId).has_value(); }

std::optional<UserHandle> DesktopUser(const boost::json::object& json, uint64_t applicationId) {
    auto user = std::make_shared<detail::UserData>();
    ReadUserFields(json, *user);
    if (user->id == 0) return std::nullopt;
    auto view = std::make_shared<detail::UserView>();
    view->user = std::move(user);
    view->applicationId = applicationId;
    return UserHandle(std::move(view));
}

}  // namespace platformpp::social
