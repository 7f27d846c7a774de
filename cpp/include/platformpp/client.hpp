#pragma once
// The SDK's entry point.
//
// A Client does all of its networking on its own thread. It never calls your code from that thread:
// every callback below is queued and runs when the game calls platformpp::RunCallbacks(), on the
// game's thread, in the order things happened. Callbacks given to a call always run exactly once
// (with ErrorType::ClientDestroyed if the Client goes away first).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "platformpp/activity.hpp"
#include "platformpp/audio.hpp"
#include "platformpp/authorization.hpp"
#include "platformpp/call.hpp"
#include "platformpp/client_options.hpp"
#include "platformpp/client_result.hpp"
#include "platformpp/guild.hpp"
#include "platformpp/lobby.hpp"
#include "platformpp/logging.hpp"
#include "platformpp/message.hpp"
#include "platformpp/relationship.hpp"
#include "platformpp/user.hpp"
#include "platformpp/voice_settings.hpp"

namespace platformpp {

enum class AuthorizationTokenType : int32_t {
    User = 0,
    Bearer = 1,
};

// How an external identity provider's token is understood (GetProvisionalToken).
enum class AuthenticationExternalAuthType : int32_t {
    OIDC = 0,
    EpicOnlineServicesAccessToken = 1,
    EpicOnlineServicesIdToken = 2,
    SteamSessionTicket = 3,
    UnityServicesIdToken = 4,
    PlatformBotIssuedAccessToken = 5,  // a token the platform issued through the game's bot endpoint
    AppleIdToken = 6,                  // Sign in with Apple ID token (a signed JWT)
    PlayStationNetworkIdToken = 7,     // PlayStation Network ID token (a signed JWT)
};

class Client {
public:
    enum class Status : int32_t {
        Disconnected = 0,
        Connecting = 1,
        Connected = 2,
        Ready = 3,
        Reconnecting = 4,
        Disconnecting = 5,
        HttpWait = 6,  // waiting on the HTTP API before the Gateway (Connect() discovering it)
    };
    enum class Error : int32_t {
        None = 0,
        ConnectionFailed = 1,
        UnexpectedClose = 2,
        ConnectionCanceled = 3,
    };

    using StatusChangedCallback = std::function<void(Status status, Error error, int32_t errorDetail)>;
    using LogCallback = std::function<void(std::string message, LoggingSeverity severity)>;
    using AuthorizationCallback = std::function<void(ClientResult result, std::string code, std::string redirectUri)>;
    using AuthorizeUrlOpener = std::function<void(std::string url)>;
    using TokenExchangeCallback = std::function<void(ClientResult result, std::string accessToken, std::string refreshToken,
                                                     AuthorizationTokenType tokenType, int32_t expiresIn,
                                                     std::string scopes)>;
    using ExchangeChildTokenCallback = std::function<void(ClientResult result, std::string accessToken,
                                                          AuthorizationTokenType tokenType, int32_t expiresIn,
                                                          std::string scopes)>;
    using ResultCallback = std::function<void(ClientResult result)>;
    using FetchCurrentUserCallback = std::function<void(ClientResult result, uint64_t id, std::string name)>;
    using TokenExpirationCallback = std::function<void()>;
    using AuthorizeRequestCallback = std::function<void()>;

    static const Client nullobj;

    // The live platform's endpoints.
    Client();
    // Another deployment, e.g. the emulator: apiBase "http://127.0.0.1:PORT/api/v10", webBase
    // "http://127.0.0.1:PORT". ValidationError if either is not an absolute http(s) URL.
    Client(std::string apiBase, std::string webBase);
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
    static std::string StatusToString(Status status);
    static std::string ErrorToString(Error error);

    // ---- configuration ----
    void SetApplicationId(uint64_t applicationId);  // the default ClientId of AuthorizationArgs
    uint64_t GetApplicationId() const;
    std::string GetApiBase() const;
    std::string GetWebBase() const;
    void SetHttpRequestTimeout(int32_t httpTimeoutInMilliseconds);  // ValidationError if <= 0
    // Lines at or above minSeverity go to the callback, secrets redacted. Any number of callbacks.
    void AddLogCallback(LogCallback callback, LoggingSeverity minSeverity);

