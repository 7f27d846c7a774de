"""
platformpp's C++ core. Import the names from `platformpp`, which re-exports them.
"""
from __future__ import annotations
import collections.abc
import datetime
import enum
from platformpp import Aborted
from platformpp import AuthorizationFailed
from platformpp import ClientDestroyed
from platformpp import ClientError
from platformpp import ClientNotReady
from platformpp import Disabled
from platformpp import Error
from platformpp import HTTPError
from platformpp import NetworkError
from platformpp import NullHandleError
from platformpp import RPCError
from platformpp import ValidationError
import typing
__all__: list[str] = ['Aborted', 'Activity', 'ActivityActionTypes', 'ActivityAssets', 'ActivityButton', 'ActivityGamePlatforms', 'ActivityInvite', 'ActivityParty', 'ActivityPartyPrivacy', 'ActivitySecrets', 'ActivityTimestamps', 'ActivityTypes', 'AdditionalContent', 'AdditionalContentType', 'AudioDevice', 'AudioModeType', 'AudioSystem', 'AuthenticationCodeChallengeMethod', 'AuthenticationExternalAuthType', 'AuthorizationArgs', 'AuthorizationCodeChallenge', 'AuthorizationCodeVerifier', 'AuthorizationFailed', 'AuthorizationTokenType', 'Call', 'CallInfoHandle', 'ChannelHandle', 'ChannelType', 'Client', 'ClientCreateOptions', 'ClientDestroyed', 'ClientError', 'ClientNotReady', 'ClientResult', 'DeviceAuthorizationArgs', 'Disabled', 'DisclosureTypes', 'Error', 'ErrorType', 'ExternalIdentityProviderType', 'GuildChannel', 'GuildMinimal', 'HTTPError', 'HttpStatusCode', 'IntegrationType', 'LinkedChannel', 'LinkedLobby', 'LobbyHandle', 'LobbyMemberHandle', 'LoggingSeverity', 'MessageHandle', 'NetworkError', 'NullHandleError', 'RPCError', 'RelationshipGroupType', 'RelationshipHandle', 'RelationshipType', 'ReleaseCalendar', 'StatusDisplayTypes', 'StatusType', 'UserApplicationProfileHandle', 'UserHandle', 'UserMessageSummary', 'VADThresholdSettings', 'ValidationError', 'VoiceInputModeType', 'VoiceSettings', 'VoiceStateHandle', 'callback_wakeup_fd', 'enum_to_string', 'get_callback_error_hook', 'resolve_authorize_redirect_uri', 'resolve_authorize_state', 'run_callbacks', 'set_callback_error_hook', 'sort_guild_channels_for_display']
class LoggingSeverity(enum.IntEnum):
    """
    Severity of an SDK log line; None as a minimum turns a log callback off.
    """
    Error = 4
    Info = 2
    None_ = 5
    Verbose = 1
    Warning = 3
    def __str__(self):
        ...
class ErrorType(enum.IntEnum):
    """
    What kind of failure a ClientResult reports.
    """
    Aborted = 7
    AuthorizationFailed = 8
    ClientDestroyed = 5
    ClientNotReady = 3
    Disabled = 4
    HTTPError = 2
    NetworkError = 1
    None_ = 0
    RPCError = 9
    ValidationError = 6
    def __str__(self):
        ...
class HttpStatusCode(enum.IntEnum):
    """
    The HTTP status of the platform's answer; None_ when there was no HTTP answer. An IntEnum: it compares equal to the number (status == 404).
    """
    Accepted = 202
    AlreadyReported = 208
    BadGateway = 502
    BadRequest = 400
    Conflict = 409
    Continue = 100
    Created = 201
    EarlyHints = 103
    ExpectationFailed = 417
    FailedDependency = 424
    Forbidden = 403
    Found = 302
    GatewayTimeout = 504
    Gone = 410
    HttpVersionNotSupported = 505
    ImUsed = 209
    InsufficientStorage = 507
    InternalServerError = 500
    LengthRequired = 411
    Locked = 423
    LoopDetected = 508
    MethodNotAllowed = 405
    MisdirectedRequest = 421
    MovedPermanently = 301
    MultiStatus = 207
    MultipleChoices = 300
    NetworkAuthorizationRequired = 511
    NoContent = 204
    NonAuthoritativeInfo = 203
    None_ = 0
    NotAcceptable = 406
    NotExtended = 510
    NotFound = 404
    NotImplemented = 501
    NotModified = 304
    Ok = 200
    PartialContent = 206
    PayloadTooLarge = 413
    PaymentRequired = 402
    PermanentRedirect = 308
    PreconditionFailed = 412
    PreconditionRequired = 428
    Processing = 102
    ProxyAuthRequired = 407
    RangeNotSatisfiable = 416
    RequestHeaderFieldsTooLarge = 431
    RequestTimeout = 408
    ResetContent = 205
    SeeOther = 303
    ServiceUnavailable = 503
    SwitchingProtocols = 101
    TemporaryRedirect = 307
    TooEarly = 425
    TooManyRequests = 429
    Unauthorized = 401
    UnprocessableEntity = 422
    UnsupportedMediaType = 415
    UpgradeRequired = 426
    UriTooLong = 414
    VariantAlsoNegotiates = 506
    def __str__(self):
        ...
@typing.final
class ClientResult:
    """
    The outcome of an asynchronous Client call, handed to its callback.
    """
    nullobj: typing.ClassVar[ClientResult]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> ClientResult:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> ClientResult:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        A successful result.
        """
    def __repr__(self) -> str:
        ...
    def __str__(self) -> str:
        ...
    def to_string(self) -> str:
        """
        e.g. 'HTTPError 404 (10031): Unknown Lobby'.
        """
    @property
    def deauthorized(self) -> bool:
        """
        True when a token refresh answered invalid_grant: the user's authorization is gone. Treat it like the APPLICATION_DEAUTHORIZED webhook and unlink the user locally.
        """
    @deauthorized.setter
    def deauthorized(self, value: bool) -> None:
        ...
    @property
    def error(self) -> str:
        """
        Readable description of the failure (empty on success); never contains a secret.
        """
    @error.setter
    def error(self, value: str) -> None:
        ...
    @property
    def error_code(self) -> int:
        """
        The platform's error code (e.g. 50035, 10031), or 0.
        """
    @error_code.setter
    def error_code(self, value: int) -> None:
        ...
    @property
    def response_body(self) -> str:
        """
        The platform's response body, for HTTP errors.
        """
    @response_body.setter
    def response_body(self, value: str) -> None:
        ...
    @property
    def retry_after(self) -> float:
        """
        Seconds to wait before retrying, when known.
        """
    @retry_after.setter
    def retry_after(self, value: float) -> None:
        ...
    @property
    def retryable(self) -> bool:
        """
        Whether trying again later can succeed (network errors, 429, 5xx).
        """
    @retryable.setter
    def retryable(self, value: bool) -> None:
        ...
    @property
    def status(self) -> typing.Any:
        """
        The HTTP status (HttpStatusCode; a plain int for a status the enum does not list), HttpStatusCode.None_ (0) when there was no HTTP answer.
        """
    @status.setter
    def status(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def successful(self) -> bool:
        """
        Whether the call succeeded.
        """
    @successful.setter
    def successful(self, value: bool) -> None:
        ...
    @property
    def type(self) -> ErrorType:
        """
        The kind of failure (ErrorType.None_ on success).
        """
    @type.setter
    def type(self, arg1: ErrorType) -> None:
        ...
class IntegrationType(enum.IntEnum):
    """
    The installation context an application is authorized for.
    """
    GuildInstall = 0
    UserInstall = 1
    def __str__(self):
        ...
class AuthenticationCodeChallengeMethod(enum.IntEnum):
    """
    PKCE code challenge method (RFC 7636); only S256.
    """
    S256 = 0
    def __str__(self):
        ...
@typing.final
class AuthorizationCodeChallenge:
    """
    The PKCE challenge sent with the authorization request.
    """
    nullobj: typing.ClassVar[AuthorizationCodeChallenge]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> AuthorizationCodeChallenge:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> AuthorizationCodeChallenge:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        An empty S256 challenge; usually made by Client.create_authorization_code_verifier().
        """
    def __repr__(self) -> str:
        ...
    @property
    def challenge(self) -> str:
        """
        base64url(SHA-256(verifier)) without padding.
        """
    @challenge.setter
    def challenge(self, value: str) -> None:
        ...
    @property
    def method(self) -> AuthenticationCodeChallengeMethod:
        """
        The challenge method (always AuthenticationCodeChallengeMethod.S256).
        """
    @method.setter
    def method(self, arg1: AuthenticationCodeChallengeMethod) -> None:
        ...
