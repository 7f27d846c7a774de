// Client's side of the platform's desktop client (RPC over IPC): finding it, Authorize through it,
// AUTHORIZE_REQUEST from it, and the desktop user's voice settings. Which transport the platform's SDK
// uses for what: docs/client.md "Desktop client".
#include <boost/asio/post.hpp>
#include <boost/json.hpp>

#include <sstream>

#include "client/begin.hpp"
#include "client/client_impl.hpp"
#include "ipc/desktop_client.hpp"
#include "ipc/voice_settings_json.hpp"
#include "platformpp/errors.hpp"

namespace platformpp {

using client::Begin;
using client::Needs;

namespace {

ClientResult NoApplicationId() {
    return ClientResult::Failure(ErrorType::ValidationError,
                                 "applicationId: the desktop client needs SetApplicationId first");
}

boost::json::array ScopeList(const std::string& scopes) {
    boost::json::array list;
    std::istringstream words(scopes);
    for (std::string scope; words >> scope;) list.emplace_back(scope);
    return list;
}

}  // namespace

void Client::Impl::WithDesktop(uint64_t appId, std::optional<std::string> token, DesktopUse use) {
    boost::asio::post(io.Context(), [this, appId, token = std::move(token), use = std::move(use)] {
        if (appId == 0) return use(nullptr, NoApplicationId());
        if (!desktop || !desktop->Open() || desktop->ClientId() != appId) {
            desktop.reset();
            std::string why;
            auto connection = ipc::DesktopClient::Connect(
                appId, [this](const std::string& evt, const boost::json::value& data) { OnDesktopEvent(evt, data); },
                [this, alive = alive](const std::string& reason) {
                    if (!alive->load()) return;
                    Log(LoggingSeverity::Info, "desktop client: " + reason);
                },
                why);
            if (!connection) return use(nullptr, ClientResult::Failure(ErrorType::RPCError, why));
            Log(LoggingSeverity::Info, "desktop client: connected over IPC");
            desktop = std::move(connection);
        }
        auto connection = desktop;
        if (!token || connection->AuthenticatedToken() == *token) return use(connection, ClientResult::Success());
        connection->Command("AUTHENTICATE", {{"access_token", *token}},
                            [connection, token = *token, use](ClientResult result, boost::json::value) {
                                if (!result.Successful()) return use(nullptr, std::move(result));
                                connection->SetAuthenticatedToken(token);
                                use(connection, ClientResult::Success());
                            });
    });
}

void Client::Impl::SubscribeDesktop(const std::string& evt, std::optional<std::string> token) {
    uint64_t appId = 0;
    {
        std::lock_guard lock(mutex);
        appId = applicationId;
    }
    WithDesktop(appId, std::move(token), [this, evt](std::shared_ptr<ipc::DesktopClient> connection, ClientResult result) {
        if (!connection) {
            return Log(LoggingSeverity::Verbose, "desktop client: not subscribed to " + evt + ": " + result.Error());
        }
        connection->Command("SUBSCRIBE", {}, [this, evt](ClientResult answer, boost::json::value) {
            Log(answer.Successful() ? LoggingSeverity::Info : LoggingSeverity::Warning,
                "desktop client: subscribe " + evt + (answer.Successful() ? ": ok" : ": " + answer.Error()));
        }, evt);
    });
}

void Client::Impl::AuthorizeThroughDesktop(uint64_t clientId, std::string scopes, std::string challenge,
                                           std::string nonce, std::string redirectUri, std::string url) {
    WithDesktop(clientId, std::nullopt, [this, clientId, scopes, challenge, nonce, redirectUri, url](
                                            std::shared_ptr<ipc::DesktopClient> connection, ClientResult) {
        if (!connection) return OpenAuthorizeUrl(url);  // no desktop client: the browser flow
        boost::json::object args{{"client_id", std::to_string(clientId)}, {"scopes", ScopeList(scopes)},
                                 {"redirect_uri", redirectUri}};
        if (!challenge.empty()) {
            args["code_challenge"] = challenge;
            args["code_challenge_method"] = "S256";
        }
        if (!nonce.empty()) args["nonce"] = nonce;
        Log(LoggingSeverity::Info, "authorizing through the desktop client (AUTHORIZE over IPC)");
        connection->Command("AUTHORIZE", std::move(args), [this](ClientResult result, boost::json::value data) {
            if (!result.Successful()) {
                return void(FinishAuthorization(ClientResult::Failure(ErrorType::AuthorizationFailed, result.Error()), ""));
            }
            const auto* object = data.if_object();
            const auto* code = object ? object->if_contains("code") : nullptr;
            if (code == nullptr || !code->is_string() || code->as_string().empty()) {
                return void(FinishAuthorization(
                    ClientResult::Failure(ErrorType::AuthorizationFailed, "the desktop client answered without a code"), ""));
            }
            FinishAuthorization(ClientResult::Success(), std::string(code->as_string()));
        });
    });
}

void Client::Impl::OnDesktopEvent(const std::string& evt, const boost::json::value& data) {
    if (evt == "VOICE_SETTINGS_UPDATE") {
        std::shared_ptr<VoiceSettingsUpdatedCallback> callback;
        {
            std::lock_guard lock(mutex);
            callback = voiceSettingsCallback;
        }
        if (callback) DeliverEvent([callback, settings = ipc::VoiceSettingsFromRpc(data)] { (*callback)(settings); });
    } else if (evt == "ACTIVITY_JOIN") {
        const auto* object = data.if_object();
        const auto* secret = object ? object->if_contains("secret") : nullptr;
        if (secret == nullptr || !secret->is_string()) return Log(LoggingSeverity::Warning, "desktop client: ACTIVITY_JOIN without a secret");
        uint64_t appId = 0;
        {
            std::lock_guard lock(mutex);
            appId = applicationId;
        }
        social::OnActivityJoin(*social, *this, appId, std::string(secret->as_string()));
    } else if (evt == "AUTHORIZE_REQUEST") {
        std::shared_ptr<AuthorizeRequestCallback> callback;
        {
            std::lock_guard lock(mutex);
            callback = authorizeRequestCallback;
        }
        if (callback) DeliverEvent([callback] { (*callback)(); });
    }
}

// ---- public members ----

void Client::IsPlatformAppInstalled(IsPlatformAppInstalledCallback callback) {
    Impl& impl = RequireImpl();
    auto shared = client::Share(std::move(callback));
    boost::asio::post(impl.io.Context(), [&impl, shared] {
        const bool installed = ipc::FindDesktopClientSocket().has_value();
        impl.Deliver([shared, installed] { (*shared)(installed); });
    });
}

void Client::GetVoiceSettings(GetVoiceSettingsCallback cb) {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::Token, std::move(cb));
    if (!call) return;
    impl.WithDesktop(GetApplicationId(), call->token, [&impl, shared = call->callback](
                                                          std::shared_ptr<ipc::DesktopClient> connection, ClientResult result) {
        if (!connection) return impl.Deliver([shared, result] { (*shared)(result, VoiceSettings::nullobj); });
        connection->Command("GET_VOICE_SETTINGS", {}, [&impl, shared](ClientResult answer, boost::json::value data) {
            VoiceSettings settings = answer.Successful() ? ipc::VoiceSettingsFromRpc(data) : VoiceSettings::nullobj;
            impl.Deliver([shared, answer, settings] { (*shared)(answer, settings); });
        });
    });
}