    // The SDK's threads (SetThreadPriority): Client and Network are the one network thread here
    // (HTTP, Gateway, IPC); Voice is the voice engine's audio thread.
    enum class Thread : int32_t {
        Client = 0,
        Voice = 1,
        Network = 2,
    };
    // options.ApiBase()/WebBase() as Client(apiBase, webBase) (ValidationError naming ApiBase or
    // WebBase); CpuAffinityMask applied to the network thread (ValidationError "CpuAffinityMask" for a
    // mask with no CPU of this machine).
    explicit Client(ClientCreateOptions options);
    // The commit the SDK was built from (git hash), or "unknown" for a build outside a git checkout.
    static std::string GetVersionHash();
    static std::string ThreadToString(Thread type);
    // A nice value (-20 highest .. 19 lowest) for the SDK's thread; raising priority above the default
    // needs the privilege to (CAP_SYS_NICE), else a warning is logged and nothing changes.
    // ValidationError("priority") outside -20..19. The voice thread takes it when it starts.
    void SetThreadPriority(Thread thread, int32_t priority);
    // Also writes the SDK's log lines at or above minSeverity to <path>/platformpp.log (created with
    // its directories), secrets redacted as for the log callbacks, rotated at 5 MiB keeping three old
    // files (.1 newest). Returns false, and logs why, when the file cannot be opened; an empty path
    // stops writing the file.
    bool SetLogDir(std::string const& path, LoggingSeverity minSeverity);
    // The voice engine's own log (connections, DAVE, devices, the audio thread), apart from the rest:
    // its lines at or above minSeverity go to the callback on the callback thread, secrets redacted.
    // They also reach the AddLogCallback callbacks. ValidationError("callback") when empty.
    void AddVoiceLogCallback(LogCallback callback, LoggingSeverity minSeverity);
    // Also writes the voice log to <path>/platformpp-voice.log, rotated as SetLogDir's file. When the
    // file cannot be opened, an error is logged and nothing changes; an empty path stops writing it.
    void SetVoiceLogDir(std::string const& path, LoggingSeverity minSeverity);

    // ---- connection ----
    using OnStatusChanged = StatusChangedCallback;  // the SDK's name of StatusChangedCallback
    // Connects the Gateway with the token given to UpdateToken. Status goes HttpWait → Connecting →
    // Ready, and on a lost connection Reconnecting → Ready again; a fatal close ends in Disconnected
    // with Error UnexpectedClose and the close code as errorDetail.
    void Connect();
    void Disconnect();
    Status GetStatus() const;
    void SetStatusChangedCallback(StatusChangedCallback callback);

    // ---- authorization (OAuth2 with PKCE) ----
    // Builds the authorize URL from args (ClientId defaults to SetApplicationId; Scopes required; State
    // generated when unset), opens it, and waits for the redirect (HandleAuthorizeRedirect). The
    // callback gets the code and the redirect URI to pass to GetToken. A second Authorize while one is
    // pending completes the first with Aborted.
    void Authorize(AuthorizationArgs args, AuthorizationCallback callback);
    void AbortAuthorize();
    // Feeds back the redirect the OS handed the game (custom scheme URL). Returns false when it is not
    // for a pending authorization (then nothing happens).
    bool HandleAuthorizeRedirect(std::string url);
    // Replaces how the authorize URL is opened (default: the system browser). Runs on the game thread.
    void SetAuthorizeUrlOpener(AuthorizeUrlOpener opener);
    // Emulator only: consent headlessly as this test user (id or username) instead of opening a browser.
    // Empty turns it off.
    void SetEmulatorConsentUser(std::string user);
    // The same, with the emulator's admin secret, which an emulator listening beyond loopback requires
    // for headless consent (sent as `Authorization: Bearer`, never in a URL, never logged). Empty: none.
    void SetEmulatorConsentUser(std::string user, std::string adminSecret);
    AuthorizationCodeVerifier CreateAuthorizationCodeVerifier() const;
    void GetToken(uint64_t applicationId, std::string code, std::string codeVerifier, std::string redirectUri,
                  TokenExchangeCallback callback);
    void RefreshToken(uint64_t applicationId, std::string refreshToken, TokenExchangeCallback callback);
    // Revokes the whole authorization (access and refresh token both), as unlinking requires.
    void RevokeToken(uint64_t applicationId, std::string token, ResultCallback callback);
    // Sets the token the Client acts with (checked against the platform first; the previous token is
    // kept if the check fails). Also after re-authenticating an OIDC provisional account.
    void UpdateToken(AuthorizationTokenType tokenType, std::string token, ResultCallback callback);
    bool IsAuthenticated() const;
    void FetchCurrentUser(AuthorizationTokenType tokenType, std::string token, FetchCurrentUserCallback callback);
    void GetProvisionalToken(uint64_t applicationId, AuthenticationExternalAuthType externalAuthType,
                             std::string externalAuthToken, TokenExchangeCallback callback);
    // Publisher-level linking: a parent application's access token for a child application's.
    void ExchangeChildToken(std::string parentApplicationToken, uint64_t childApplicationId,
                            ExchangeChildTokenCallback callback);
    void UnmergeIntoProvisionalAccount(uint64_t applicationId, AuthenticationExternalAuthType externalAuthType,
                                       std::string externalAuthToken, ResultCallback callback);
    // Called when the access token is about to expire (from its expires_in) or the platform rejects it.
    void SetTokenExpirationCallback(TokenExpirationCallback callback);
    // Authorization requests that start from a client entry point (AUTHORIZE_REQUEST): over IPC from
    // the desktop client when one runs (subscribed here, SetApplicationId first), else from the Gateway.
    void RegisterAuthorizeRequestCallback(AuthorizeRequestCallback callback);
    void RemoveAuthorizeRequestCallback();

