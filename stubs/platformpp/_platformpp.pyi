"""
platformpp's C++ core. Import the names from `platformpp`, which re-exports them.
"""
from __future__ import annotations
import collections.abc
import datetime
import enum
import typing
__all__: list[str] = ['Aborted', 'Activity', 'ActivityAssets', 'ActivityButton', 'ActivityParty', 'ActivitySecrets', 'ActivityTimestamps', 'ActivityTypes', 'AuthenticationCodeChallengeMethod', 'AuthenticationExternalAuthType', 'AuthorizationArgs', 'AuthorizationCodeChallenge', 'AuthorizationCodeVerifier', 'AuthorizationFailed', 'AuthorizationTokenType', 'ChannelType', 'Client', 'ClientDestroyed', 'ClientError', 'ClientNotReady', 'ClientResult', 'Disabled', 'Error', 'ErrorType', 'GuildChannel', 'GuildMinimal', 'HTTPError', 'IntegrationType', 'LobbyHandle', 'LobbyMemberHandle', 'LoggingSeverity', 'MessageHandle', 'NetworkError', 'NullHandleError', 'RPCError', 'RelationshipHandle', 'RelationshipType', 'ReleaseCalendar', 'StatusType', 'UserApplicationProfileHandle', 'UserHandle', 'ValidationError', 'VoiceInputModeType', 'VoiceSettings', 'callback_wakeup_fd', 'enum_to_string', 'get_callback_error_hook', 'resolve_authorize_redirect_uri', 'resolve_authorize_state', 'run_callbacks', 'set_callback_error_hook', 'sort_guild_channels_for_display']
class Error(Exception):
    """
    Base class of every error platformpp raises.
    """
class NullHandleError(Error):
    """
    A handle that holds no object (its class's nullobj, or moved from) was used.
    """
class ValidationError(Error, ValueError):
    """
    An argument breaks a rule. `field` names the field; the message names the field and the rule.
    """
class ClientError(Error):
    """
    An SDK call failed: `result` is its ClientResult (type, status, error_code, error...).
    """
class NetworkError(ClientError):
    """
    No HTTP answer: connect, TLS, timeout or a dropped connection.
    """
class HTTPError(ClientError):
    """
    The platform answered with an error status (result.status, result.error_code).
    """
class ClientNotReady(ClientError):
    """
    The call needs a connected or authenticated Client.
    """
class Disabled(ClientError):
    """
    The feature is turned off.
    """
class ClientDestroyed(ClientError):
    """
    The Client was destroyed before the call completed.
    """
class Aborted(ClientError):
    """
    The call was cancelled (e.g. abort_authorize()).
    """
class AuthorizationFailed(ClientError):
    """
    OAuth2 refused: state mismatch, consent denied, invalid_grant (result.deauthorized)...
    """
class RPCError(ClientError):
    """
    A client entry point request failed.
    """