@typing.final
class AuthorizationCodeVerifier:
    """
    A PKCE pair: the challenge to send now and the verifier to keep secret until the token exchange.
    """
    nullobj: typing.ClassVar[AuthorizationCodeVerifier]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> AuthorizationCodeVerifier:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> AuthorizationCodeVerifier:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        An empty pair; usually made by Client.create_authorization_code_verifier().
        """
    def __repr__(self) -> str:
        ...
    @property
    def challenge(self) -> AuthorizationCodeChallenge:
        """
        The challenge to put in AuthorizationArgs.code_challenge (a copy).
        """
    @challenge.setter
    def challenge(self, arg1: AuthorizationCodeChallenge) -> None:
        ...
    @property
    def verifier(self) -> str:
        """
        The secret verifier for Client.get_token.
        """
    @verifier.setter
    def verifier(self, value: str) -> None:
        ...
@typing.final
class AuthorizationArgs:
    """
    The arguments of Client.authorize (OAuth2 authorization of a user).
    """
    nullobj: typing.ClassVar[AuthorizationArgs]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> AuthorizationArgs:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> AuthorizationArgs:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self, *, client_id: typing.SupportsInt | typing.SupportsIndex = 0, scopes: str = '', state: str | None = None, nonce: str | None = None, code_challenge: AuthorizationCodeChallenge | None = None, integration_type: IntegrationType | None = None, custom_scheme_param: str | None = None) -> None:
        """
        Every field is optional here; scopes must be set before Client.authorize.
        """
    def __repr__(self) -> str:
        ...
    @property
    def client_id(self) -> int:
        """
        Application id of the game; 0 means the id given to Client.set_application_id.
        """
    @client_id.setter
    def client_id(self, value: int) -> None:
        ...
    @property
    def code_challenge(self) -> AuthorizationCodeChallenge | None:
        """
        PKCE challenge for the Client.get_token flow (a copy).
        """
    @code_challenge.setter
    def code_challenge(self, arg1: AuthorizationCodeChallenge | None) -> None:
        ...
    @property
    def custom_scheme_param(self) -> str | None:
        """
        Custom URI scheme: the redirect becomes <scheme>:/authorize/callback.
        """
    @custom_scheme_param.setter
    def custom_scheme_param(self, value: str | None) -> None:
        ...
    @property
    def integration_type(self) -> IntegrationType | None:
        """
        The installation context the application is installed as.
        """
    @integration_type.setter
    def integration_type(self, arg1: IntegrationType | None) -> None:
        ...
    @property
    def nonce(self) -> str | None:
        """
        OpenID Connect nonce, echoed in the ID token.
        """
    @nonce.setter
    def nonce(self, value: str | None) -> None:
        ...
    @property
    def scopes(self) -> str:
        """
        Space-separated OAuth2 scopes, e.g. Client.get_default_communication_scopes().
        """
    @scopes.setter
    def scopes(self, value: str) -> None:
        ...
    @property
    def state(self) -> str | None:
        """
        OAuth2 state; leave None so the SDK generates a secure random one.
        """
    @state.setter
    def state(self, value: str | None) -> None:
        ...
# Client.on's handler types, one per event (as its set_<event>_callback passes arguments).
_ActivityInviteCreatedHandler = typing.TypeVar('_ActivityInviteCreatedHandler', bound=collections.abc.Callable[[ActivityInvite], object])
_ActivityInviteUpdatedHandler = typing.TypeVar('_ActivityInviteUpdatedHandler', bound=collections.abc.Callable[[ActivityInvite], object])
_ActivityJoinHandler = typing.TypeVar('_ActivityJoinHandler', bound=collections.abc.Callable[[str], object])
_ActivityJoinWithApplicationHandler = typing.TypeVar('_ActivityJoinWithApplicationHandler', bound=collections.abc.Callable[[int, str], object])
_AuthorizeDeviceScreenClosedHandler = typing.TypeVar('_AuthorizeDeviceScreenClosedHandler', bound=collections.abc.Callable[[], object])
_DeviceChangeHandler = typing.TypeVar('_DeviceChangeHandler', bound=collections.abc.Callable[[list[AudioDevice], list[AudioDevice]], object])
_LobbyCreatedHandler = typing.TypeVar('_LobbyCreatedHandler', bound=collections.abc.Callable[[int], object])
_LobbyDeletedHandler = typing.TypeVar('_LobbyDeletedHandler', bound=collections.abc.Callable[[int], object])
_LobbyMemberAddedHandler = typing.TypeVar('_LobbyMemberAddedHandler', bound=collections.abc.Callable[[int, int], object])
_LobbyMemberRemovedHandler = typing.TypeVar('_LobbyMemberRemovedHandler', bound=collections.abc.Callable[[int, int], object])
_LobbyMemberUpdatedHandler = typing.TypeVar('_LobbyMemberUpdatedHandler', bound=collections.abc.Callable[[int, int], object])
_LobbyUpdatedHandler = typing.TypeVar('_LobbyUpdatedHandler', bound=collections.abc.Callable[[int], object])
_MessageCreatedHandler = typing.TypeVar('_MessageCreatedHandler', bound=collections.abc.Callable[[int], object])
_MessageDeletedHandler = typing.TypeVar('_MessageDeletedHandler', bound=collections.abc.Callable[[int, int], object])
_MessageUpdatedHandler = typing.TypeVar('_MessageUpdatedHandler', bound=collections.abc.Callable[[int], object])
_NoAudioInputHandler = typing.TypeVar('_NoAudioInputHandler', bound=collections.abc.Callable[[bool], object])
_RelationshipCreatedHandler = typing.TypeVar('_RelationshipCreatedHandler', bound=collections.abc.Callable[[int, bool], object])
_RelationshipDeletedHandler = typing.TypeVar('_RelationshipDeletedHandler', bound=collections.abc.Callable[[int, bool], object])
_RelationshipGroupsUpdatedHandler = typing.TypeVar('_RelationshipGroupsUpdatedHandler', bound=collections.abc.Callable[[int], object])
_StatusChangedHandler = typing.TypeVar('_StatusChangedHandler', bound=collections.abc.Callable[[Client.Status, Client.Error, int], object])
_TokenExpirationHandler = typing.TypeVar('_TokenExpirationHandler', bound=collections.abc.Callable[[], object])
_UserUpdatedHandler = typing.TypeVar('_UserUpdatedHandler', bound=collections.abc.Callable[[int], object])
_VoiceParticipantChangedHandler = typing.TypeVar('_VoiceParticipantChangedHandler', bound=collections.abc.Callable[[int, int, bool], object])
_VoiceSettingsUpdatedHandler = typing.TypeVar('_VoiceSettingsUpdatedHandler', bound=collections.abc.Callable[[VoiceSettings], object])
@typing.final
class Client:
    """
    The SDK's entry point: one per signed-in player. Its callbacks run inside run_callbacks().
    """
    class Status(enum.IntEnum):
        """
        The Client's connection state.
        """
        Connected = 2
        Connecting = 1
        Disconnected = 0
        Disconnecting = 5
        HttpWait = 6
        Ready = 3
        Reconnecting = 4
        def __str__(self):
            ...
    class Error(enum.IntEnum):
        """
        Why the connection state changed, if by a failure.
        """
        ConnectionCanceled = 3
        ConnectionFailed = 1
        None_ = 0
        UnexpectedClose = 2
        def __str__(self):
            ...
    class Thread(enum.IntEnum):
        """
        The SDK's threads (set_thread_priority).
        """
        Client = 0
        Network = 2
        Voice = 1
        def __str__(self):
            ...
    nullobj: typing.ClassVar[Client]
    @staticmethod
    def error_to_string(error: Client.Error) -> str:
        """
        The error's name.
        """
    @staticmethod
    def get_default_audio_device_id() -> str:
        """
        The id that names the system's default device (and follows it).
        """
    @staticmethod
    def get_default_communication_scopes() -> str:
        """
        'openid sdk.social_layer': everything the communication features need.
        """
    @staticmethod
    def get_default_presence_scopes() -> str:
        """
        'openid sdk.social_layer_presence': everything rich presence needs.
        """
    @staticmethod
    def get_version_hash() -> str:
        """
        The git commit the SDK was built from, or 'unknown'.
        """
    @staticmethod
    def get_version_major() -> int:
        """
        The SDK's major version.
        """
    @staticmethod
    def get_version_minor() -> int:
        """
        The SDK's minor version.
        """
    @staticmethod
    def get_version_patch() -> int:
        """
        The SDK's patch version.
        """
    @staticmethod
    def status_to_string(status: Client.Status) -> str:
        """
        The status's name.
        """
    @staticmethod
    def thread_to_string(type: Client.Thread) -> str:
        """
        The thread's name.
        """
    def __bool__(self) -> bool:
        """
        True when the instance holds a client; False for Client.nullobj.
        """
    @typing.overload
    def __init__(self) -> None:
        """
        A client of the configured service (the PLATFORMPP_API_BASE / PLATFORMPP_WEB_BASE environment variables when set).
        """
    @typing.overload
    def __init__(self, api_base: str, web_base: str) -> None:
        """
        A client of another deployment, e.g. an emulator: Client(emu.api_base, emu.web_base).
        """
    @typing.overload
    def __init__(self, options: ClientCreateOptions) -> None:
        """
        A client made with ClientCreateOptions (bases, CPU affinity, audio system).
        """
    def abort_authorize(self) -> None:
        """
        Ends a pending authorize() with ErrorType.Aborted.
        """
    def abort_get_token_from_device(self) -> None:
        """
        Ends a running get_token_from_device with ErrorType.Aborted.
        """
    def accept_activity_invite(self, invite: ActivityInvite, callback: collections.abc.Callable[[ClientResult, str], None]) -> None:
        """
        Accepts an invite (type Join): callback(result, join_secret); fails once the sender left the party.
        """
    async def accept_activity_invite_async(self, invite: ActivityInvite, *, timeout: float | None = None) -> str:
        """
        Awaitable accept_activity_invite(): returns what its callback receives after the result (str), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def accept_friend_request(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def accept_friend_request_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable accept_friend_request(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def accept_game_friend_request(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def accept_game_friend_request_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable accept_game_friend_request(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def accept_platform_friend_request(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def accept_platform_friend_request_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable accept_platform_friend_request(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def add_log_callback(self, callback: collections.abc.Callable[[str, LoggingSeverity], None], min_severity: LoggingSeverity) -> None:
        """
        Calls callback(message, severity) for each SDK log line at or above min_severity, secrets redacted.
        """
    def add_voice_log_callback(self, callback: collections.abc.Callable[[str, LoggingSeverity], None], min_severity: LoggingSeverity) -> None:
        """
        Calls callback(message, severity) for each voice-engine log line at or above min_severity, secrets redacted (run_callbacks delivers them).
        """
    def authorize(self, args: AuthorizationArgs, callback: collections.abc.Callable[[ClientResult, str, str], None]) -> None:
        """
        Starts OAuth2 authorization: opens the authorize URL and calls callback(result, code, redirect_uri) when the redirect comes back (handle_authorize_redirect) or the attempt fails.
        """
    async def authorize_async(self, args: AuthorizationArgs, *, timeout: float | None = None) -> tuple[str, str]:
        """
        Awaitable authorize(): returns what its callback receives after the result (tuple[str, str]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def block_user(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def block_user_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable block_user(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def can_open_message_in_platform(self, message_id: typing.SupportsInt | typing.SupportsIndex) -> bool:
        """
        Whether the platform keeps the message where its client can show it.
        """
    def cancel_friend_request(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def cancel_friend_request_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable cancel_friend_request(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def cancel_game_friend_request(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def cancel_game_friend_request_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable cancel_game_friend_request(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def cancel_platform_friend_request(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def cancel_platform_friend_request_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable cancel_platform_friend_request(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def clear_rich_presence(self) -> None:
        """
        Clears this game's rich presence.
        """
    def close_authorize_device_screen(self) -> None:
        """
        Closes the device screen (if open); the screen-closed callback runs.
        """
    def connect(self) -> None:
        """
        Connects the Gateway with the token given to update_token; watch set_status_changed_callback.
        """
    async def connect_async(self, *, timeout: float | None = None) -> None:
        """
        connect(), then waits until the Client is Ready (wait_until_ready). ClientNotReady without a
            token (call update_token() first); NetworkError when the connection fails.
        """
    def create_authorization_code_verifier(self) -> AuthorizationCodeVerifier:
        """
        A fresh PKCE pair: 32 CSPRNG bytes as a base64url verifier and its S256 challenge.
        """
    def create_or_join_lobby(self, secret: str, callback: collections.abc.Callable[[ClientResult, int], None]) -> None:
        """
        Creates this game's lobby for secret (1–250 characters) or joins it: callback(result, lobby_id).
        """
    async def create_or_join_lobby_async(self, secret: str, *, timeout: float | None = None) -> int:
        """
        Awaitable create_or_join_lobby(): returns what its callback receives after the result (int), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def create_or_join_lobby_with_metadata(self, secret: str, lobby_metadata: collections.abc.Mapping[str, str], member_metadata: collections.abc.Mapping[str, str], callback: collections.abc.Callable[[ClientResult, int], None]) -> None:
        """
        create_or_join_lobby with the lobby's metadata (for a new lobby) and the caller's member metadata.
        """
    async def create_or_join_lobby_with_metadata_async(self, secret: str, lobby_metadata: collections.abc.Mapping[str, str], member_metadata: collections.abc.Mapping[str, str], *, timeout: float | None = None) -> int:
        """
        Awaitable create_or_join_lobby_with_metadata(): returns what its callback receives after the result (int), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def delete_user_message(self, recipient_id: typing.SupportsInt | typing.SupportsIndex, message_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Deletes one's own direct message: callback(result).
        """
    async def delete_user_message_async(self, recipient_id: typing.SupportsInt | typing.SupportsIndex, message_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable delete_user_message(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def disconnect(self) -> None:
        """
        Closes the Gateway connection.
        """
    def edit_user_message(self, recipient_id: typing.SupportsInt | typing.SupportsIndex, message_id: typing.SupportsInt | typing.SupportsIndex, content: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Edits one's own direct message: callback(result).
        """
    async def edit_user_message_async(self, recipient_id: typing.SupportsInt | typing.SupportsIndex, message_id: typing.SupportsInt | typing.SupportsIndex, content: str, *, timeout: float | None = None) -> None:
        """
        Awaitable edit_user_message(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def end_call(self, channel_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[], None]) -> None:
        """
        Leaves the call; callback() once it is Disconnected.
        """
    async def end_call_async(self, channel_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable end_call(): returns what its callback receives (None). `timeout` in seconds.
        """
    def end_calls(self, callback: collections.abc.Callable[[], None]) -> None:
        """
        Leaves every call; callback() once they are Disconnected.
        """
    async def end_calls_async(self, *, timeout: float | None = None) -> None:
        """
        Awaitable end_calls(): returns what its callback receives (None). `timeout` in seconds.
        """
    def exchange_child_token(self, parent_application_token: str, child_application_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult, str, AuthorizationTokenType, int, str], None]) -> None:
        """
        Publisher-level linking: callback(result, access_token, token_type, expires_in, scopes) for the child.
        """
    async def exchange_child_token_async(self, parent_application_token: str, child_application_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> tuple[str, AuthorizationTokenType, int, str]:
        """
        Awaitable exchange_child_token(): returns what its callback receives after the result (tuple[str, platformpp._platformpp.AuthorizationTokenType, int, str]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def fetch_current_user(self, token_type: AuthorizationTokenType, token: str, callback: collections.abc.Callable[[ClientResult, int, str], None]) -> None:
        """
        Looks up the user a token belongs to: callback(result, id, name).
        """
    async def fetch_current_user_async(self, token_type: AuthorizationTokenType, token: str, *, timeout: float | None = None) -> tuple[int, str]:
        """
        Awaitable fetch_current_user(): returns what its callback receives after the result (tuple[int, str]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_api_base(self) -> str:
        """
        The HTTP API base URL, e.g. 'http://127.0.0.1:5123/api/v10'.
        """
    def get_application_id(self) -> int:
        """
        The id given to set_application_id (0 if none).
        """
    def get_call(self, channel_id: typing.SupportsInt | typing.SupportsIndex) -> Call:
        """
        The call in that channel (a null Call if none).
        """
    def get_calls(self) -> list[Call]:
        """
        The current user's calls.
        """
    def get_channel_handle(self, channel_id: typing.SupportsInt | typing.SupportsIndex) -> ChannelHandle | None:
        """
        A channel the Client knows (a lobby's, a conversation's, a linked guild channel), or None.
        """
    def get_current_input_device(self, cb: collections.abc.Callable[[AudioDevice], None]) -> None:
        """
        cb(device): the input device in use.
        """
    async def get_current_input_device_async(self, *, timeout: float | None = None) -> AudioDevice:
        """
        Awaitable get_current_input_device(): returns what its callback receives (platformpp._platformpp.AudioDevice). `timeout` in seconds.
        """
    def get_current_output_device(self, cb: collections.abc.Callable[[AudioDevice], None]) -> None:
        """
        cb(device): the output device in use.
        """
    async def get_current_output_device_async(self, *, timeout: float | None = None) -> AudioDevice:
        """
        Awaitable get_current_output_device(): returns what its callback receives (platformpp._platformpp.AudioDevice). `timeout` in seconds.
        """
    def get_current_user(self) -> UserHandle | None:
        """
        The current user, once the Gateway is Ready (else None).
        """
    def get_current_user_v2(self) -> UserHandle | None:
        """
        The current user, once the Gateway is Ready (else None): the SDK 1.10 name of get_current_user.
        """
    def get_guild_channels(self, guild_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult, list[GuildChannel]], None]) -> None:
        """
        The guild's channels the user can see, in display order: callback(result, channels).
        """
    async def get_guild_channels_async(self, guild_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> list[GuildChannel]:
        """
        Awaitable get_guild_channels(): returns what its callback receives after the result (list[platformpp._platformpp.GuildChannel]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_input_devices(self, cb: collections.abc.Callable[[list[AudioDevice]], None]) -> None:
        """
        cb(devices): the input devices.
        """
    async def get_input_devices_async(self, *, timeout: float | None = None) -> list[AudioDevice]:
        """
        Awaitable get_input_devices(): returns what its callback receives (list[platformpp._platformpp.AudioDevice]). `timeout` in seconds.
        """
    def get_input_volume(self) -> float:
        """
        Microphone volume in percent [0, 100].
        """
    def get_lobby_handle(self, lobby_id: typing.SupportsInt | typing.SupportsIndex) -> LobbyHandle | None:
        """
        A snapshot of the lobby, or None.
        """
    def get_lobby_ids(self) -> list[int]:
        """
        The ids of the user's lobbies.
        """
    def get_lobby_messages_with_limit(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, limit: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult, list[MessageHandle]], None]) -> None:
        """
        The latest limit (1–200) lobby messages, oldest first: callback(result, messages).
        """
    async def get_lobby_messages_with_limit_async(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, limit: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> list[MessageHandle]:
        """
        Awaitable get_lobby_messages_with_limit(): returns what its callback receives after the result (list[platformpp._platformpp.MessageHandle]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_message_handle(self, message_id: typing.SupportsInt | typing.SupportsIndex) -> MessageHandle | None:
        """
        A cached message, or None.
        """
    def get_output_devices(self, cb: collections.abc.Callable[[list[AudioDevice]], None]) -> None:
        """
        cb(devices): the output devices.
        """
    async def get_output_devices_async(self, *, timeout: float | None = None) -> list[AudioDevice]:
        """
        Awaitable get_output_devices(): returns what its callback receives (list[platformpp._platformpp.AudioDevice]). `timeout` in seconds.
        """
    def get_output_volume(self) -> float:
        """
        Output volume in percent [0, 200].
        """
    def get_platform_client_connected_user(self, application_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult, UserHandle | None], None]) -> None:
        """
        The user signed in to the desktop client, from the READY of an IPC handshake as application_id (no token needed): callback(result, user); RPCError and None when no desktop client runs or it refuses the application id.
        """
    async def get_platform_client_connected_user_async(self, application_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> UserHandle | None:
        """
        Awaitable get_platform_client_connected_user(): returns what its callback receives after the result (platformpp._platformpp.UserHandle | None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_provisional_token(self, application_id: typing.SupportsInt | typing.SupportsIndex, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, callback: collections.abc.Callable[[ClientResult, str, str, AuthorizationTokenType, int, str], None]) -> None:
        """
        A provisional account's token from an identity provider's token: callback(result, access_token, refresh_token, token_type, expires_in, scopes).
        """
    async def get_provisional_token_async(self, application_id: typing.SupportsInt | typing.SupportsIndex, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, *, timeout: float | None = None) -> tuple[str, str, AuthorizationTokenType, int, str]:
        """
        Awaitable get_provisional_token(): returns what its callback receives after the result (tuple[str, str, platformpp._platformpp.AuthorizationTokenType, int, str]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_relationship_handle(self, user_id: typing.SupportsInt | typing.SupportsIndex) -> RelationshipHandle:
        """
        The relationship with a user (types None_ when none).
        """
    def get_relationships(self) -> list[RelationshipHandle]:
        """
        The current user's relationships.
        """
    def get_relationships_by_group(self, group_type: RelationshipGroupType) -> list[RelationshipHandle]:
        """
        Friends in one RelationshipGroupType, by display name.
        """
    def get_self_deaf_all(self) -> bool:
        """
        Whether every call is deafened.
        """
    def get_self_mute_all(self) -> bool:
        """
        Whether every call is muted.
        """
    def get_status(self) -> Client.Status:
        """
        The connection state.
        """
    def get_token(self, application_id: typing.SupportsInt | typing.SupportsIndex, code: str, code_verifier: str, redirect_uri: str, callback: collections.abc.Callable[[ClientResult, str, str, AuthorizationTokenType, int, str], None]) -> None:
        """
        Exchanges an authorization code (with its PKCE verifier) for tokens: callback(result, access_token, refresh_token, token_type, expires_in, scopes).
        """
    async def get_token_async(self, application_id: typing.SupportsInt | typing.SupportsIndex, code: str, code_verifier: str, redirect_uri: str, *, timeout: float | None = None) -> tuple[str, str, AuthorizationTokenType, int, str]:
        """
        Awaitable get_token(): returns what its callback receives after the result (tuple[str, str, platformpp._platformpp.AuthorizationTokenType, int, str]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_token_from_device(self, args: DeviceAuthorizationArgs, callback: collections.abc.Callable[[ClientResult, str, str, AuthorizationTokenType, int, str], None]) -> None:
        """
        Device authorization (consoles, TVs): shows the user code (open_authorize_device_screen), polls until the user approves on another device: callback(result, access_token, refresh_token, token_type, expires_in, scopes).
        """
    async def get_token_from_device_async(self, args: DeviceAuthorizationArgs, *, timeout: float | None = None) -> tuple[str, str, AuthorizationTokenType, int, str]:
        """
        Awaitable get_token_from_device(): returns what its callback receives after the result (tuple[str, str, platformpp._platformpp.AuthorizationTokenType, int, str]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_token_from_device_provisional_merge(self, args: DeviceAuthorizationArgs, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, callback: collections.abc.Callable[[ClientResult, str, str, AuthorizationTokenType, int, str], None]) -> None:
        """
        get_token_from_device, merging the provisional account of the external token into the approving user.
        """
    async def get_token_from_device_provisional_merge_async(self, args: DeviceAuthorizationArgs, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, *, timeout: float | None = None) -> tuple[str, str, AuthorizationTokenType, int, str]:
        """
        Awaitable get_token_from_device_provisional_merge(): returns what its callback receives after the result (tuple[str, str, platformpp._platformpp.AuthorizationTokenType, int, str]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_token_from_provisional_merge(self, application_id: typing.SupportsInt | typing.SupportsIndex, code: str, code_verifier: str, redirect_uri: str, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, callback: collections.abc.Callable[[ClientResult, str, str, AuthorizationTokenType, int, str], None]) -> None:
        """
        get_token that also merges the provisional account of the external token into the user.
        """
    async def get_token_from_provisional_merge_async(self, application_id: typing.SupportsInt | typing.SupportsIndex, code: str, code_verifier: str, redirect_uri: str, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, *, timeout: float | None = None) -> tuple[str, str, AuthorizationTokenType, int, str]:
        """
        Awaitable get_token_from_provisional_merge(): returns what its callback receives after the result (tuple[str, str, platformpp._platformpp.AuthorizationTokenType, int, str]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_user(self, user_id: typing.SupportsInt | typing.SupportsIndex) -> UserHandle | None:
        """
        A user the SDK knows, or None.
        """
    def get_user_application_profiles(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult, list[UserApplicationProfileHandle]], None]) -> None:
        """
        Fetches the game identity data of the current user or a friend: callback(result, profiles).
        """
    async def get_user_application_profiles_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> list[UserApplicationProfileHandle]:
        """
        Awaitable get_user_application_profiles(): returns what its callback receives after the result (list[platformpp._platformpp.UserApplicationProfileHandle]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_user_application_profiles_no_lock(self, user_id: typing.SupportsInt | typing.SupportsIndex) -> list[UserApplicationProfileHandle]:
        """
        The profiles kept by the last get_user_application_profiles, read without taking the Client's lock.
        """
    def get_user_guilds(self, callback: collections.abc.Callable[[ClientResult, list[GuildMinimal]], None]) -> None:
        """
        The current user's guilds: callback(result, guilds).
        """
    async def get_user_guilds_async(self, *, timeout: float | None = None) -> list[GuildMinimal]:
        """
        Awaitable get_user_guilds(): returns what its callback receives after the result (list[platformpp._platformpp.GuildMinimal]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_user_message_summaries(self, callback: collections.abc.Callable[[ClientResult, list[UserMessageSummary]], None]) -> None:
        """
        The user's direct message conversations: callback(result, summaries).
        """
    async def get_user_message_summaries_async(self, *, timeout: float | None = None) -> list[UserMessageSummary]:
        """
        Awaitable get_user_message_summaries(): returns what its callback receives after the result (list[platformpp._platformpp.UserMessageSummary]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_user_messages_with_limit(self, recipient_id: typing.SupportsInt | typing.SupportsIndex, limit: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult, list[MessageHandle]], None]) -> None:
        """
        The latest limit (1–200) messages with a user, oldest first, from the cache when it holds them: callback(result, messages).
        """
    async def get_user_messages_with_limit_async(self, recipient_id: typing.SupportsInt | typing.SupportsIndex, limit: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> list[MessageHandle]:
        """
        Awaitable get_user_messages_with_limit(): returns what its callback receives after the result (list[platformpp._platformpp.MessageHandle]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_voice_settings(self, callback: collections.abc.Callable[[ClientResult, VoiceSettings], None]) -> None:
        """
        The desktop client user's voice settings over IPC: callback(result, settings); RPCError and VoiceSettings.nullobj when no desktop client runs.
        """
    async def get_voice_settings_async(self, *, timeout: float | None = None) -> VoiceSettings:
        """
        Awaitable get_voice_settings(): returns what its callback receives after the result (platformpp._platformpp.VoiceSettings), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def get_web_base(self) -> str:
        """
        The web base URL of the OAuth2 pages.
        """
    def handle_authorize_redirect(self, url: str) -> bool:
        """
        Feeds back the redirect URL the OS handed the game. False when it is for no pending authorization.
        """
    def is_authenticated(self) -> bool:
        """
        Whether update_token has set a working token.
        """
    def is_platform_app_installed(self, callback: collections.abc.Callable[[bool], None]) -> None:
        """
        callback(installed): whether the desktop client runs (its IPC socket answers).
        """
    def join_linked_lobby_guild(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, provisional_user_merge_required_callback: collections.abc.Callable[[], None] | None, callback: collections.abc.Callable[[ClientResult, str], None]) -> None:
        """
        An invite to the guild of the lobby's linked channel: callback(result, invite_url).
        """
    async def join_linked_lobby_guild_async(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, provisional_user_merge_required_callback: collections.abc.Callable[[], None] | None, *, timeout: float | None = None) -> str:
        """
        Awaitable join_linked_lobby_guild(): returns what its callback receives after the result (str), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def leave_lobby(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Leaves the lobby: callback(result).
        """
    async def leave_lobby_async(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable leave_lobby(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def link_channel_to_lobby(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, channel_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Links the lobby to a guild channel (CanLinkLobby; GuildChannel.is_linkable): callback(result).
        """
    async def link_channel_to_lobby_async(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, channel_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable link_channel_to_lobby(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def off(self, event: typing.Literal['activity_invite_created', 'activity_invite_updated', 'activity_join', 'activity_join_with_application', 'authorize_device_screen_closed', 'device_change', 'lobby_created', 'lobby_deleted', 'lobby_member_added', 'lobby_member_removed', 'lobby_member_updated', 'lobby_updated', 'message_created', 'message_deleted', 'message_updated', 'no_audio_input', 'relationship_created', 'relationship_deleted', 'relationship_groups_updated', 'status_changed', 'token_expiration', 'user_updated', 'voice_participant_changed', 'voice_settings_updated'], handler: collections.abc.Callable[..., object]) -> None:
        """
        Removes one `handler` of `event` (ValueError if it was not added).
        """
    @typing.overload
    def on(self, event: typing.Literal['activity_invite_created'], handler: None = None) -> collections.abc.Callable[[_ActivityInviteCreatedHandler], _ActivityInviteCreatedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['activity_invite_created'], handler: _ActivityInviteCreatedHandler) -> _ActivityInviteCreatedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['activity_invite_updated'], handler: None = None) -> collections.abc.Callable[[_ActivityInviteUpdatedHandler], _ActivityInviteUpdatedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['activity_invite_updated'], handler: _ActivityInviteUpdatedHandler) -> _ActivityInviteUpdatedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['activity_join'], handler: None = None) -> collections.abc.Callable[[_ActivityJoinHandler], _ActivityJoinHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['activity_join'], handler: _ActivityJoinHandler) -> _ActivityJoinHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['activity_join_with_application'], handler: None = None) -> collections.abc.Callable[[_ActivityJoinWithApplicationHandler], _ActivityJoinWithApplicationHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['activity_join_with_application'], handler: _ActivityJoinWithApplicationHandler) -> _ActivityJoinWithApplicationHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['authorize_device_screen_closed'], handler: None = None) -> collections.abc.Callable[[_AuthorizeDeviceScreenClosedHandler], _AuthorizeDeviceScreenClosedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['authorize_device_screen_closed'], handler: _AuthorizeDeviceScreenClosedHandler) -> _AuthorizeDeviceScreenClosedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['device_change'], handler: None = None) -> collections.abc.Callable[[_DeviceChangeHandler], _DeviceChangeHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['device_change'], handler: _DeviceChangeHandler) -> _DeviceChangeHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['lobby_created'], handler: None = None) -> collections.abc.Callable[[_LobbyCreatedHandler], _LobbyCreatedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['lobby_created'], handler: _LobbyCreatedHandler) -> _LobbyCreatedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['lobby_deleted'], handler: None = None) -> collections.abc.Callable[[_LobbyDeletedHandler], _LobbyDeletedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['lobby_deleted'], handler: _LobbyDeletedHandler) -> _LobbyDeletedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['lobby_member_added'], handler: None = None) -> collections.abc.Callable[[_LobbyMemberAddedHandler], _LobbyMemberAddedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['lobby_member_added'], handler: _LobbyMemberAddedHandler) -> _LobbyMemberAddedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['lobby_member_removed'], handler: None = None) -> collections.abc.Callable[[_LobbyMemberRemovedHandler], _LobbyMemberRemovedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['lobby_member_removed'], handler: _LobbyMemberRemovedHandler) -> _LobbyMemberRemovedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['lobby_member_updated'], handler: None = None) -> collections.abc.Callable[[_LobbyMemberUpdatedHandler], _LobbyMemberUpdatedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['lobby_member_updated'], handler: _LobbyMemberUpdatedHandler) -> _LobbyMemberUpdatedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['lobby_updated'], handler: None = None) -> collections.abc.Callable[[_LobbyUpdatedHandler], _LobbyUpdatedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['lobby_updated'], handler: _LobbyUpdatedHandler) -> _LobbyUpdatedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['message_created'], handler: None = None) -> collections.abc.Callable[[_MessageCreatedHandler], _MessageCreatedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['message_created'], handler: _MessageCreatedHandler) -> _MessageCreatedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['message_deleted'], handler: None = None) -> collections.abc.Callable[[_MessageDeletedHandler], _MessageDeletedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['message_deleted'], handler: _MessageDeletedHandler) -> _MessageDeletedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['message_updated'], handler: None = None) -> collections.abc.Callable[[_MessageUpdatedHandler], _MessageUpdatedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['message_updated'], handler: _MessageUpdatedHandler) -> _MessageUpdatedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['no_audio_input'], handler: None = None) -> collections.abc.Callable[[_NoAudioInputHandler], _NoAudioInputHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['no_audio_input'], handler: _NoAudioInputHandler) -> _NoAudioInputHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['relationship_created'], handler: None = None) -> collections.abc.Callable[[_RelationshipCreatedHandler], _RelationshipCreatedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['relationship_created'], handler: _RelationshipCreatedHandler) -> _RelationshipCreatedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['relationship_deleted'], handler: None = None) -> collections.abc.Callable[[_RelationshipDeletedHandler], _RelationshipDeletedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['relationship_deleted'], handler: _RelationshipDeletedHandler) -> _RelationshipDeletedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['relationship_groups_updated'], handler: None = None) -> collections.abc.Callable[[_RelationshipGroupsUpdatedHandler], _RelationshipGroupsUpdatedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['relationship_groups_updated'], handler: _RelationshipGroupsUpdatedHandler) -> _RelationshipGroupsUpdatedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['status_changed'], handler: None = None) -> collections.abc.Callable[[_StatusChangedHandler], _StatusChangedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['status_changed'], handler: _StatusChangedHandler) -> _StatusChangedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['token_expiration'], handler: None = None) -> collections.abc.Callable[[_TokenExpirationHandler], _TokenExpirationHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['token_expiration'], handler: _TokenExpirationHandler) -> _TokenExpirationHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['user_updated'], handler: None = None) -> collections.abc.Callable[[_UserUpdatedHandler], _UserUpdatedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['user_updated'], handler: _UserUpdatedHandler) -> _UserUpdatedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['voice_participant_changed'], handler: None = None) -> collections.abc.Callable[[_VoiceParticipantChangedHandler], _VoiceParticipantChangedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['voice_participant_changed'], handler: _VoiceParticipantChangedHandler) -> _VoiceParticipantChangedHandler: ...
    @typing.overload
    def on(self, event: typing.Literal['voice_settings_updated'], handler: None = None) -> collections.abc.Callable[[_VoiceSettingsUpdatedHandler], _VoiceSettingsUpdatedHandler]: ...
    @typing.overload
    def on(self, event: typing.Literal['voice_settings_updated'], handler: _VoiceSettingsUpdatedHandler) -> _VoiceSettingsUpdatedHandler:
        """
        Adds `handler` for `event`; without a handler, returns a decorator that adds the function.
            A coroutine function is scheduled on the asyncio loop that pumps the SDK.
        """
    def open_authorize_device_screen(self, client_id: typing.SupportsInt | typing.SupportsIndex, user_code: str) -> None:
        """
        Shows where to enter the user code: the verification URL goes to the authorize URL opener, and the log.
        """
    def open_connected_games_settings_in_platform(self, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Opens the platform's connected-games settings (webBase + '/settings/connected-games') through the authorize URL opener: callback(result); ValidationError for a provisional account.
        """
    async def open_connected_games_settings_in_platform_async(self, *, timeout: float | None = None) -> None:
        """
        Awaitable open_connected_games_settings_in_platform(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def open_message_in_platform(self, message_id: typing.SupportsInt | typing.SupportsIndex, provisional_user_merge_required_callback: collections.abc.Callable[[], None] | None, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Opens the message in the platform's client (through the URL opener): callback(result).
        """
    async def open_message_in_platform_async(self, message_id: typing.SupportsInt | typing.SupportsIndex, provisional_user_merge_required_callback: collections.abc.Callable[[], None] | None, *, timeout: float | None = None) -> None:
        """
        Awaitable open_message_in_platform(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def provisional_user_merge_completed(self, success: bool) -> None:
        """
        The game's answer to a provisional-merge request.
        """
    def refresh_token(self, application_id: typing.SupportsInt | typing.SupportsIndex, refresh_token: str, callback: collections.abc.Callable[[ClientResult, str, str, AuthorizationTokenType, int, str], None]) -> None:
        """
        Trades a refresh token for a new pair. result.deauthorized is True on invalid_grant: unlink the user.
        """
    async def refresh_token_async(self, application_id: typing.SupportsInt | typing.SupportsIndex, refresh_token: str, *, timeout: float | None = None) -> tuple[str, str, AuthorizationTokenType, int, str]:
        """
        Awaitable refresh_token(): returns what its callback receives after the result (tuple[str, str, platformpp._platformpp.AuthorizationTokenType, int, str]), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def register_authorize_request_callback(self, callback: collections.abc.Callable[[], None]) -> None:
        """
        Calls callback() for authorization requests from a client entry point.
        """
    def register_launch_command(self, application_id: typing.SupportsInt | typing.SupportsIndex, command: str) -> bool:
        """
        How the desktop client launches the game: on Linux the desktop entry $XDG_DATA_HOME/applications/platformpp-<id>.desktop running `command %u`. False on bad input.
        """
    def register_launch_steam_application(self, application_id: typing.SupportsInt | typing.SupportsIndex, steam_app_id: typing.SupportsInt | typing.SupportsIndex) -> bool:
        """
        The same, launching the Steam game steam_app_id (xdg-open steam://rungameid/<id>).
        """
    def reject_friend_request(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def reject_friend_request_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable reject_friend_request(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def reject_game_friend_request(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def reject_game_friend_request_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable reject_game_friend_request(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def reject_platform_friend_request(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def reject_platform_friend_request_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable reject_platform_friend_request(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def remove_authorize_request_callback(self) -> None:
        """
        Stops the authorize request callback.
        """
    def remove_friend(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def remove_friend_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable remove_friend(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def remove_game_friend(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def remove_game_friend_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable remove_game_friend(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def remove_platform_and_game_friend(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Ends the friendship on the platform and in this game: callback(result).
        """
    async def remove_platform_and_game_friend_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable remove_platform_and_game_friend(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def revoke_token(self, application_id: typing.SupportsInt | typing.SupportsIndex, token: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Revokes the whole authorization (access and refresh token both), as unlinking requires.
        """
    async def revoke_token_async(self, application_id: typing.SupportsInt | typing.SupportsIndex, token: str, *, timeout: float | None = None) -> None:
        """
        Awaitable revoke_token(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def search_friends_by_username(self, search_str: str) -> list[UserHandle]:
        """
        Friends whose username or display name contains search_str, ignoring case.
        """
    def send_activity_invite(self, user_id: typing.SupportsInt | typing.SupportsIndex, content: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Invites a friend to the current user's party (needs a party and a join secret): callback(result).
        """
    async def send_activity_invite_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, content: str, *, timeout: float | None = None) -> None:
        """
        Awaitable send_activity_invite(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def send_activity_join_request(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Asks a friend with a party to let the user in: callback(result).
        """
    async def send_activity_join_request_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable send_activity_join_request(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def send_activity_join_request_reply(self, invite: ActivityInvite, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Answers a join request with an invite back to its sender: callback(result).
        """
    async def send_activity_join_request_reply_async(self, invite: ActivityInvite, *, timeout: float | None = None) -> None:
        """
        Awaitable send_activity_join_request_reply(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def send_friend_request_by_id(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def send_friend_request_by_id_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable send_friend_request_by_id(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def send_game_friend_request(self, username: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A friend request (platform, or this game only) to the user with this unique username, or accepting theirs: callback(result).
        """
    async def send_game_friend_request_async(self, username: str, *, timeout: float | None = None) -> None:
        """
        Awaitable send_game_friend_request(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def send_game_friend_request_by_id(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def send_game_friend_request_by_id_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable send_game_friend_request_by_id(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def send_lobby_message(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, content: str, callback: collections.abc.Callable[[ClientResult, int], None]) -> None:
        """
        Sends content (1–2000 characters) to the lobby: callback(result, message_id).
        """
    async def send_lobby_message_async(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, content: str, *, timeout: float | None = None) -> int:
        """
        Awaitable send_lobby_message(): returns what its callback receives after the result (int), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def send_lobby_message_with_metadata(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, content: str, metadata: collections.abc.Mapping[str, str], callback: collections.abc.Callable[[ClientResult, int], None]) -> None:
        """
        send_lobby_message with metadata.
        """
    async def send_lobby_message_with_metadata_async(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, content: str, metadata: collections.abc.Mapping[str, str], *, timeout: float | None = None) -> int:
        """
        Awaitable send_lobby_message_with_metadata(): returns what its callback receives after the result (int), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def send_platform_friend_request(self, username: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A friend request (platform, or this game only) to the user with this unique username, or accepting theirs: callback(result).
        """
    async def send_platform_friend_request_async(self, username: str, *, timeout: float | None = None) -> None:
        """
        Awaitable send_platform_friend_request(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def send_platform_friend_request_by_id(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def send_platform_friend_request_by_id_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable send_platform_friend_request_by_id(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def send_user_message(self, recipient_id: typing.SupportsInt | typing.SupportsIndex, content: str, callback: collections.abc.Callable[[ClientResult, int], None]) -> None:
        """
        A direct message to another user of this game: callback(result, message_id).
        """
    async def send_user_message_async(self, recipient_id: typing.SupportsInt | typing.SupportsIndex, content: str, *, timeout: float | None = None) -> int:
        """
        Awaitable send_user_message(): returns what its callback receives after the result (int), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def send_user_message_with_metadata(self, recipient_id: typing.SupportsInt | typing.SupportsIndex, content: str, metadata: collections.abc.Mapping[str, str], callback: collections.abc.Callable[[ClientResult, int], None]) -> None:
        """
        send_user_message with metadata.
        """
    async def send_user_message_with_metadata_async(self, recipient_id: typing.SupportsInt | typing.SupportsIndex, content: str, metadata: collections.abc.Mapping[str, str], *, timeout: float | None = None) -> int:
        """
        Awaitable send_user_message_with_metadata(): returns what its callback receives after the result (int), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def set_activity_invite_created_callback(self, callback: collections.abc.Callable[[ActivityInvite], None] | None) -> None:
        """
        callback(invite) when an invite or join request arrives. None: stop.
        Runs beside the handlers added with on().
        """
    def set_activity_invite_updated_callback(self, callback: collections.abc.Callable[[ActivityInvite], None] | None) -> None:
        """
        callback(invite) when an invite changes (turns invalid). None: stop.
        Runs beside the handlers added with on().
        """
    def set_activity_join_callback(self, callback: collections.abc.Callable[[str], None] | None) -> None:
        """
        callback(join_secret) when the player accepts an invite or clicks Join in the desktop client (ACTIVITY_JOIN over IPC; set_application_id first). None: stop.
        Runs beside the handlers added with on().
        """
    def set_activity_join_with_application_callback(self, callback: collections.abc.Callable[[int, str], None] | None) -> None:
        """
        callback(application_id, join_secret): the same, with the application joined. None: stop.
        Runs beside the handlers added with on().
        """
    def set_aec_dump(self, on: bool) -> None:
        """
        Accepted; no echo-canceller dump is written.
        """
    def set_application_id(self, application_id: int) -> None:
        """
        Sets the default client_id of AuthorizationArgs: an application id, an integer from 0 (none) to 2**64 - 1 (ValidationError otherwise).
        """
    def set_authorize_device_screen_closed_callback(self, cb: collections.abc.Callable[[], None] | None) -> None:
        """
        Calls cb() when the device screen closes (None: stop).
        Runs beside the handlers added with on().
        """
    def set_authorize_url_opener(self, opener: collections.abc.Callable[[str], None] | None) -> None:
        """
        Replaces how the authorize URL is opened (None: the system browser).
        """
    def set_automatic_gain_control(self, on: bool) -> None:
        """
        Automatic gain control (accepted; see docs/voice.md for what the engine does).
        """
    def set_device_change_callback(self, callback: collections.abc.Callable[[list[AudioDevice], list[AudioDevice]], None] | None) -> None:
        """
        callback(input_devices, output_devices) when devices appear, go or the default changes (None: stop).
        Runs beside the handlers added with on().
        """
    def set_echo_cancellation(self, on: bool) -> None:
        """
        Echo cancellation.
        """
    def set_emulator_consent_user(self, user: str, admin_secret: str = '') -> None:
        """
        Emulator only: consent headlessly as this test user (id or username) instead of opening a browser. '' turns it off. admin_secret: the emulator's admin secret (Emulator.admin_secret, or the one the CLI prints), which an emulator listening beyond loopback requires for headless consent; it is sent as a bearer header, never in a URL, and never logged or shown.
        """
    def set_engine_managed_audio_session(self, is_engine_managed: bool) -> None:
        """
        Mobile only on the platform: no effect here.
        """
    def set_game_window_pid(self, pid: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        The game window's process id (Windows on the platform; validated and kept here).
        """
    def set_http_request_timeout(self, http_timeout_in_milliseconds: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Timeout of each HTTP request (connect, send and receive). ValidationError if <= 0.
        """
    def set_input_device(self, device_id: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Uses that input device: callback(result); ValidationError for an unknown id (nothing changes).
        """
    async def set_input_device_async(self, device_id: str, *, timeout: float | None = None) -> None:
        """
        Awaitable set_input_device(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def set_input_volume(self, input_volume: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Microphone volume in percent [0, 100]; ValidationError outside.
        """
    def set_lobby_created_callback(self, callback: collections.abc.Callable[[int], None] | None) -> None:
        """
        callback(lobby_id) when a lobby appears in, changes its metadata in, or leaves the cache (None: stop).
        Runs beside the handlers added with on().
        """
    def set_lobby_deleted_callback(self, callback: collections.abc.Callable[[int], None] | None) -> None:
        """
        callback(lobby_id) when a lobby appears in, changes its metadata in, or leaves the cache (None: stop).
        Runs beside the handlers added with on().
        """
    def set_lobby_member_added_callback(self, callback: collections.abc.Callable[[int, int], None] | None) -> None:
        """
        callback(lobby_id, member_id) when a member is added, removed or changed (None: stop).
        Runs beside the handlers added with on().
        """
    def set_lobby_member_removed_callback(self, callback: collections.abc.Callable[[int, int], None] | None) -> None:
        """
        callback(lobby_id, member_id) when a member is added, removed or changed (None: stop).
        Runs beside the handlers added with on().
        """
    def set_lobby_member_updated_callback(self, callback: collections.abc.Callable[[int, int], None] | None) -> None:
        """
        callback(lobby_id, member_id) when a member is added, removed or changed (None: stop).
        Runs beside the handlers added with on().
        """
    def set_lobby_updated_callback(self, callback: collections.abc.Callable[[int], None] | None) -> None:
        """
        callback(lobby_id) when a lobby appears in, changes its metadata in, or leaves the cache (None: stop).
        Runs beside the handlers added with on().
        """
    def set_log_dir(self, path: str, min_severity: LoggingSeverity) -> bool:
        """
        Also writes log lines at or above min_severity to <path>/platformpp.log (secrets redacted, rotated at 5 MiB, three old files kept). False when the file cannot be opened; '' stops it.
        """
    def set_message_created_callback(self, callback: collections.abc.Callable[[int], None] | None) -> None:
        """
        callback(message_id) when a message is created or edited (None: stop).
        Runs beside the handlers added with on().
        """
    def set_message_deleted_callback(self, callback: collections.abc.Callable[[int, int], None] | None) -> None:
        """
        callback(message_id, channel_id) when a message is deleted (None: stop).
        Runs beside the handlers added with on().
        """
    def set_message_updated_callback(self, callback: collections.abc.Callable[[int], None] | None) -> None:
        """
        callback(message_id) when a message is created or edited (None: stop).
        Runs beside the handlers added with on().
        """
    def set_no_audio_input_callback(self, callback: collections.abc.Callable[[bool], None] | None) -> None:
        """
        callback(input_detected) when the microphone goes silent or is heard again.
        Runs beside the handlers added with on().
        """
    def set_no_audio_input_threshold(self, dbfs_threshold: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Below this level (dBFS [-100, 100]; -100: off) for 2 s the microphone counts as silent.
        """
    def set_noise_cancellation(self, on: bool) -> None:
        """
        Noise cancellation.
        """
    def set_noise_suppression(self, on: bool) -> None:
        """
        Noise suppression.
        """
    def set_online_status(self, status: StatusType, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        The user's chosen online status (Online, Idle, Dnd, Invisible; Offline appears offline): callback(result).
        """
    async def set_online_status_async(self, status: StatusType, *, timeout: float | None = None) -> None:
        """
        Awaitable set_online_status(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def set_opus_hardware_coding(self, encode: bool, decode: bool) -> None:
        """
        Accepted; Opus is always coded in software (libopus).
        """
    def set_output_device(self, device_id: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Uses that output device: callback(result); ValidationError for an unknown id (nothing changes).
        """
    async def set_output_device_async(self, device_id: str, *, timeout: float | None = None) -> None:
        """
        Awaitable set_output_device(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def set_output_volume(self, output_volume: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Output volume in percent [0, 200]; ValidationError outside.
        """
    def set_relationship_created_callback(self, callback: collections.abc.Callable[[int, bool], None] | None) -> None:
        """
        callback(user_id, is_platform_relationship_update) when a relationship appears or changes (None: stop).
        Runs beside the handlers added with on().
        """
    def set_relationship_deleted_callback(self, callback: collections.abc.Callable[[int, bool], None] | None) -> None:
        """
        callback(user_id, is_platform_relationship_update) when a relationship goes away (None: stop).
        Runs beside the handlers added with on().
        """
    def set_relationship_groups_updated_callback(self, callback: collections.abc.Callable[[int], None] | None) -> None:
        """
        callback(user_id) when a friend moves to another RelationshipGroupType (None: stop).
        Runs beside the handlers added with on().
        """
    def set_self_deaf_all(self, deaf: bool) -> None:
        """
        Deafen every call (overrides each call's).
        """
    def set_self_mute_all(self, mute: bool) -> None:
        """
        Mute every call (overrides each call's).
        """
    def set_showing_chat(self, showing_chat: bool) -> None:
        """
        Whether the game shows its chat (while not, new messages are announced in the log).
        """
    def set_speaker_mode(self, speaker_mode: bool) -> bool:
        """
        Deprecated, mobile only: no effect here, returns False.
        """
    def set_status_changed_callback(self, callback: collections.abc.Callable[[Client.Status, Client.Error, int], None] | None) -> None:
        """
        Calls callback(status, error, error_detail) on every change of state (None: stop). error_detail is the Gateway close code or HTTP status behind a failure.
        Runs beside the handlers added with on().
        """
    def set_thread_priority(self, thread: Client.Thread, priority: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        A nice value (-20 highest .. 19 lowest) for the SDK's thread; ValidationError outside that range.
        """
    def set_token_expiration_callback(self, callback: collections.abc.Callable[[], None] | None) -> None:
        """
        Calls callback() when the access token is about to expire or is rejected (None: stop).
        Runs beside the handlers added with on().
        """
    def set_user_updated_callback(self, callback: collections.abc.Callable[[int], None] | None) -> None:
        """
        callback(user_id) when a known user changes (None: stop).
        Runs beside the handlers added with on().
        """
    def set_voice_log_dir(self, path: str, min_severity: LoggingSeverity) -> None:
        """
        Also writes the voice log to <path>/platformpp-voice.log (rotated as set_log_dir's file); when it cannot be opened an error is logged and nothing changes; '' stops it.
        """
    def set_voice_participant_changed_callback(self, cb: collections.abc.Callable[[int, int, bool], None] | None) -> None:
        """
        cb(lobby_id, member_id, added) when a member joins or leaves the call of one of the user's lobbies, in it or not.
        Runs beside the handlers added with on().
        """
    def set_voice_settings_updated_callback(self, callback: collections.abc.Callable[[VoiceSettings], None] | None) -> None:
        """
        callback(settings) when the desktop user changes their voice settings (None: stop); needs a token.
        Runs beside the handlers added with on().
        """
    def show_audio_route_picker(self) -> bool:
        """
        Mobile only: no effect here, returns False.
        """
    def start_call(self, channel_id: typing.SupportsInt | typing.SupportsIndex) -> Call:
        """
        Joins the channel's call (a lobby id for the lobby's call). A null Call (bool False) when already in it or without a token.
        """
    def start_call_with_audio_callbacks(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, received_cb: typing.Any | None, captured_cb: typing.Any | None) -> Call:
        """
        Joins the lobby's call with audio callbacks, run on the SDK's audio thread every 20 ms:
        received_cb(user_id, samples, sample_rate) -> bool | None per participant and frame (True keeps the frame out of the mix); captured_cb(samples, sample_rate) per captured frame (what it leaves is sent). `samples` is a numpy int16 array of shape (samples_per_channel, channels) viewing the SDK's buffer: no copy, writable, valid only during the callback (copy it to keep it). Return quickly.
        """
    def unblock_user(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def unblock_user_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable unblock_user(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def unlink_channel_from_lobby(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Removes the lobby's channel link: callback(result).
        """
    async def unlink_channel_from_lobby_async(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable unlink_channel_from_lobby(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def unmerge_into_provisional_account(self, application_id: typing.SupportsInt | typing.SupportsIndex, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Splits a merged account back into a provisional one: callback(result).
        """
    async def unmerge_into_provisional_account_async(self, application_id: typing.SupportsInt | typing.SupportsIndex, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, *, timeout: float | None = None) -> None:
        """
        Awaitable unmerge_into_provisional_account(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def update_provisional_account_display_name(self, name: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Sets the current provisional account's display name (1-32 characters).
        """
    async def update_provisional_account_display_name_async(self, name: str, *, timeout: float | None = None) -> None:
        """
        Awaitable update_provisional_account_display_name(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def update_rich_presence(self, activity: Activity, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Shows activity as the user's rich presence in this game (activity.name is the displayed application name; assets.invite_cover_image a URL or asset key): callback(result).
        """
    async def update_rich_presence_async(self, activity: Activity, *, timeout: float | None = None) -> None:
        """
        Awaitable update_rich_presence(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def update_token(self, token_type: AuthorizationTokenType, token: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Sets the token the Client acts with, after checking it with the platform (the previous one is kept if the check fails).
        """
    async def update_token_async(self, token_type: AuthorizationTokenType, token: str, *, timeout: float | None = None) -> None:
        """
        Awaitable update_token(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    async def wait_until_ready(self, *, timeout: float | None = None) -> None:
        """
        Returns once the Client's status is Ready (at once if it is); NetworkError if it becomes
            Disconnected first. It does not connect: see connect_async().
        """
class AuthorizationTokenType(enum.IntEnum):
    """
    The kind of an access token.
    """
    Bearer = 1
    User = 0
    def __str__(self):
        ...
class AuthenticationExternalAuthType(enum.IntEnum):
    """
    How an identity provider's token is understood (provisional accounts).
    """
    AppleIdToken = 6
    EpicOnlineServicesAccessToken = 1
    EpicOnlineServicesIdToken = 2
    OIDC = 0
    PlatformBotIssuedAccessToken = 5
    PlayStationNetworkIdToken = 7
    SteamSessionTicket = 3
    UnityServicesIdToken = 4
    def __str__(self):
        ...
class ActivityTypes(enum.IntEnum):
    """
    What an activity shows the user doing.
    """
    Competing = 5
    CustomStatus = 4
    HangStatus = 6
    Listening = 2
    Playing = 0
    Streaming = 1
    Watching = 3
    def __str__(self):
        ...
class StatusDisplayTypes(enum.IntEnum):
    """
    Which field the status line under the user's name shows.
    """
    Details = 2
    Name = 0
    State = 1
    def __str__(self):
        ...
class ActivityGamePlatforms(enum.IntFlag):
    """
    Where the game can be played: bits, combined with |.
    """
    Android = 16
    Desktop = 1
    Embedded = 32
    IOS = 8
    PS4 = 64
    PS5 = 128
    Samsung = 4
    Xbox = 2
    def __and__(self, other):
        ...
    def __invert__(self):
        ...
    def __or__(self, other):
        ...
    def __rand__(self, other):
        ...
    def __ror__(self, other):
        ...
    def __rxor__(self, other):
        ...
    def __str__(self):
        ...
    def __xor__(self, other):
        ...
class ActivityPartyPrivacy(enum.IntEnum):
    """
    Who may join the party.
    """
    Private = 0
    Public = 1
    def __str__(self):
        ...
class ActivityActionTypes(enum.IntEnum):
    """
    What an activity invite asks: to join, or to be let in.
    """
    Invalid = 0
    Join = 1
    JoinRequest = 5
    def __str__(self):
        ...
@typing.final
class ActivityAssets:
    """
    Images (asset keys or URLs, at most 512 characters) and their texts.
    """
    nullobj: typing.ClassVar[ActivityAssets]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> ActivityAssets:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> ActivityAssets:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        No images.
        """
    @property
    def invite_cover_image(self) -> str | None:
        """
        The cover image of this game's invites: a URL or an asset key.
        """
    @invite_cover_image.setter
    def invite_cover_image(self, arg1: str | None) -> None:
        ...
    @property
    def large_image(self) -> str | None:
        """
        Large image: key or URL.
        """
    @large_image.setter
    def large_image(self, arg1: str | None) -> None:
        ...
    @property
    def large_text(self) -> str | None:
        """
        The large image's text.
        """
    @large_text.setter
    def large_text(self, arg1: str | None) -> None:
        ...
    @property
    def large_url(self) -> str | None:
        """
        Where a click on the large image leads (URL).
        """
    @large_url.setter
    def large_url(self, arg1: str | None) -> None:
        ...
    @property
    def small_image(self) -> str | None:
        """
        Small image: key or URL.
        """
    @small_image.setter
    def small_image(self, arg1: str | None) -> None:
        ...
    @property
    def small_text(self) -> str | None:
        """
        The small image's text.
        """
    @small_text.setter
    def small_text(self, arg1: str | None) -> None:
        ...
    @property
    def small_url(self) -> str | None:
        """
        Where a click on the small image leads (URL).
        """
    @small_url.setter
    def small_url(self, arg1: str | None) -> None:
        ...
@typing.final
class ActivityTimestamps:
    """
    Start and end of the activity, Unix milliseconds (0: unset).
    """
    nullobj: typing.ClassVar[ActivityTimestamps]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> ActivityTimestamps:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> ActivityTimestamps:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        Both unset.
        """
    @property
    def end(self) -> int:
        """
        End, Unix ms.
        """
    @end.setter
    def end(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def start(self) -> int:
        """
        Start, Unix ms.
        """
    @start.setter
    def start(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
@typing.final
class ActivityParty:
    """
    The player's party: id and sizes.
    """
    nullobj: typing.ClassVar[ActivityParty]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> ActivityParty:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> ActivityParty:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        An empty party.
        """
    @property
    def current_size(self) -> int:
        """
        Players in the party (0 to max_size).
        """
    @current_size.setter
    def current_size(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def id(self) -> str:
        """
        The party's id (at most 128 characters).
        """
    @id.setter
    def id(self, arg1: str) -> None:
        ...
    @property
    def max_size(self) -> int:
        """
        The party's capacity.
        """
    @max_size.setter
    def max_size(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def privacy(self) -> ActivityPartyPrivacy:
        """
        ActivityPartyPrivacy: Private (default) or Public.
        """
    @privacy.setter
    def privacy(self, arg1: ActivityPartyPrivacy) -> None:
        ...
@typing.final
class ActivitySecrets:
    """
    What other games receive to join.
    """
    nullobj: typing.ClassVar[ActivitySecrets]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> ActivitySecrets:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> ActivitySecrets:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        No secrets.
        """
    @property
    def join(self) -> str:
        """
        The join secret (at most 128 characters).
        """
    @join.setter
    def join(self, arg1: str) -> None:
        ...
@typing.final
class ActivityButton:
    """
    A button on the rich presence.
    """
    nullobj: typing.ClassVar[ActivityButton]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> ActivityButton:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> ActivityButton:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        An empty button.
        """
    @property
    def label(self) -> str:
        """
        1–32 characters.
        """
    @label.setter
    def label(self, arg1: str) -> None:
        ...
    @property
    def url(self) -> str:
        """
        The URL it opens.
        """
    @url.setter
    def url(self, arg1: str) -> None:
        ...
@typing.final
class ActivityInvite:
    """
    An activity invite (type Join) or join request (JoinRequest) another user sent.
    """
    nullobj: typing.ClassVar[ActivityInvite]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> ActivityInvite:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> ActivityInvite:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        An empty invite.
        """
    @property
    def application_id(self) -> int:
        """
        The game.
        """
    @application_id.setter
    def application_id(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def channel_id(self) -> int:
        """
        Its channel.
        """
    @channel_id.setter
    def channel_id(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def is_valid(self) -> bool:
        """
        False once the sender left the party.
        """
    @is_valid.setter
    def is_valid(self, arg1: bool) -> None:
        ...
    @property
    def message_id(self) -> int:
        """
        Its message (what accept_activity_invite names).
        """
    @message_id.setter
    def message_id(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def parent_application_id(self) -> int:
        """
        The game's parent application (0: none).
        """
    @parent_application_id.setter
    def parent_application_id(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def party_id(self) -> str:
        """
        The party it is about.
        """
    @party_id.setter
    def party_id(self, arg1: str) -> None:
        ...
    @property
    def sender_id(self) -> int:
        """
        Who sent it.
        """
    @sender_id.setter
    def sender_id(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def session_id(self) -> str:
        """
        The sender's session.
        """
    @session_id.setter
    def session_id(self, arg1: str) -> None:
        ...
    @property
    def type(self) -> ActivityActionTypes:
        """
        ActivityActionTypes: Join or JoinRequest.
        """
    @type.setter
    def type(self, arg1: ActivityActionTypes) -> None:
        ...
@typing.final
class Activity:
    """
    Rich presence: what the player is doing in the game (Client.update_rich_presence).
    """
    nullobj: typing.ClassVar[Activity]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> Activity:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> Activity:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        An empty Playing activity.
        """
    def add_button(self, button: ActivityButton) -> None:
        """
        Adds a button.
        """
    def equals(self, other: Activity) -> bool:
        """
        Whether both describe the same activity.
        """
    def get_buttons(self) -> list[ActivityButton]:
        """
        The buttons (at most two).
        """
    @property
    def application_id(self) -> int | None:
        """
        The application that set it (other users' activities).
        """
    @application_id.setter
    def application_id(self, arg1: typing.SupportsInt | typing.SupportsIndex | None) -> None:
        ...
    @property
    def assets(self) -> ActivityAssets | None:
        """
        Images and their texts.
        """
    @assets.setter
    def assets(self, arg1: ActivityAssets | None) -> None:
        ...
    @property
    def details(self) -> str | None:
        """
        At most 128 characters.
        """
    @details.setter
    def details(self, arg1: str | None) -> None:
        ...
    @property
    def details_url(self) -> str | None:
        """
        Where a click on the details leads.
        """
    @details_url.setter
    def details_url(self, arg1: str | None) -> None:
        ...
    @property
    def name(self) -> str:
        """
        The displayed application name (1–128 characters).
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
    @property
    def parent_application_id(self) -> int | None:
        """
        The publisher's parent application, if any.
        """
    @parent_application_id.setter
    def parent_application_id(self, arg1: typing.SupportsInt | typing.SupportsIndex | None) -> None:
        ...
    @property
    def party(self) -> ActivityParty | None:
        """
        The player's party.
        """
    @party.setter
    def party(self, arg1: ActivityParty | None) -> None:
        ...
    @property
    def secrets(self) -> ActivitySecrets | None:
        """
        Join secret.
        """
    @secrets.setter
    def secrets(self, arg1: ActivitySecrets | None) -> None:
        ...
    @property
    def state(self) -> str | None:
        """
        At most 128 characters.
        """
    @state.setter
    def state(self, arg1: str | None) -> None:
        ...
    @property
    def state_url(self) -> str | None:
        """
        Where a click on the state leads.
        """
    @state_url.setter
    def state_url(self, arg1: str | None) -> None:
        ...
    @property
    def status_display_type(self) -> StatusDisplayTypes | None:
        """
        StatusDisplayTypes: which field the status line shows (None: the name).
        """
    @status_display_type.setter
    def status_display_type(self, arg1: StatusDisplayTypes | None) -> None:
        ...
    @property
    def supported_platforms(self) -> ActivityGamePlatforms:
        """
        ActivityGamePlatforms bits (all by default).
        """
    @supported_platforms.setter
    def supported_platforms(self, arg1: ActivityGamePlatforms) -> None:
        ...
    @property
    def timestamps(self) -> ActivityTimestamps | None:
        """
        Start and end.
        """
    @timestamps.setter
    def timestamps(self, arg1: ActivityTimestamps | None) -> None:
        ...
    @property
    def type(self) -> ActivityTypes:
        """
        The ActivityTypes value.
        """
    @type.setter
    def type(self, arg1: ActivityTypes) -> None:
        ...
class ChannelType(enum.IntEnum):
    """
    The platform's channel types.
    """
    Dm = 1
    EphemeralDm = 18
    GroupDm = 3
    GuildCategory = 4
    GuildDirectory = 14
    GuildForum = 15
    GuildMedia = 16
    GuildNews = 5
    GuildNewsThread = 10
    GuildPrivateThread = 12
    GuildPublicThread = 11
    GuildStageVoice = 13
    GuildStore = 6
    GuildText = 0
    GuildVoice = 2
    Lobby = 17
    def __str__(self):
        ...
@typing.final
class LinkedLobby:
    """
    The lobby a guild channel is linked to: its game and its id.
    """
    nullobj: typing.ClassVar[LinkedLobby]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> LinkedLobby:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> LinkedLobby:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        An empty record.
        """
    @property
    def application_id(self) -> int:
        """
        The lobby's game.
        """
    @application_id.setter
    def application_id(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def lobby_id(self) -> int:
        """
        The lobby's id.
        """
    @lobby_id.setter
    def lobby_id(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
@typing.final
class LinkedChannel:
    """
    The guild channel a lobby is linked to.
    """
    nullobj: typing.ClassVar[LinkedChannel]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> LinkedChannel:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> LinkedChannel:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        An empty record.
        """
    @property
    def guild_id(self) -> int:
        """
        The channel's guild.
        """
    @guild_id.setter
    def guild_id(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def id(self) -> int:
        """
        The channel's id.
        """
    @id.setter
    def id(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def name(self) -> str:
        """
        The channel's name.
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
@typing.final
class ChannelHandle:
    """
    A channel the Client knows (a lobby's, a direct message conversation's, or a lobby's linked guild channel): a read-only snapshot.
    """
    nullobj: typing.ClassVar[ChannelHandle]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> ChannelHandle:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> ChannelHandle:
        """
        An independent copy (the instance holds no Python objects).
        """
    @property
    def id(self) -> int:
        """
        The channel's id.
        """
    @property
    def name(self) -> str:
        """
        The guild channel's name; empty otherwise.
        """
    @property
    def recipients(self) -> list[int]:
        """
        The users in it (a lobby's members, a conversation's two participants).
        """
    @property
    def type(self) -> ChannelType:
        """
        The ChannelType.
        """
@typing.final
class GuildMinimal:
    """
    A guild of the current user: id and name.
    """
    nullobj: typing.ClassVar[GuildMinimal]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> GuildMinimal:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> GuildMinimal:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        An empty guild record.
        """
    @property
    def id(self) -> int:
        """
        The guild's id.
        """
    @id.setter
    def id(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def name(self) -> str:
        """
        The guild's name.
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
@typing.final
class GuildChannel:
    """
    A guild channel: type, position and parent category, as the client shows it.
    """
    nullobj: typing.ClassVar[GuildChannel]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> GuildChannel:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> GuildChannel:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        An empty channel record.
        """
    @property
    def id(self) -> int:
        """
        The channel's id.
        """
    @id.setter
    def id(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def is_linkable(self) -> bool:
        """
        Whether the user may link a lobby to it (text, not NSFW, not linked elsewhere, MANAGE_CHANNELS + VIEW_CHANNEL + SEND_MESSAGES).
        """
    @is_linkable.setter
    def is_linkable(self, arg1: bool) -> None:
        ...
    @property
    def is_viewable_and_writeable_by_all_members(self) -> bool:
        """
        Whether every member of the guild can view it and send messages in it.
        """
    @is_viewable_and_writeable_by_all_members.setter
    def is_viewable_and_writeable_by_all_members(self, arg1: bool) -> None:
        ...
    @property
    def linked_lobby(self) -> LinkedLobby | None:
        """
        The lobby linked to it, or None.
        """
    @linked_lobby.setter
    def linked_lobby(self, arg1: LinkedLobby | None) -> None:
        ...
    @property
    def name(self) -> str:
        """
        The channel's name.
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
    @property
    def parent_id(self) -> int | None:
        """
        The category it belongs to, or None.
        """
    @parent_id.setter
    def parent_id(self, arg1: typing.SupportsInt | typing.SupportsIndex | None) -> None:
        ...
    @property
    def position(self) -> int:
        """
        Position within its group.
        """
    @position.setter
    def position(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def type(self) -> ChannelType:
        """
        The ChannelType.
        """
    @type.setter
    def type(self, arg1: ChannelType) -> None:
        ...
class StatusType(enum.IntEnum):
    """
    A user's online status as their friends see it.
    """
    Blocked = 2
    Dnd = 4
    Idle = 3
    Invisible = 5
    Offline = 1
    Online = 0
    Streaming = 6
    Unknown = 7
    def __str__(self):
        ...
class ExternalIdentityProviderType(enum.IntEnum):
    """
    The kind of external identity provider behind a profile.
    """
    EpicOnlineServices = 1
    None_ = 5
    OIDC = 0
    PlatformBot = 4
    Steam = 2
    Unity = 3
    Unknown = 6
    def __str__(self):
        ...
@typing.final
class UserApplicationProfileHandle:
    """
    Game identity data from an external provider; a read-only snapshot.
    """
    nullobj: typing.ClassVar[UserApplicationProfileHandle]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> UserApplicationProfileHandle:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> UserApplicationProfileHandle:
        """
        An independent copy (the instance holds no Python objects).
        """
    @property
    def application_id(self) -> int:
        """
        The game.
        """
    @property
    def avatar_hash(self) -> str:
        """
        The avatar hash the profile shows ('' when none).
        """
    @property
    def metadata(self) -> str:
        """
        The game stats, a JSON object.
        """
    @property
    def provider_id(self) -> str | None:
        """
        The provider's own id (an OIDC issuer) when known, else None.
        """
    @property
    def provider_issued_user_id(self) -> str:
        """
        The user's id at the provider.
        """
    @property
    def provider_type(self) -> ExternalIdentityProviderType:
        """
        The provider's ExternalIdentityProviderType (None without an identity).
        """
    @property
    def user_id(self) -> int:
        """
        The user.
        """
    @property
    def username(self) -> str:
        """
        The name the profile shows.
        """
@typing.final
class UserHandle:
    """
    A user as the Client's cache held them when obtained: a read-only snapshot.
    """
    class AvatarType(enum.IntEnum):
        """
        Image formats of an avatar.
        """
        Gif = 0
        Jpeg = 3
        Png = 2
        Webp = 1
        def __str__(self):
            ...
    nullobj: typing.ClassVar[UserHandle]
    @staticmethod
    def avatar_type_to_string(type: UserHandle.AvatarType) -> str:
        """
        The format's name.
        """
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> UserHandle:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> UserHandle:
        """
        An independent copy (the instance holds no Python objects).
        """
    def avatar_url(self, animated_type: UserHandle.AvatarType, static_type: UserHandle.AvatarType) -> str:
        """
        The avatar's CDN URL: an animated avatar in animated_type's format, a still one in static_type's (Gif is refused for a still avatar: ValidationError); the default avatar's URL without one.
        """
    @property
    def activities(self) -> list[Activity]:
        """
        All of their visible activities.
        """
    @property
    def avatar(self) -> str | None:
        """
        The avatar hash, or None.
        """
    @property
    def display_name(self) -> str:
        """
        global_name when set, else username.
        """
    @property
    def game_activity(self) -> Activity | None:
        """
        Their rich presence in this game, or None.
        """
    @property
    def global_name(self) -> str | None:
        """
        The display name they chose, or None.
        """
    @property
    def id(self) -> int:
        """
        The user's id.
        """
    @property
    def is_provisional(self) -> bool:
        """
        Whether a provisional account.
        """
    @property
    def relationship(self) -> RelationshipHandle:
        """
        The current user's relationship with this user (types None_ when none).
        """
    @property
    def status(self) -> StatusType:
        """
        The StatusType (Offline when not visible).
        """
    @property
    def user_application_profiles(self) -> list[UserApplicationProfileHandle]:
        """
        The profiles fetched by Client.get_user_application_profiles.
        """
    @property
    def username(self) -> str:
        """
        The unique username.
        """
class RelationshipType(enum.IntEnum):
    """
    A relationship between two users.
    """
    Blocked = 2
    Friend = 1
    Implicit = 5
    None_ = 0
    PendingIncoming = 3
    PendingOutgoing = 4
    Suggestion = 6
    def __str__(self):
        ...
class RelationshipGroupType(enum.IntEnum):
    """
    The groups of the friends list (Client.get_relationships_by_group).
    """
    Offline = 2
    OnlineElsewhere = 1
    OnlinePlayingGame = 0
    def __str__(self):
        ...
@typing.final
class RelationshipHandle:
    """
    The current user's relationship with another: a read-only snapshot.
    """
    nullobj: typing.ClassVar[RelationshipHandle]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> RelationshipHandle:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> RelationshipHandle:
        """
        An independent copy (the instance holds no Python objects).
        """
    @property
    def game_relationship_type(self) -> RelationshipType:
        """
        The relationship in this game only.
        """
    @property
    def id(self) -> int:
        """
        The other user's id.
        """
    @property
    def is_spam_request(self) -> bool:
        """
        Whether the platform's spam filter flagged this incoming request.
        """
    @property
    def platform_relationship_type(self) -> RelationshipType:
        """
        The relationship across every game.
        """
    @property
    def user(self) -> UserHandle | None:
        """
        The other user, when known.
        """
class AudioModeType(enum.IntEnum):
    """
    When a call transmits the microphone.
    """
    MODE_PTT = 2
    MODE_UNINIT = 0
    MODE_VAD = 1
    def __str__(self):
        ...
@typing.final
class VoiceStateHandle:
    """
    A participant's self mute and self deaf, as last reported: a snapshot.
    """
    nullobj: typing.ClassVar[VoiceStateHandle]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> VoiceStateHandle:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> VoiceStateHandle:
        """
        An independent copy (the instance holds no Python objects).
        """
    @property
    def self_deaf(self) -> bool:
        """
        Deafened themselves.
        """
    @property
    def self_mute(self) -> bool:
        """
        Muted themselves.
        """
@typing.final
class VADThresholdSettings:
    """
    A call's voice activity threshold: automatic, or fixed in dBFS [-100, 0].
    """
    nullobj: typing.ClassVar[VADThresholdSettings]
    def __bool__(self) -> bool:
        """
        True unless this is `nullobj`.
        """
    def __init__(self) -> None:
        """
        Fixed at -60 dBFS.
        """
    @property
    def automatic(self) -> bool:
        """
        Follow the noise floor instead of the fixed threshold.
        """
    @automatic.setter
    def automatic(self, arg1: bool) -> None:
        ...
    @property
    def vad_threshold(self) -> float:
        """
        The fixed threshold in dBFS.
        """
    @vad_threshold.setter
    def vad_threshold(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
@typing.final
class CallInfoHandle:
    """
    A call seen from outside (LobbyHandle.get_call_info_handle): a snapshot.
    """
    nullobj: typing.ClassVar[CallInfoHandle]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> CallInfoHandle:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> CallInfoHandle:
        """
        An independent copy (the instance holds no Python objects).
        """
    def get_participants(self) -> list[int]:
        """
        The user ids in the call.
        """
    def get_voice_state_handle(self, user_id: typing.SupportsInt | typing.SupportsIndex) -> VoiceStateHandle | None:
        """
        The participant's voice state, or None when not in the call.
        """
    @property
    def channel_id(self) -> int:
        """
        The lobby id for a lobby's call.
        """
    @property
    def guild_id(self) -> int:
        """
        0 for lobby and DM calls.
        """
@typing.final
class Call:
    """
    The current user's call in one channel (Client.start_call). Copies refer to the same call. Event callbacks run from run_callbacks().
    """
    class Status(enum.IntEnum):
        """
        A call's connection state.
        """
        Connected = 4
        Connecting = 2
        Disconnected = 0
        Disconnecting = 6
        Joining = 1
        Reconnecting = 5
        SignalingConnected = 3
        def __str__(self):
            ...
    class Error(enum.IntEnum):
        """
        Why a call ended, if by a failure.
        """
        Forbidden = 5
        JoinTimeout = 4
        None_ = 0
        SignalingConnectionFailed = 1
        SignalingUnexpectedClose = 2
        VoiceConnectionFailed = 3
        def __str__(self):
            ...
    nullobj: typing.ClassVar[Call]
    @staticmethod
    def error_to_string(type: Call.Error) -> str:
        """
        The error's name.
        """
    @staticmethod
    def status_to_string(type: Call.Status) -> str:
        """
        The status's name.
        """
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> Call:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> Call:
        """
        An independent copy (the instance holds no Python objects).
        """
    def get_audio_mode(self) -> AudioModeType:
        """
        MODE_VAD or MODE_PTT.
        """
    def get_channel_id(self) -> int:
        """
        The channel (the lobby id for a lobby's call).
        """
    def get_e2ee_epoch_authenticator(self) -> str | None:
        """
        The DAVE group's epoch authenticator (equal for every member of the same group), or None.
        """
    def get_e2ee_protocol_version(self) -> int:
        """
        The end-to-end encryption (DAVE) protocol version in use; 0: transport encryption only.
        """
    def get_e2ee_verification_code(self, user_id: typing.SupportsInt | typing.SupportsIndex) -> str | None:
        """
        The 45-digit pairwise verification code with user_id, to compare out of band; None if unknown.
        """
    def get_guild_id(self) -> int:
        """
        The guild, 0 for lobby and DM calls.
        """
    def get_local_mute(self, user_id: typing.SupportsInt | typing.SupportsIndex) -> bool:
        """
        Whether this Client mutes user_id.
        """
    def get_participant_volume(self, user_id: typing.SupportsInt | typing.SupportsIndex) -> float:
        """
        user_id's playback volume here, in percent (default 100).
        """
    def get_participants(self) -> list[int]:
        """
        The user ids in the call, the current user included.
        """
    def get_ptt_active(self) -> bool:
        """
        Whether push-to-talk is held.
        """
    def get_ptt_release_delay(self) -> int:
        """
        Transmission after release, in ms.
        """
    def get_self_deaf(self) -> bool:
        """
        Whether the current user deafened themselves in this call.
        """
    def get_self_mute(self) -> bool:
        """
        Whether the current user muted themselves in this call.
        """
    def get_status(self) -> Call.Status:
        """
        The connection state.
        """
    def get_vad_threshold(self) -> VADThresholdSettings:
        """
        The voice activity threshold settings.
        """
    def get_voice_state_handle(self, user_id: typing.SupportsInt | typing.SupportsIndex) -> VoiceStateHandle | None:
        """
        user_id's voice state, or None when not in the call.
        """
    def set_audio_mode(self, audio_mode: AudioModeType) -> None:
        """
        Voice activity (MODE_VAD) or push-to-talk (MODE_PTT).
        """
    def set_local_mute(self, user_id: typing.SupportsInt | typing.SupportsIndex, mute: bool) -> None:
        """
        Stop playing user_id's audio here (the others still hear them).
        """
    def set_on_voice_state_changed_callback(self, cb: collections.abc.Callable[[int], None] | None) -> None:
        """
        cb(user_id) when a participant's self mute / deaf changes.
        """
    def set_participant_changed_callback(self, cb: collections.abc.Callable[[int, bool], None] | None) -> None:
        """
        cb(user_id, added) when someone joins or leaves (None: stop).
        """
    def set_participant_volume(self, user_id: typing.SupportsInt | typing.SupportsIndex, volume: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        user_id's playback volume here, in percent [0, 200]; ValidationError outside.
        """
    def set_ptt_active(self, active: bool) -> None:
        """
        Hold (True) or release push-to-talk.
        """
    def set_ptt_release_delay(self, release_delay_ms: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Transmission after release, in ms [0, 2000]; ValidationError outside.
        """
    def set_self_deaf(self, deaf: bool) -> None:
        """
        Stop (or resume) sending and hearing.
        """
    def set_self_mute(self, mute: bool) -> None:
        """
        Stop (or resume) sending; shown to the others.
        """
    def set_speaking_status_changed_callback(self, cb: collections.abc.Callable[[int, bool], None] | None) -> None:
        """
        cb(user_id, is_playing_sound) for participants and the current user.
        """
    def set_status_changed_callback(self, cb: collections.abc.Callable[[Call.Status, Call.Error, int], None] | None) -> None:
        """
        cb(status, error, error_detail) on every change of status (None: stop).
        """
    def set_vad_threshold(self, automatic: bool, threshold: typing.SupportsFloat | typing.SupportsIndex) -> None:
        """
        Automatic (follow the noise floor) or the fixed threshold in dBFS [-100, 0]; ValidationError outside.
        """
class AudioSystem(enum.IntEnum):
    """
    The audio session on platforms that have several; one on desktop.
    """
    Game = 1
    Standard = 0
    def __str__(self):
        ...
@typing.final
class AudioDevice:
    """
    An input or output audio device.
    """
    __hash__: typing.ClassVar[None]  # type: ignore[assignment]
    nullobj: typing.ClassVar[AudioDevice]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> AudioDevice:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> AudioDevice:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __eq__(self, other: object) -> bool:
        """
        Same id, name and default flag.
        """
    def __init__(self) -> None:
        """
        An empty record.
        """
    def __repr__(self) -> str:
        ...
    def equals(self, rhs: AudioDevice) -> bool:
        """
        Same id, name and default flag.
        """
    @property
    def id(self) -> str:
        """
        Stable while the device exists.
        """
    @id.setter
    def id(self, arg1: str) -> None:
        ...
    @property
    def is_default(self) -> bool:
        """
        Whether it is the system's default.
        """
    @is_default.setter
    def is_default(self, arg1: bool) -> None:
        ...
    @property
    def name(self) -> str:
        """
        Human-readable name.
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
@typing.final
class LobbyMemberHandle:
    """
    A member of a lobby, as in the lobby snapshot it came from.
    """
    nullobj: typing.ClassVar[LobbyMemberHandle]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> LobbyMemberHandle:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> LobbyMemberHandle:
        """
        An independent copy (the instance holds no Python objects).
        """
    @property
    def additional_name(self) -> str | None:
        """
        Set by the game's backend; read-only in the SDK.
        """
    @property
    def can_link_lobby(self) -> bool:
        """
        Member flag CanLinkLobby: may link the lobby to a guild channel.
        """
    @property
    def connected(self) -> bool:
        """
        Whether the member is connected to the platform now (online, or the current user).
        """
    @property
    def id(self) -> int:
        """
        The member's user id.
        """
    @property
    def lobby_id(self) -> int:
        """
        The lobby's id.
        """
    @property
    def metadata(self) -> dict[str, str]:
        """
        The member's metadata.
        """
    @property
    def user(self) -> UserHandle | None:
        """
        The member as a user, when known.
        """
@typing.final
class LobbyHandle:
    """
    A lobby as the Client's cache held it when obtained: a read-only snapshot.
    """
    nullobj: typing.ClassVar[LobbyHandle]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> LobbyHandle:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> LobbyHandle:
        """
        An independent copy (the instance holds no Python objects).
        """
    def get_call_info_handle(self) -> CallInfoHandle | None:
        """
        The lobby's call as this Client's voice states show it; None when nobody is in it.
        """
    def get_lobby_member_handle(self, member_id: typing.SupportsInt | typing.SupportsIndex) -> LobbyMemberHandle | None:
        """
        One member, or None.
        """
    @property
    def application_id(self) -> int:
        """
        The game it belongs to.
        """
    @property
    def id(self) -> int:
        """
        The lobby's id.
        """
    @property
    def linked_channel(self) -> LinkedChannel | None:
        """
        The guild channel the lobby is linked to, or None.
        """
    @property
    def lobby_member_ids(self) -> list[int]:
        """
        The members' user ids.
        """
    @property
    def lobby_members(self) -> list[LobbyMemberHandle]:
        """
        The members.
        """
    @property
    def metadata(self) -> dict[str, str]:
        """
        The lobby's metadata.
        """
class AdditionalContentType(enum.IntEnum):
    """
    What a message carries besides its text.
    """
    Attachment = 1
    Embed = 5
    Other = 0
    Poll = 2
    Sticker = 6
    Thread = 4
    VoiceMessage = 3
    def __str__(self):
        ...
class DisclosureTypes(enum.IntEnum):
    """
    Auto-generated messages that explain an integration.
    """
    MessageDataVisibleOnPlatform = 3
    def __str__(self):
        ...
@typing.final
class AdditionalContent:
    """
    What a message carries besides its text: type, title and count.
    """
    nullobj: typing.ClassVar[AdditionalContent]
    @staticmethod
    def type_to_string(type: AdditionalContentType) -> str:
        """
        The type's name.
        """
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> AdditionalContent:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> AdditionalContent:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        An empty record (type Other).
        """
    def equals(self, rhs: AdditionalContent) -> bool:
        """
        Same type, title and count.
        """
    @property
    def count(self) -> int:
        """
        How many (0–255).
        """
    @count.setter
    def count(self, arg1: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def title(self) -> str | None:
        """
        The poll's question, the embed's or thread's title, the file's or sticker's name; or None.
        """
    @title.setter
    def title(self, arg1: str | None) -> None:
        ...
    @property
    def type(self) -> AdditionalContentType:
        """
        The AdditionalContentType.
        """
    @type.setter
    def type(self, arg1: AdditionalContentType) -> None:
        ...
@typing.final
class UserMessageSummary:
    """
    One direct message conversation: the other user and its newest message.
    """
    nullobj: typing.ClassVar[UserMessageSummary]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> UserMessageSummary:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> UserMessageSummary:
        """
        An independent copy (the instance holds no Python objects).
        """
    @property
    def last_message_id(self) -> int:
        """
        The newest message.
        """
    @property
    def user_id(self) -> int:
        """
        The other participant.
        """
@typing.final
class MessageHandle:
    """
    A lobby or direct message as the cache held it when obtained: a snapshot.
    """
    nullobj: typing.ClassVar[MessageHandle]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> MessageHandle:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> MessageHandle:
        """
        An independent copy (the instance holds no Python objects).
        """
    @property
    def additional_content(self) -> AdditionalContent | None:
        """
        Attachments, a poll, embeds, ... besides the text, or None.
        """
    @property
    def additional_name(self) -> str | None:
        """
        The author's additional name in the lobby (set by the game's backend), or None.
        """
    @property
    def application_id(self) -> int | None:
        """
        The game it was sent from.
        """
    @property
    def author(self) -> UserHandle | None:
        """
        The author, when known.
        """
    @property
    def author_id(self) -> int:
        """
        The author's user id.
        """
    @property
    def channel(self) -> ChannelHandle | None:
        """
        The channel it was sent in, when known.
        """
    @property
    def channel_id(self) -> int:
        """
        The lobby's id, or for a direct message the other participant's id.
        """
    @property
    def content(self) -> str:
        """
        The text, mentions of known users and channels and custom emojis resolved.
        """
    @property
    def disclosure_type(self) -> DisclosureTypes | None:
        """
        Set on the platform's auto-generated disclosure messages, else None.
        """
    @property
    def edited_timestamp(self) -> int:
        """
        Unix milliseconds; 0 if never edited.
        """
    @property
    def id(self) -> int:
        """
        The message's id.
        """
    @property
    def lobby(self) -> LobbyHandle | None:
        """
        The lobby of a lobby message, when cached.
        """
    @property
    def lobby_id(self) -> int | None:
        """
        The lobby (lobby messages), else None.
        """
    @property
    def metadata(self) -> dict[str, str]:
        """
        Metadata the sender attached.
        """
    @property
    def moderation_metadata(self) -> dict[str, str]:
        """
        Key-value pairs set by the game's backend.
        """
    @property
    def raw_content(self) -> str:
        """
        The text as sent, markup included.
        """
    @property
    def recipient(self) -> UserHandle | None:
        """
        The recipient of a direct message, when known.
        """
    @property
    def recipient_id(self) -> int:
        """
        The recipient (direct messages), else 0.
        """
    @property
    def sent_from_game(self) -> bool:
        """
        False for messages from the platform's client in a linked channel.
        """
    @property
    def sent_timestamp(self) -> int:
        """
        Unix milliseconds.
        """
class VoiceInputModeType(enum.IntEnum):
    """
    When the desktop client transmits the microphone.
    """
    PushToTalk = 1
    VoiceActivity = 0
    def __str__(self):
        ...
@typing.final
class VoiceSettings:
    """
    A read-only snapshot of the desktop client user's voice settings (the client's own, not a call's); setters change this copy only.
    """
    nullobj: typing.ClassVar[VoiceSettings]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> VoiceSettings:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> VoiceSettings:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        Settings with the desktop client's defaults.
        """
    @property
    def automatic_gain_control(self) -> bool:
        """
        Automatic gain control.
        """
    @automatic_gain_control.setter
    def automatic_gain_control(self, arg1: bool) -> None:
        ...
    @property
    def echo_cancellation(self) -> bool:
        """
        Echo cancellation.
        """
    @echo_cancellation.setter
    def echo_cancellation(self, arg1: bool) -> None:
        ...
    @property
    def input_mode(self) -> VoiceInputModeType:
        """
        VoiceActivity or PushToTalk.
        """
    @input_mode.setter
    def input_mode(self, arg1: VoiceInputModeType) -> None:
        ...
    @property
    def input_volume(self) -> float:
        """
        Microphone volume, 0 to 100.
        """
    @input_volume.setter
    def input_volume(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def noise_cancellation(self) -> bool:
        """
        Noise cancellation.
        """
    @noise_cancellation.setter
    def noise_cancellation(self, arg1: bool) -> None:
        ...
    @property
    def noise_suppression(self) -> bool:
        """
        Noise suppression.
        """
    @noise_suppression.setter
    def noise_suppression(self, arg1: bool) -> None:
        ...
    @property
    def output_volume(self) -> float:
        """
        Output volume, 0 to 200.
        """
    @output_volume.setter
    def output_volume(self, arg1: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def ptt_key(self) -> str:
        """
        The push-to-talk key's label, such as 'SHIFT + F'; empty when none is bound.
        """
    @ptt_key.setter
    def ptt_key(self, arg1: str) -> None:
        ...
    @property
    def self_deaf(self) -> bool:
        """
        Self-deafen.
        """
    @self_deaf.setter
    def self_deaf(self, arg1: bool) -> None:
        ...
    @property
    def self_mute(self) -> bool:
        """
        Self-mute.
        """
    @self_mute.setter
    def self_mute(self, arg1: bool) -> None:
        ...
@typing.final
class DeviceAuthorizationArgs:
    """
    What Client.get_token_from_device asks for (RFC 8628 device grant).
    """
    nullobj: typing.ClassVar[DeviceAuthorizationArgs]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> DeviceAuthorizationArgs:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> DeviceAuthorizationArgs:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self, *, client_id: typing.SupportsInt | typing.SupportsIndex = 0, scopes: str = '') -> None:
        """
        client_id 0 means the Client's application id; scopes e.g. Client.get_default_communication_scopes().
        """
    def __repr__(self) -> str:
        ...
    @property
    def client_id(self) -> int:
        """
        Application id of the game; 0: the Client's (set_application_id).
        """
    @client_id.setter
    def client_id(self, value: int) -> None:
        ...
    @property
    def scopes(self) -> str:
        """
        Space-separated OAuth2 scopes.
        """
    @scopes.setter
    def scopes(self, value: str) -> None:
        ...
@typing.final
class ClientCreateOptions:
    """
    What a Client is created with: Client(options).
    """
    nullobj: typing.ClassVar[ClientCreateOptions]
    def __bool__(self) -> bool:
        """
        True when the instance holds an object; False for `nullobj` and moved-from instances.
        """
    def __copy__(self) -> ClientCreateOptions:
        """
        An independent copy.
        """
    def __deepcopy__(self, memo: dict) -> ClientCreateOptions:
        """
        An independent copy (the instance holds no Python objects).
        """
    def __init__(self) -> None:
        """
        The bases Client() uses (PLATFORMPP_API_BASE / PLATFORMPP_WEB_BASE when set).
        """
    def __repr__(self) -> str:
        ...
    @property
    def api_base(self) -> str:
        """
        The HTTP API base, e.g. 'http://127.0.0.1:8787/api/v10'.
        """
    @api_base.setter
    def api_base(self, value: str) -> None:
        ...
    @property
    def cpu_affinity_mask(self) -> int | None:
        """
        CPUs the SDK's network thread may run on (bit n = CPU n); None: any.
        """
    @cpu_affinity_mask.setter
    def cpu_affinity_mask(self, arg1: typing.SupportsInt | typing.SupportsIndex | None) -> None:
        ...
    @property
    def experimental_android_prevent_comms_for_bluetooth(self) -> bool:
        """
        Android only; kept, no effect elsewhere.
        """
    @experimental_android_prevent_comms_for_bluetooth.setter
    def experimental_android_prevent_comms_for_bluetooth(self, value: bool) -> None:
        ...
    @property
    def experimental_audio_system(self) -> AudioSystem:
        """
        The audio session voice uses where a system has several (no effect on Linux).
        """
    @experimental_audio_system.setter
    def experimental_audio_system(self, arg1: AudioSystem) -> None:
        ...
    @property
    def web_base(self) -> str:
        """
        The web base (OAuth2 pages), e.g. 'http://127.0.0.1:8787'.
        """
    @web_base.setter
    def web_base(self, value: str) -> None:
        ...
@typing.final
class ReleaseCalendar:
    """
    The SDK release calendar (three minors a year; five supported). Use it through platformpp.versioning.
    """
    SUPPORTED_MINOR_COUNT: typing.ClassVar[int] = 5
    @staticmethod
    def end_of_life(major: typing.SupportsInt | typing.SupportsIndex, minor: typing.SupportsInt | typing.SupportsIndex) -> datetime.date:
        """
        The day the minor stops getting patches (five minors later).
        """
    @staticmethod
    def is_supported(version: tuple[typing.SupportsInt | typing.SupportsIndex, typing.SupportsInt | typing.SupportsIndex], *, on: datetime.date | None = None) -> bool:
        """
        Whether (major, minor) is among the supported minors on `on` (default today).
        """
    @staticmethod
    def release_date(major: typing.SupportsInt | typing.SupportsIndex, minor: typing.SupportsInt | typing.SupportsIndex) -> datetime.date:
        """
        The first day of the month the minor ships in: April, July or November (1.10: July 2026).
        """
    @staticmethod
    def supported_minors(on: datetime.date | None = None) -> list[tuple[int, int]]:
        """
        The five most recent minors released on `on` (default today), oldest first.
        """
def _audio_callback_cost(callable: typing.Any, frames: typing.SupportsInt | typing.SupportsIndex) -> tuple:
    """
    Benchmark helper: (python_ns, baseline_ns, thread_states_left): sorted per-call costs of a captured audio callback called from a C++ thread as the audio thread calls it and of a no-op C++ callback, and the Python thread states that thread left behind once it ended.
    """
def callback_wakeup_fd() -> int:
    """
    A file descriptor that is readable while callbacks wait for run_callbacks() (for select/poll or asyncio's add_reader). Owned by the SDK: do not read from or close it.
    """
@typing.overload
def enum_to_string(value: ActivityTypes) -> str:
    """
    The value's name.
    """
@typing.overload
def enum_to_string(value: StatusDisplayTypes) -> str:
    """
    The value's name.
    """
@typing.overload
def enum_to_string(value: ActivityGamePlatforms) -> str:
    """
    A single platform's name; 'Unknown' for a combination.
    """
@typing.overload
def enum_to_string(value: ActivityPartyPrivacy) -> str:
    """
    The value's name.
    """
@typing.overload
def enum_to_string(value: ActivityActionTypes) -> str:
    """
    The value's name.
    """
@typing.overload
def enum_to_string(value: UserHandle.AvatarType) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: RelationshipType) -> str:
    """
    The value's name.
    """
@typing.overload
def enum_to_string(value: RelationshipGroupType) -> str:
    """
    The value's name.
    """
@typing.overload
def enum_to_string(value: VoiceInputModeType) -> str:
    """
    The VoiceInputModeType's name.
    """
@typing.overload
def enum_to_string(value: ErrorType) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: HttpStatusCode) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: LoggingSeverity) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: AuthenticationCodeChallengeMethod) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: IntegrationType) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: AuthorizationTokenType) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: AuthenticationExternalAuthType) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: Client.Error) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: Client.Status) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: Client.Thread) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: ChannelType) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: AdditionalContentType) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: AudioSystem) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: Call.Error) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: AudioModeType) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: Call.Status) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: StatusType) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: DisclosureTypes) -> str:
    """
    The value's C++ name.
    """
@typing.overload
def enum_to_string(value: ExternalIdentityProviderType) -> str:
    """
    The value's C++ name.
    """
def get_callback_error_hook() -> typing.Any:
    """
    The hook set with set_callback_error_hook, or None.
    """
def resolve_authorize_redirect_uri(args: AuthorizationArgs, default_application_id: typing.SupportsInt | typing.SupportsIndex) -> str:
    """
    The redirect URI Client.authorize uses: <custom_scheme_param>:/authorize/callback, else platform-<application id>:/authorize/callback. Raises ValidationError naming the field.
    """
def resolve_authorize_state(args: AuthorizationArgs) -> str:
    """
    The state Client.authorize sends: args.state, else 32 fresh CSPRNG bytes as base64url.
    """
def run_callbacks() -> None:
    """
    Runs every SDK callback queued since the last call, on this thread, in the order they happened. Call it once per frame. An exception raised by a callback is reported (see set_callback_error_hook) and does not stop the others.
    """
def set_callback_error_hook(hook: typing.Any) -> None:
    """
    Sets what is called with the exception when an SDK callback raises (None: log it to the `platformpp` logger with its traceback). Exceptions never stop other callbacks.
    """
def sort_guild_channels_for_display(channels: collections.abc.Sequence[GuildChannel]) -> list[GuildChannel]:
    """
    The channels in the client's display order: no category first, then each category and its channels; text-like before voice, then by position, then by id.
    """