    // The SDK's callback type names for the members of this section that share a signature.
    using RevokeTokenCallback = std::function<void(ClientResult result)>;
    using UpdateTokenCallback = std::function<void(ClientResult result)>;
    using UnmergeIntoProvisionalAccountCallback = std::function<void(ClientResult result)>;
    using UpdateProvisionalAccountDisplayNameCallback = std::function<void(ClientResult result)>;
    using AuthorizeDeviceScreenClosedCallback = std::function<void()>;
    // Device authorization (consoles, TVs; RFC 8628): asks for a device code, shows the user code
    // (OpenAuthorizeDeviceScreen), polls the token endpoint at the interval the platform asks (slower
    // on slow_down) until the user approves on another device, then closes the screen and answers
    // like GetToken. AuthorizationFailed when the user denies or the code expires; Aborted by
    // AbortGetTokenFromDevice or a newer device authorization. With SetEmulatorConsentUser set, the
    // emulator's activation page approves as that user at once (headless tests).
    void GetTokenFromDevice(DeviceAuthorizationArgs args, TokenExchangeCallback callback);
    // The same, merging the provisional account of (externalAuthType, externalAuthToken) into the user
    // who approves.
    void GetTokenFromDeviceProvisionalMerge(DeviceAuthorizationArgs args, AuthenticationExternalAuthType externalAuthType,
                                            std::string const& externalAuthToken, TokenExchangeCallback callback);
    void AbortGetTokenFromDevice();
    // The screen that tells the user where to go and which code to enter. The platform's SDK draws it
    // on consoles; here it is handed to the authorize URL opener (SetAuthorizeUrlOpener) as the
    // verification URL with the code filled in (a game shows it, or a QR code of it), and logged.
    void OpenAuthorizeDeviceScreen(uint64_t clientId, std::string const& userCode);
    // Closes it (if open) and calls the screen-closed callback.
    void CloseAuthorizeDeviceScreen();
    void SetAuthorizeDeviceScreenClosedCallback(AuthorizeDeviceScreenClosedCallback cb);
    // GetToken that also merges the provisional account of (externalAuthType, externalAuthToken) into
    // the user who authorized.
    void GetTokenFromProvisionalMerge(uint64_t applicationId, std::string const& code, std::string const& codeVerifier,
                                      std::string const& redirectUri, AuthenticationExternalAuthType externalAuthType,
                                      std::string const& externalAuthToken, TokenExchangeCallback callback);
    // The game's answer to a provisional-merge request from the desktop client: logged and, on success,
    // the current user is fetched again (IsProvisional() turns false once UpdateToken has the new token).
    void ProvisionalUserMergeCompleted(bool success);
    // Sets the current provisional account's display name (1-32 characters; ValidationError "name").
    void UpdateProvisionalAccountDisplayName(std::string const& name, UpdateProvisionalAccountDisplayNameCallback callback);
    // The process id of the game's window. On the platform (Windows) it lets the SDK bring that window
    // back to the front after the user authorized in a browser; Linux has no such call for another
    // process's window, so it is validated (ValidationError "pid" for pid < 0), kept and logged.
    void SetGameWindowPid(int32_t pid);

    // ---- the platform's desktop client (RPC over IPC, docs/client.md "Desktop client") ----
    // When a desktop client answers on its IPC socket, Authorize asks it (AUTHORIZE: the signed-in user
    // consents there) instead of opening a browser. The calls below use SetApplicationId's id.
    using IsPlatformAppInstalledCallback = std::function<void(bool installed)>;
    using GetVoiceSettingsCallback = std::function<void(ClientResult result, VoiceSettings settings)>;
    using VoiceSettingsUpdatedCallback = std::function<void(VoiceSettings settings)>;
    // Whether the desktop client runs (its IPC socket answers).
    void IsPlatformAppInstalled(IsPlatformAppInstalledCallback callback);
    // The desktop user's voice settings (needs UpdateToken: the token authenticates the IPC connection).
    // With no desktop client the callback gets RPCError and VoiceSettings::nullobj.
    void GetVoiceSettings(GetVoiceSettingsCallback cb);
    // Called from RunCallbacks() when the desktop user changes their voice settings (subscribed over IPC
    // when set; needs UpdateToken and a running desktop client, else a warning is logged). Empty removes it.
    void SetVoiceSettingsUpdatedCallback(VoiceSettingsUpdatedCallback callback);
    using GetPlatformClientConnectedUserCallback =
        std::function<void(ClientResult result, std::optional<UserHandle> user)>;
    // The user signed in to the desktop client (READY of an IPC connection as `applicationId`); needs no
    // token. RPCError and nullopt when no desktop client runs or it refuses the application id.
    void GetPlatformClientConnectedUser(uint64_t applicationId, GetPlatformClientConnectedUserCallback callback) const;