void Client::SetVoiceSettingsUpdatedCallback(VoiceSettingsUpdatedCallback callback) {
    Impl& impl = RequireImpl();
    const bool set = static_cast<bool>(callback);
    {
        std::lock_guard lock(impl.mutex);
        impl.voiceSettingsCallback = set ? std::make_shared<VoiceSettingsUpdatedCallback>(std::move(callback)) : nullptr;
    }
    if (!set) return;
    const auto token = impl.CurrentToken();
    if (!token) {
        impl.Log(LoggingSeverity::Warning, "SetVoiceSettingsUpdatedCallback: no token yet (UpdateToken first); "
                                           "voice settings updates are not subscribed");
        return;
    }
    impl.SubscribeDesktop("VOICE_SETTINGS_UPDATE", token);
}

void Client::GetPlatformClientConnectedUser(uint64_t applicationId, GetPlatformClientConnectedUserCallback callback) const {
    Impl& impl = RequireImpl();
    const auto call = Begin(impl, Needs::ValidArguments, std::move(callback), [&] {
        if (applicationId == 0) throw ValidationError("applicationId", "must not be 0");
    });
    if (!call) return;
    // A handshake of its own, closed at once: its READY names whoever is signed in now (the kept
    // connection's READY may predate a change of desktop user), and no token is involved, as on the
    // platform: a game learns who runs the desktop client before any OAuth.
    boost::asio::post(impl.io.Context(), [&impl, shared = call->callback, applicationId] {
        std::string why;
        auto connection = ipc::DesktopClient::Connect(
            applicationId, [](const std::string&, const boost::json::value&) {}, [](const std::string&) {}, why);
        if (!connection) {
            const auto failure = ClientResult::Failure(ErrorType::RPCError, why);
            return impl.Deliver([shared, failure] { (*shared)(failure, std::nullopt); });
        }
        auto user = social::DesktopUser(connection->User(), applicationId);
        connection->Close();
        if (!user) {
            const auto failure = ClientResult::Failure(ErrorType::RPCError, "the desktop client's READY named no user");
            return impl.Deliver([shared, failure] { (*shared)(failure, std::nullopt); });
        }
        impl.Deliver([shared, handle = std::move(*user)] { (*shared)(ClientResult::Success(), handle); });
    });
}

}  // namespace platformpp