class LoggingSeverity(enum.IntEnum):
    """
    Severity of an SDK log line; None as a minimum turns a log callback off.
    """
    Error = 4
    Info = 2
    None_ = 5
    Verbose = 1
    Warning = 3
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
    def status(self) -> int:
        """
        The HTTP status, or 0 when there was no HTTP answer.
        """
    @status.setter
    def status(self, value: int) -> None:
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
class AuthenticationCodeChallengeMethod(enum.IntEnum):
    """
    PKCE code challenge method (RFC 7636); only S256.
    """
    S256 = 0
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
    class Error(enum.IntEnum):
        """
        Why the connection state changed, if by a failure.
        """
        ConnectionCanceled = 3
        ConnectionFailed = 1
        None_ = 0
        UnexpectedClose = 2
    nullobj: typing.ClassVar[Client]
    @staticmethod
    def error_to_string(error: Client.Error) -> str:
        """
        The error's name.
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
    def abort_authorize(self) -> None:
        """
        Ends a pending authorize() with ErrorType.Aborted.
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
    def add_log_callback(self, callback: collections.abc.Callable[[str, LoggingSeverity], None], min_severity: LoggingSeverity) -> None:
        """
        Calls callback(message, severity) for each SDK log line at or above min_severity, secrets redacted.
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
    def clear_rich_presence(self) -> None:
        """
        Clears this game's rich presence.
        """
    def connect(self) -> None:
        """
        Connects the Gateway with the token given to update_token; watch set_status_changed_callback.
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
    def get_current_user(self) -> UserHandle | None:
        """
        The current user, once the Gateway is Ready (else None).
        """
    def get_guild_channels(self, guild_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult, list[GuildChannel]], None]) -> None:
        """
        The guild's channels the user can see, in display order: callback(result, channels).
        """
    async def get_guild_channels_async(self, guild_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> list[GuildChannel]:
        """
        Awaitable get_guild_channels(): returns what its callback receives after the result (list[platformpp._platformpp.GuildChannel]), or raises the ClientError for a failed result. `timeout` in seconds.
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
    def leave_lobby(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Leaves the lobby: callback(result).
        """
    async def leave_lobby_async(self, lobby_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable leave_lobby(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def off(self, event: str, handler: typing.Callable[..., typing.Any]) -> None:
        """
        Removes one `handler` of `event` (ValueError if it was not added).
        """
    def on(self, event: str, handler: typing.Callable[..., typing.Any] | None = None) -> typing.Any:
        """
        Adds `handler` for `event`; without a handler, returns a decorator that adds the function.
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
    def revoke_token(self, application_id: typing.SupportsInt | typing.SupportsIndex, token: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Revokes the whole authorization (access and refresh token both), as unlinking requires.
        """
    async def revoke_token_async(self, application_id: typing.SupportsInt | typing.SupportsIndex, token: str, *, timeout: float | None = None) -> None:
        """
        Awaitable revoke_token(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def send_friend_request_by_id(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def send_friend_request_by_id_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable send_friend_request_by_id(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
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
    def set_application_id(self, application_id: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Sets the default client_id of AuthorizationArgs.
        """
    def set_authorize_url_opener(self, opener: collections.abc.Callable[[str], None] | None) -> None:
        """
        Replaces how the authorize URL is opened (None: the system browser).
        """
    def set_emulator_consent_user(self, user: str) -> None:
        """
        Emulator only: consent headlessly as this test user (id or username) instead of opening a browser. '' turns it off.
        """
    def set_http_request_timeout(self, http_timeout_in_milliseconds: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Timeout of each HTTP request (connect, send and receive). ValidationError if <= 0.
        """
    def set_lobby_created_callback(self, callback: collections.abc.Callable[[int], None] | None) -> None:
        """
        callback(lobby_id) when a lobby appears in, changes its metadata in, or leaves the cache (None: stop).
        """
    def set_lobby_deleted_callback(self, callback: collections.abc.Callable[[int], None] | None) -> None:
        """
        callback(lobby_id) when a lobby appears in, changes its metadata in, or leaves the cache (None: stop).
        """
    def set_lobby_member_added_callback(self, callback: collections.abc.Callable[[int, int], None] | None) -> None:
        """
        callback(lobby_id, member_id) when a member is added, removed or changed (None: stop).
        """
    def set_lobby_member_removed_callback(self, callback: collections.abc.Callable[[int, int], None] | None) -> None:
        """
        callback(lobby_id, member_id) when a member is added, removed or changed (None: stop).
        """
    def set_lobby_member_updated_callback(self, callback: collections.abc.Callable[[int, int], None] | None) -> None:
        """
        callback(lobby_id, member_id) when a member is added, removed or changed (None: stop).
        """
    def set_lobby_updated_callback(self, callback: collections.abc.Callable[[int], None] | None) -> None:
        """
        callback(lobby_id) when a lobby appears in, changes its metadata in, or leaves the cache (None: stop).
        """
    def set_message_created_callback(self, callback: collections.abc.Callable[[int], None] | None) -> None:
        """
        callback(message_id) when a message is created or edited (None: stop).
        """
    def set_message_deleted_callback(self, callback: collections.abc.Callable[[int, int], None] | None) -> None:
        """
        callback(message_id, channel_id) when a message is deleted (None: stop).
        """
    def set_message_updated_callback(self, callback: collections.abc.Callable[[int], None] | None) -> None:
        """
        callback(message_id) when a message is created or edited (None: stop).
        """
    def set_relationship_created_callback(self, callback: collections.abc.Callable[[int, bool], None] | None) -> None:
        """
        callback(user_id, is_platform_relationship_update) when a relationship appears or changes (None: stop).
        """
    def set_relationship_deleted_callback(self, callback: collections.abc.Callable[[int, bool], None] | None) -> None:
        """
        callback(user_id, is_platform_relationship_update) when a relationship goes away (None: stop).
        """
    def set_status_changed_callback(self, callback: collections.abc.Callable[[Client.Status, Client.Error, int], None] | None) -> None:
        """
        Calls callback(status, error, error_detail) on every change of state (None: stop). error_detail is the Gateway close code or HTTP status behind a failure.
        """
    def set_token_expiration_callback(self, callback: collections.abc.Callable[[], None] | None) -> None:
        """
        Calls callback() when the access token is about to expire or is rejected (None: stop).
        """
    def set_user_updated_callback(self, callback: collections.abc.Callable[[int], None] | None) -> None:
        """
        callback(user_id) when a known user changes (None: stop).
        """
    def set_voice_settings_updated_callback(self, callback: collections.abc.Callable[[VoiceSettings], None] | None) -> None:
        """
        callback(settings) when the desktop user changes their voice settings (None: stop); needs a token.
        """
    def unblock_user(self, user_id: typing.SupportsInt | typing.SupportsIndex, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        A relationship action (see the C++ Client of the same name): callback(result). Accepting, rejecting and cancelling need the matching pending request, else a ValidationError result naming user_id.
        """
    async def unblock_user_async(self, user_id: typing.SupportsInt | typing.SupportsIndex, *, timeout: float | None = None) -> None:
        """
        Awaitable unblock_user(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
        """
    def unmerge_into_provisional_account(self, application_id: typing.SupportsInt | typing.SupportsIndex, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Splits a merged account back into a provisional one: callback(result).
        """
    async def unmerge_into_provisional_account_async(self, application_id: typing.SupportsInt | typing.SupportsIndex, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, *, timeout: float | None = None) -> None:
        """
        Awaitable unmerge_into_provisional_account(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
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
class AuthorizationTokenType(enum.IntEnum):
    """
    The kind of an access token.
    """
    Bearer = 1
    User = 0
class AuthenticationExternalAuthType(enum.IntEnum):
    """
    How an identity provider's token is understood (provisional accounts).
    """
    EpicOnlineServicesAccessToken = 1
    EpicOnlineServicesIdToken = 2
    OIDC = 0
    SteamSessionTicket = 3
    UnityServicesIdToken = 4
class ActivityTypes(enum.IntEnum):
    """
    What an activity shows the user doing.
    """
    Competing = 5
    CustomStatus = 4
    Listening = 2
    Playing = 0
    Streaming = 1
    Watching = 3
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
    def name(self) -> str:
        """
        The displayed application name (1–128 characters).
        """
    @name.setter
    def name(self, arg1: str) -> None:
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
    GroupDm = 3
    GuildCategory = 4
    GuildForum = 15
    GuildMedia = 16
    GuildNews = 5
    GuildNewsThread = 10
    GuildPrivateThread = 12
    GuildPublicThread = 11
    GuildStageVoice = 13
    GuildText = 0
    GuildVoice = 2
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
    def name(self) -> str:
        """
        The channel's name.
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
    @property
    def parent_category_id(self) -> int | None:
        """
        The category it belongs to, or None.
        """
    @parent_category_id.setter
    def parent_category_id(self, arg1: typing.SupportsInt | typing.SupportsIndex | None) -> None:
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
    def metadata(self) -> str:
        """
        The game stats, a JSON object.
        """
    @property
    def provider_issued_user_id(self) -> str:
        """
        The user's id at the provider.
        """
    @property
    def provider_type(self) -> str:
        """
        The provider's type, e.g. 'STEAM_SESSION_TICKET' ('' without an identity).
        """
    @property
    def user_id(self) -> int:
        """
        The user.
        """
@typing.final
class UserHandle:
    """
    A user as the Client's cache held them when obtained: a read-only snapshot.
    """
    nullobj: typing.ClassVar[UserHandle]
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
    None_ = 0
    PendingIncoming = 3
    PendingOutgoing = 4
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
    def platform_relationship_type(self) -> RelationshipType:
        """
        The relationship across every game.
        """
    @property
    def user(self) -> UserHandle | None:
        """
        The other user, when known.
        """
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
    def channel_id(self) -> int:
        """
        The lobby's id, or for a direct message the other participant's id.
        """
    @property
    def content(self) -> str:
        """
        The text.
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
    def recipient_id(self) -> int | None:
        """
        The recipient (direct messages), else None.
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
def callback_wakeup_fd() -> int:
    """
    A file descriptor that is readable while callbacks wait for run_callbacks() (for select/poll or asyncio's add_reader). Owned by the SDK: do not read from or close it.
    """
def enum_to_string(value: VoiceInputModeType) -> str:
    """
    The VoiceInputModeType's name.
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