    // ==== social (lobbies, messages, rich presence, relationships, users, guilds) ====
    // The calls below need an authenticated Client (UpdateToken), else their callback gets
    // ClientNotReady. The caches behind the getters (lobbies, messages, relationships, users) start
    // from the Gateway's READY after Connect() and are kept current by its dispatches; the getters
    // return snapshots and never touch the network. Event callbacks run from RunCallbacks() after
    // the cache has changed; one of each kind may be set (an empty function removes it).
    using Properties = std::unordered_map<std::string, std::string>;
    using CreateOrJoinLobbyCallback = std::function<void(ClientResult result, uint64_t lobbyId)>;
    using LobbyCallback = std::function<void(uint64_t lobbyId)>;
    using LobbyMemberCallback = std::function<void(uint64_t lobbyId, uint64_t memberId)>;
    using SendMessageCallback = std::function<void(ClientResult result, uint64_t messageId)>;
    using GetMessagesCallback = std::function<void(ClientResult result, std::vector<MessageHandle> messages)>;
    using MessageCallback = std::function<void(uint64_t messageId)>;
    using MessageDeletedCallback = std::function<void(uint64_t messageId, uint64_t channelId)>;
    using RelationshipCallback = std::function<void(uint64_t userId, bool isPlatformRelationshipUpdate)>;
    using RelationshipCreatedCallback = std::function<void(uint64_t userId, bool isPlatformRelationshipUpdate)>;
    using RelationshipDeletedCallback = std::function<void(uint64_t userId, bool isPlatformRelationshipUpdate)>;
    using UserUpdatedCallback = std::function<void(uint64_t userId)>;
    using GetUserApplicationProfilesCallback =
        std::function<void(ClientResult result, std::vector<UserApplicationProfileHandle> profiles)>;
    using GetUserGuildsCallback = std::function<void(ClientResult result, std::vector<GuildMinimal> guilds)>;
    using GetGuildChannelsCallback = std::function<void(ClientResult result, std::vector<GuildChannel> guildChannels)>;

    // -- lobbies --
    // Creates this game's lobby for `secret` (1–250 characters) or joins the existing one. The
    // callback can use GetLobbyHandle(lobbyId) at once. Metadata: at most 25 keys of 1–256
    // characters, values at most 1024; memberMetadata is the caller's own member metadata.
    void CreateOrJoinLobby(std::string secret, CreateOrJoinLobbyCallback callback);
    void CreateOrJoinLobbyWithMetadata(std::string secret, Properties lobbyMetadata, Properties memberMetadata,
                                       CreateOrJoinLobbyCallback callback);
    void LeaveLobby(uint64_t lobbyId, ResultCallback callback);
    std::optional<LobbyHandle> GetLobbyHandle(uint64_t lobbyId) const;
    std::vector<uint64_t> GetLobbyIds() const;
    // A lobby appeared in (created), changed its metadata in (updated) or left (deleted, or the user
    // left or was removed) the cache; members were added, removed or changed.
    void SetLobbyCreatedCallback(LobbyCallback callback);
    void SetLobbyUpdatedCallback(LobbyCallback callback);
    void SetLobbyDeletedCallback(LobbyCallback callback);
    void SetLobbyMemberAddedCallback(LobbyMemberCallback callback);
    void SetLobbyMemberRemovedCallback(LobbyMemberCallback callback);
    void SetLobbyMemberUpdatedCallback(LobbyMemberCallback callback);
    // The reference's names of the callback types above (the same std::function types).
    using LeaveLobbyCallback = ResultCallback;
    using LobbyCreatedCallback = LobbyCallback;
    using LobbyUpdatedCallback = LobbyCallback;
    using LobbyDeletedCallback = LobbyCallback;
    using LobbyMemberAddedCallback = LobbyMemberCallback;
    using LobbyMemberRemovedCallback = LobbyMemberCallback;
    using LobbyMemberUpdatedCallback = LobbyMemberCallback;
    using LinkOrUnlinkChannelCallback = std::function<void(ClientResult result)>;
    using JoinLinkedLobbyGuildCallback = std::function<void(ClientResult result, std::string inviteUrl)>;
    using ProvisionalUserMergeRequiredCallback = std::function<void()>;
    // Links the lobby to a guild channel (GuildChannel::IsLinkable; the caller needs the member flag
    // CanLinkLobby): from then on its messages and the channel's are one conversation. The lobby's
    // LinkedChannel() is set when the callback runs; the other members hear LobbyUpdated.
    void LinkChannelToLobby(uint64_t lobbyId, uint64_t channelId, LinkOrUnlinkChannelCallback callback);
    void UnlinkChannelFromLobby(uint64_t lobbyId, LinkOrUnlinkChannelCallback callback);
    // A single-use invite (valid one hour) to the guild of the lobby's linked channel, for the current
    // user: the callback gets its URL (webBase + "/invite/" + code) to open. A provisional account
    // cannot join guilds: provisionalUserMergeRequiredCallback runs, then the callback with
    // ValidationError and no URL.
    void JoinLinkedLobbyGuild(uint64_t lobbyId, ProvisionalUserMergeRequiredCallback provisionalUserMergeRequiredCallback,
                              JoinLinkedLobbyGuildCallback callback);

