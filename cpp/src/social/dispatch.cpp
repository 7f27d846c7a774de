// How the Gateway reaches the social caches: READY replaces what the cache holds, each dispatch type
// routes to one change (docs/emulator-gateway.md: Dispatches), and the events the changes announce
// are queued once the lock is released, with the users they asked for fetched.
#include <boost/json.hpp>

#include <set>

#include "client/client_impl.hpp"
#include "core/json_fields.hpp"
#include "social/social_state.hpp"

namespace platformpp::social {

namespace json = boost::json;
using json_fields::Snowflake;

const std::unordered_map<std::string_view, SocialState::Route>& SocialState::Routes() {
    static const std::unordered_map<std::string_view, Route> routes = [] {
        const Route upsertLobby = [](SocialState& s, const json::object& d, Events& e) { s.UpsertLobby(d, e); };
        const Route eraseLobby = [](SocialState& s, const json::object& d, Events& e) {
            s.EraseLobby(Snowflake(d, "id"), e);
        };
        const Route upsertMember = [](SocialState& s, const json::object& d, Events& e) {
            if (const auto* member = json_fields::Object(d, "member")) s.UpsertMember(Snowflake(d, "lobby_id"), *member, e);
        };
        const Route removeMember = [](SocialState& s, const json::object& d, Events& e) {
            const auto* member = json_fields::Object(d, "member");
            if (member == nullptr) return;
            const uint64_t lobbyId = Snowflake(d, "lobby_id");
            const uint64_t memberId = Snowflake(*member, "id");
            if (memberId == s.me_) {
                s.EraseLobby(lobbyId, e);  // the current user left or was removed
            } else {
                s.EraseMember(lobbyId, memberId, e);
            }
        };
        const Route upsertMessage = [](SocialState& s, const json::object& d, Events& e) { s.UpsertMessage(d, true, true, e); };
        const Route eraseMessage = [](SocialState& s, const json::object& d, Events& e) {
            s.EraseMessage(Snowflake(d, "id"), e);
        };
        const Route upsertPresence = [](SocialState& s, const json::object& d, Events& e) { s.UpsertPresence(d, e); };
        const Route upsertRelationship = [](SocialState& s, const json::object& d, Events& e) {
            s.UpsertRelationship(d, e);
        };
        const Route eraseRelationship = [](SocialState& s, const json::object& d, Events& e) {
            s.EraseRelationship(Snowflake(d, "id"), json_fields::Integer(d, "type") != 0, e);
        };
        return std::unordered_map<std::string_view, Route>{
            {"LOBBY_CREATE", upsertLobby},
            {"LOBBY_UPDATE", upsertLobby},
            {"LOBBY_DELETE", eraseLobby},
            {"LOBBY_MEMBER_ADD", upsertMember},
            {"LOBBY_MEMBER_UPDATE", upsertMember},
            {"LOBBY_MEMBER_REMOVE", removeMember},
            {"LOBBY_MESSAGE_CREATE", upsertMessage},
            {"LOBBY_MESSAGE_UPDATE", upsertMessage},
            {"LOBBY_MESSAGE_DELETE", eraseMessage},
            {"DM_MESSAGE_CREATE", upsertMessage},
            {"DM_MESSAGE_UPDATE", upsertMessage},
            {"DM_MESSAGE_DELETE", eraseMessage},
            {"PRESENCE_UPDATE", upsertPresence},
            {"RELATIONSHIP_ADD", upsertRelationship},
            {"RELATIONSHIP_UPDATE", upsertRelationship},
            {"RELATIONSHIP_REMOVE", eraseRelationship},
            {"ACTIVITY_INVITE_CREATE", [](SocialState& s, const json::object& d, Events& e) { s.AnnounceInvite(d, false, e); }},
            {"ACTIVITY_INVITE_UPDATE", [](SocialState& s, const json::object& d, Events& e) { s.AnnounceInvite(d, true, e); }},
        };
    }();
    return routes;
}

void SocialState::OnDispatch(Client::Impl& impl, std::string_view type, const json::value& data) {
    const auto route = Routes().find(type);
    const auto* object = json_fields::Object(data);
    if (route == Routes().end() || object == nullptr) return;  // not a dispatch the social layer follows
    Refresh(impl);
    Events events;
    {
        std::lock_guard lock(mutex_);
        route->second(*this, *object, events);
    }
    Deliver(impl, events);
}

void SocialState::OnReady(Client::Impl& impl, const json::object& ready) {
    Refresh(impl);
    Events events;
    {
        std::lock_guard lock(mutex_);
        // A new session: what happened while there was none is unknown, so no conversation can
        // vouch for its latest messages any more.
        conversations_.clear();
        if (const auto* user = json_fields::Object(ready, "user")) {
            if (const uint64_t id = json_fields::Snowflake(*user, "id")) me_ = id;
            UpsertUser(*user, events);
        }
        std::set<uint64_t> lobbyIds;
        if (const auto* lobbies = json_fields::Array(ready, "lobbies")) {
            for (const auto& lobby : *lobbies) {
                if (const auto* item = json_fields::Object(lobby)) lobbyIds.insert(UpsertLobby(*item, events));
            }
        }
        std::vector<uint64_t> gone;
        for (const auto& [id, lobby] : lobbies_) {
            if (!lobbyIds.count(id)) gone.push_back(id);
        }
        for (uint64_t id : gone) EraseLobby(id, events);
        std::set<uint64_t> relationshipIds;
        if (const auto* relationships = json_fields::Array(ready, "relationships")) {
            for (const auto& relationship : *relationships) {
                const auto* item = json_fields::Object(relationship);
                if (item == nullptr) continue;
                relationshipIds.insert(json_fields::Snowflake(*item, "id"));
                UpsertRelationship(*item, events);
            }
        }
        std::vector<uint64_t> ended;
        for (const auto& [id, relationship] : relationships_) {
            if (!relationshipIds.count(id)) ended.push_back(id);
        }
        for (uint64_t id : ended) EraseRelationship(id, true, events);
        if (const auto* presences = json_fields::Array(ready, "presences")) {
            for (const auto& presence : *presences) {
                if (const auto* item = json_fields::Object(presence)) UpsertPresence(*item, events);
            }
        }
    }
    Deliver(impl, events);
}

void SocialState::Refresh(Client::Impl& impl) {
    uint64_t me = 0, app = 0;
    {
        std::lock_guard lock(impl.mutex);
        me = impl.currentUserId;
        app = impl.applicationId;
    }
    std::lock_guard lock(mutex_);
    me_ = me;
    applicationId_ = app;
    cdnBase_ = impl.webBase;
}

void SocialState::Deliver(Client::Impl& impl, Events& events) {
    for (auto& event : events) impl.DeliverEvent(std::move(event));
    events.clear();
    std::vector<uint64_t> wanted;
    int unseen = 0;
    {
        std::lock_guard lock(mutex_);
        wanted.swap(wanted_);
        std::swap(unseen, unseenMessages_);
    }
    if (unseen > 0) {
        impl.Log(LoggingSeverity::Info, std::to_string(unseen) + " new message(s) while the game does not show its chat");
    }
    if (!wanted.empty()) FetchUsers(impl, wanted);
}

void SocialState::Want(uint64_t userId) {
    if (userId != 0 && userId != me_ && !users_.count(userId) && fetching_.insert(userId).second)
        wanted_.push_back(userId);
}

void SocialState::FetchUsers(Client::Impl& impl, const std::vector<uint64_t>& userIds) {
    const auto token = impl.CurrentToken();
    if (!token) {
        std::lock_guard lock(mutex_);
        for (uint64_t id : userIds) fetching_.erase(id);
        return;
    }
    for (uint64_t id : userIds) {
        auto request = client::Request("GET", "/users/" + std::to_string(id), nullptr, "GET /users/{id}");
        request.token = *token;
        impl.Call(std::move(request), [this, &impl, id](ClientResult result, json::value json) {
            Events events;
            {
                std::lock_guard lock(mutex_);
                fetching_.erase(id);
                if (result.Successful() && json.is_object() && !users_.count(id)) {
                    UpsertUser(json.as_object(), events);
                    if (users_.count(id)) Announce(events, callbacks_.userUpdated, id);
                }
            }
            if (!result.Successful()) {
                impl.Log(LoggingSeverity::Warning, "could not fetch lobby member " + std::to_string(id) + ": " + result.ToString());
            }
            Deliver(impl, events);
        });
    }
}

}  // namespace platformpp::social