    // -- messages --
    // Content: 1–2000 characters. Metadata as for lobbies.
    void SendLobbyMessage(uint64_t lobbyId, std::string content, SendMessageCallback callback);
    void SendLobbyMessageWithMetadata(uint64_t lobbyId, std::string content, Properties metadata,
                                      SendMessageCallback callback);
    // A game direct message to another user of this game.
    void SendUserMessage(uint64_t recipientId, std::string content, SendMessageCallback callback);
    void SendUserMessageWithMetadata(uint64_t recipientId, std::string content, Properties metadata,
                                     SendMessageCallback callback);
    // The current user's own direct messages to recipientId.
    void EditUserMessage(uint64_t recipientId, uint64_t messageId, std::string content, ResultCallback callback);
    void DeleteUserMessage(uint64_t recipientId, uint64_t messageId, ResultCallback callback);
    // The most recent `limit` (1–200) messages, oldest first.
    void GetLobbyMessagesWithLimit(uint64_t lobbyId, int32_t limit, GetMessagesCallback callback);
    // The same for the conversation with recipientId. Answered from the local cache, with no remote
    // call, when the cache is known to hold the conversation's latest `limit` messages (received
    // while the Gateway was Ready, or fetched before).
    void GetUserMessagesWithLimit(uint64_t recipientId, int32_t limit, GetMessagesCallback callback);
    std::optional<MessageHandle> GetMessageHandle(uint64_t messageId) const;
    void SetMessageCreatedCallback(MessageCallback callback);
    void SetMessageUpdatedCallback(MessageCallback callback);
    // channelId as MessageHandle::ChannelId().
    void SetMessageDeletedCallback(MessageDeletedCallback callback);
    // The reference's names of the callback types above (the same std::function types).
    using SendUserMessageCallback = SendMessageCallback;
    using EditUserMessageCallback = ResultCallback;
    using DeleteUserMessageCallback = ResultCallback;
    using GetLobbyMessagesCallback = GetMessagesCallback;
    using UserMessagesWithLimitCallback = GetMessagesCallback;
    using MessageCreatedCallback = MessageCallback;
    using MessageUpdatedCallback = MessageCallback;
    // The channel (a lobby's, a direct message conversation's, or a lobby's linked guild channel) as
    // the cache knows it; see ChannelHandle.
    std::optional<ChannelHandle> GetChannelHandle(uint64_t channelId) const;
    using UserMessageSummariesCallback = std::function<void(ClientResult result, std::vector<UserMessageSummary> summaries)>;
    using OpenMessageInPlatformCallback = std::function<void(ClientResult result)>;
    // The current user's direct message conversations in this game: the other user and the newest
    // message of each, newest conversation first.
    void GetUserMessageSummaries(UserMessageSummariesCallback callback);
    // Whether the platform keeps the message where its client can show it: a message of a lobby
    // linked to a guild channel, or a direct message between two full accounts. False for a message
    // the cache does not hold.
    bool CanOpenMessageInPlatform(uint64_t messageId);
    // Opens the message in the platform's client (its URL, webBase + "/channels/...", through the
    // opener of SetAuthorizeUrlOpener, the system browser by default). A provisional account has no
    // client to open it in: provisionalUserMergeRequiredCallback runs, then the callback with
    // ValidationError; so does a message CanOpenMessageInPlatform refuses, without the merge callback.
    void OpenMessageInPlatform(uint64_t messageId, ProvisionalUserMergeRequiredCallback provisionalUserMergeRequiredCallback,
                               OpenMessageInPlatformCallback callback);
    // Tells the SDK whether the game shows its chat. While it does not, new messages are announced in
    // the log (Info) so that a game may notify the player another way; the platform's desktop client
    // notifications are not modelled.
    void SetShowingChat(bool showingChat);

    // -- rich presence --
    // Shows `activity` on the current user's profile for this game (a CustomStatus activity sets the
    // user's custom status instead). activity.Name() is the displayed application name;
    // activity.Assets().InviteCoverImage() a URL or an asset key.
    void UpdateRichPresence(Activity activity, ResultCallback callback);
    // Clears this game's rich presence (failures are logged).
    void ClearRichPresence();
    using UpdateRichPresenceCallback = std::function<void(ClientResult result)>;  // UpdateRichPresence's
    using UpdateStatusCallback = std::function<void(ClientResult result)>;
    // The user's chosen online status: Online, Idle, Dnd, or Invisible (Offline too: it appears offline);
    // any other StatusType is a ValidationError. Friends see it as a presence change.
    void SetOnlineStatus(StatusType status, UpdateStatusCallback callback);
    // How the desktop client launches the game (its Join buttons): on Linux a desktop entry
    // $XDG_DATA_HOME/applications/platformpp-<applicationId>.desktop (default ~/.local/share) that runs
    // `command %u` and handles the platform-<applicationId>:// scheme. False when the arguments are
    // invalid (applicationId 0, an empty command or one with a line break) or the file cannot be written.
    bool RegisterLaunchCommand(uint64_t applicationId, std::string command);
    // The same, launching a Steam game: `xdg-open steam://rungameid/<steamAppId>`.
    bool RegisterLaunchSteamApplication(uint64_t applicationId, uint32_t steamAppId);
    using ActivityJoinCallback = std::function<void(std::string joinSecret)>;
    using ActivityJoinWithApplicationCallback = std::function<void(uint64_t applicationId, std::string joinSecret)>;
    // Called from RunCallbacks() when the player accepts an invite or clicks Join in the desktop client
    // (ACTIVITY_JOIN over IPC, subscribed when set: SetApplicationId first; no token needed), with the
    // join secret of the activity joined (and, for the second, the application it belongs to).
    void SetActivityJoinCallback(ActivityJoinCallback cb);
    void SetActivityJoinWithApplicationCallback(ActivityJoinWithApplicationCallback cb);
    using SendActivityInviteCallback = std::function<void(ClientResult result)>;
    using AcceptActivityInviteCallback = std::function<void(ClientResult result, std::string joinSecret)>;
    using ActivityInviteCallback = std::function<void(ActivityInvite invite)>;
    // An invite to the current user's party (its activity needs a party and a join secret) to a friend;
    // content at most 1024 characters.
    void SendActivityInvite(uint64_t userId, std::string const& content, SendActivityInviteCallback cb);
    // Asks a friend (whose activity has a party) to let the current user in.
    void SendActivityJoinRequest(uint64_t userId, SendActivityInviteCallback cb);
    // Answers a join request (an invite of type JoinRequest) with an invite back to its sender.
    void SendActivityJoinRequestReply(ActivityInvite invite, SendActivityInviteCallback cb);
    // Accepts an invite (type Join): the callback gets the party's join secret, or a failure once the
    // sender has left that party (the invite then turns invalid: ActivityInviteUpdated).
    void AcceptActivityInvite(ActivityInvite invite, AcceptActivityInviteCallback cb);
    // Called from RunCallbacks() when an invite or join request arrives, or one changes (invalid).
    void SetActivityInviteCreatedCallback(ActivityInviteCallback cb);
    void SetActivityInviteUpdatedCallback(ActivityInviteCallback cb);

    // -- relationships --
    std::vector<RelationshipHandle> GetRelationships() const;
    // The relationship with userId (types None when there is none).
    RelationshipHandle GetRelationshipHandle(uint64_t userId) const;
    // Platform friend requests (across games) and game friend requests (this game only). Accepting,
    // rejecting and cancelling need a matching pending request in the cache (else ValidationError
    // naming userId), so that a stale call never sends a new request by accident.
    void SendFriendRequestById(uint64_t userId, ResultCallback callback);
    void SendGameFriendRequestById(uint64_t userId, ResultCallback callback);
    void AcceptFriendRequest(uint64_t userId, ResultCallback callback);
    void AcceptGameFriendRequest(uint64_t userId, ResultCallback callback);
    void RejectFriendRequest(uint64_t userId, ResultCallback callback);
    void RejectGameFriendRequest(uint64_t userId, ResultCallback callback);
    void CancelFriendRequest(uint64_t userId, ResultCallback callback);
    void CancelGameFriendRequest(uint64_t userId, ResultCallback callback);
    void RemoveFriend(uint64_t userId, ResultCallback callback);
    void RemoveGameFriend(uint64_t userId, ResultCallback callback);
    void BlockUser(uint64_t userId, ResultCallback callback);
    void UnblockUser(uint64_t userId, ResultCallback callback);
    // A relationship appeared or changed (created), or went away (deleted). The flag says whether the
    // platform relationship (rather than only the game one) changed.
    void SetRelationshipCreatedCallback(RelationshipCreatedCallback callback);
    void SetRelationshipDeletedCallback(RelationshipDeletedCallback callback);
    using UpdateRelationshipCallback = std::function<void(ClientResult result)>;
    using SendFriendRequestCallback = std::function<void(ClientResult result)>;
    // The reference's names of the platform friend request calls (the same as SendFriendRequestById,
    // AcceptFriendRequest, RejectFriendRequest, CancelFriendRequest, which stay as aliases).
    void SendPlatformFriendRequestById(uint64_t userId, UpdateRelationshipCallback cb);
    void AcceptPlatformFriendRequest(uint64_t userId, UpdateRelationshipCallback cb);
    void RejectPlatformFriendRequest(uint64_t userId, UpdateRelationshipCallback cb);
    void CancelPlatformFriendRequest(uint64_t userId, UpdateRelationshipCallback cb);
    using RelationshipGroupsUpdatedCallback = std::function<void(uint64_t userId)>;
    // A platform or game friend request to the user with this unique username (1–32 characters).
    void SendPlatformFriendRequest(std::string const& username, SendFriendRequestCallback cb);
    void SendGameFriendRequest(std::string const& username, SendFriendRequestCallback cb);
    // Ends the friendship on the platform and in this game (either may be absent).
    void RemovePlatformAndGameFriend(uint64_t userId, UpdateRelationshipCallback cb);
    // Friends (platform or game) whose username or display name contains searchStr, ignoring case.
    std::vector<UserHandle> SearchFriendsByUsername(std::string searchStr) const;
    // Friends in one group of the friends list (RelationshipGroupType), by display name.
    std::vector<RelationshipHandle> GetRelationshipsByGroup(RelationshipGroupType groupType) const;
    // Called from RunCallbacks() when a friend moves to another RelationshipGroupType (or becomes or
    // stops being a friend). Empty removes it.
    void SetRelationshipGroupsUpdatedCallback(RelationshipGroupsUpdatedCallback cb);

    // -- users --
    // The current user, or UserHandle::nullobj (false in a test) before READY. Deprecated as in the
    // platform's SDK 1.9: GetCurrentUserV2 says "not known yet" with an empty optional instead.
    [[deprecated("use GetCurrentUserV2")]] UserHandle GetCurrentUser() const;
    // A user the SDK knows (the current user, relationships, lobby members, message authors).
    std::optional<UserHandle> GetUser(uint64_t userId) const;
    // A known user's data, status or activities changed, or a lobby member's user became known (the
    // SDK fetches the users of lobby members it does not know).
    void SetUserUpdatedCallback(UserUpdatedCallback callback);
    // Fetches the game identity data (external identities and game stats) of the current user or a
    // friend, and keeps it for UserHandle::UserApplicationProfiles().
    void GetUserApplicationProfiles(uint64_t userId, GetUserApplicationProfilesCallback callback);
    // The profiles kept by the last GetUserApplicationProfiles. Takes no lock: it reads an immutable
    // snapshot published atomically, so it never waits for the SDK's threads (usable anywhere, even
    // from a log callback).
    std::vector<UserApplicationProfileHandle> GetUserApplicationProfilesNoLock(uint64_t userId) const;
    // The current user when known (after READY), else nullopt.
    std::optional<UserHandle> GetCurrentUserV2() const;
    using OpenConnectedGamesSettingsInPlatformCallback = std::function<void(ClientResult result)>;
    // Opens the settings page of the platform's client where the user sees the games connected to
    // their account: its URL (webBase + "/settings/connected-games") through the opener of
    // SetAuthorizeUrlOpener (the system browser by default). Needs UpdateToken; a provisional account
    // has no such settings (ValidationError), nor does a Client without an opener.
    void OpenConnectedGamesSettingsInPlatform(OpenConnectedGamesSettingsInPlatformCallback callback);

    // -- guilds --
    void GetUserGuilds(GetUserGuildsCallback callback);
    // The channels of a guild the user can see, in the client's display order
    // (SortGuildChannelsForDisplay).
    void GetGuildChannels(uint64_t guildId, GetGuildChannelsCallback callback);

    // ==== end of social ====

    // ==== voice and audio (docs/voice.md) ====
    // Calls: StartCall joins the channel's call through the Gateway (opcode 4) and connects the media
    // engine once the voice server is known; the Call's status goes Joining → Connecting → Connected.
    // Status, participant, speaking and voice-state callbacks run from RunCallbacks(); the audio
    // callbacks below run on the SDK's audio thread every 20 ms (48 kHz, int16 interleaved, data
    // modifiable in place) and must return quickly. Setters clamp out-of-range values and log it.
    using EndCallCallback = std::function<void()>;
    using EndCallsCallback = std::function<void()>;
    using VoiceParticipantChangedCallback = std::function<void(uint64_t lobbyId, uint64_t memberId, bool added)>;
    using UserAudioReceivedCallback = std::function<void(uint64_t userId, int16_t* data, uint64_t samplesPerChannel,
                                                         int32_t sampleRate, uint64_t channels, bool& outShouldMute)>;
    using UserAudioCapturedCallback =
        std::function<void(int16_t* data, uint64_t samplesPerChannel, int32_t sampleRate, uint64_t channels)>;
    // channelId: a lobby id (the lobby's call), a guild voice channel or a DM channel. A null Call when
    // the user is already in that call (GetCall returns it) or the Client has no token.
    Call StartCall(uint64_t channelId);
    // StartCall for a lobby's call with audio callbacks (audio thread): receivedCb per participant and
    // frame (set outShouldMute to keep that frame out of the mix), capturedCb per captured frame (what it
    // leaves in data is what is sent).
    Call StartCallWithAudioCallbacks(uint64_t lobbyId, UserAudioReceivedCallback receivedCb,
                                     UserAudioCapturedCallback capturedCb);
    // Leaves the call (opcode 4 with no channel) and closes its media; callback once it is Disconnected.
    void EndCall(uint64_t channelId, EndCallCallback callback);
    void EndCalls(EndCallsCallback callback);
    Call GetCall(uint64_t channelId);  // a null Call when not in that call
    std::vector<Call> GetCalls();
    // A member joined or left the call of one of the user's lobbies, whether or not the user is in it.
    void SetVoiceParticipantChangedCallback(VoiceParticipantChangedCallback cb);
    // Mute / deafen every call, overriding each call's own setting while set.
    bool GetSelfMuteAll() const;
    void SetSelfMuteAll(bool mute);
    bool GetSelfDeafAll() const;
    void SetSelfDeafAll(bool deaf);

    using GetCurrentInputDeviceCallback = std::function<void(AudioDevice device)>;
    using GetCurrentOutputDeviceCallback = std::function<void(AudioDevice device)>;
    using GetInputDevicesCallback = std::function<void(std::vector<AudioDevice> devices)>;
    using GetOutputDevicesCallback = std::function<void(std::vector<AudioDevice> devices)>;
    using DeviceChangeCallback =
        std::function<void(std::vector<AudioDevice> inputDevices, std::vector<AudioDevice> outputDevices)>;
    using SetInputDeviceCallback = std::function<void(ClientResult result)>;
    using SetOutputDeviceCallback = std::function<void(ClientResult result)>;
    using NoAudioInputCallback = std::function<void(bool inputDetected)>;
    // "default": the system's default device (followed when it changes).
    static std::string GetDefaultAudioDeviceId();
    void GetInputDevices(GetInputDevicesCallback cb);
    void GetOutputDevices(GetOutputDevicesCallback cb);
    void GetCurrentInputDevice(GetCurrentInputDeviceCallback cb);
    void GetCurrentOutputDevice(GetCurrentOutputDeviceCallback cb);
    // ValidationError in the callback for an unknown device id (nothing changes).
    void SetInputDevice(std::string deviceId, SetInputDeviceCallback cb);
    void SetOutputDevice(std::string deviceId, SetOutputDeviceCallback cb);
    void SetDeviceChangeCallback(DeviceChangeCallback callback);
    float GetInputVolume();                  // percent, [0, 100]
    void SetInputVolume(float inputVolume);  // clamped to [0, 100]
    float GetOutputVolume();                 // percent, [0, 200]
    void SetOutputVolume(float outputVolume);  // clamped to [0, 200]
    void SetAutomaticGainControl(bool on);
    void SetEchoCancellation(bool on);
    void SetNoiseSuppression(bool on);
    void SetNoiseCancellation(bool on);
    // Below this level (dBFS, [-100, 100]; -100 turns it off) for a few seconds the microphone counts as
    // silent: callback(false); callback(true) when input is heard again.
    void SetNoAudioInputThreshold(float dBFSThreshold);
    void SetNoAudioInputCallback(NoAudioInputCallback callback);
    // Accepted and logged: Opus is always coded in software here.
    void SetOpusHardwareCoding(bool encode, bool decode);
    void SetAecDump(bool on);
    // Mobile-only on the platform: present for source compatibility, no effect on desktop (logged).
    void SetEngineManagedAudioSession(bool isEngineManaged);
    [[deprecated]] bool SetSpeakerMode(bool speakerMode);
    bool ShowAudioRoutePicker();
    // ==== end of voice and audio ====


    struct Impl;

private:
    struct NullTag {};
    explicit Client(NullTag) noexcept;
    Impl& RequireImpl() const;

    std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp

#include "platformpp/enum_to_string.hpp"  // EnumToString of the enums above
