"""
platformpp's C++ core. Import the names from `platformpp`, which re-exports them.
"""
from __future__ import annotations
import collections.abc
import datetime
import enum
import typing
__all__: list[str] = ['Aborted', 'AuthenticationCodeChallengeMethod', 'AuthenticationExternalAuthType', 'AuthorizationArgs', 'AuthorizationCodeChallenge', 'AuthorizationCodeVerifier', 'AuthorizationFailed', 'AuthorizationTokenType', 'Client', 'ClientDestroyed', 'ClientError', 'ClientNotReady', 'ClientResult', 'Disabled', 'Error', 'ErrorType', 'HTTPError', 'IntegrationType', 'LoggingSeverity', 'NetworkError', 'NullHandleError', 'RPCError', 'ReleaseCalendar', 'ValidationError', 'callback_wakeup_fd', 'get_callback_error_hook', 'resolve_authorize_redirect_uri', 'resolve_authorize_state', 'run_callbacks', 'set_callback_error_hook']
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
    def connect(self) -> None:
        """
        Connects the Gateway with the token given to update_token; watch set_status_changed_callback.
        """
    def create_authorization_code_verifier(self) -> AuthorizationCodeVerifier:
        """
        A fresh PKCE pair: 32 CSPRNG bytes as a base64url verifier and its S256 challenge.
        """
    def disconnect(self) -> None:
        """
        Closes the Gateway connection.
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
    def get_provisional_token(self, application_id: typing.SupportsInt | typing.SupportsIndex, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, callback: collections.abc.Callable[[ClientResult, str, str, AuthorizationTokenType, int, str], None]) -> None:
        """
        A provisional account's token from an identity provider's token: callback(result, access_token, refresh_token, token_type, expires_in, scopes).
        """
    async def get_provisional_token_async(self, application_id: typing.SupportsInt | typing.SupportsIndex, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, *, timeout: float | None = None) -> tuple[str, str, AuthorizationTokenType, int, str]:
        """
        Awaitable get_provisional_token(): returns what its callback receives after the result (tuple[str, str, platformpp._platformpp.AuthorizationTokenType, int, str]), or raises the ClientError for a failed result. `timeout` in seconds.
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
    def remove_authorize_request_callback(self) -> None:
        """
        Stops the authorize request callback.
        """
    def revoke_token(self, application_id: typing.SupportsInt | typing.SupportsIndex, token: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Revokes the whole authorization (access and refresh token both), as unlinking requires.
        """
    async def revoke_token_async(self, application_id: typing.SupportsInt | typing.SupportsIndex, token: str, *, timeout: float | None = None) -> None:
        """
        Awaitable revoke_token(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
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
    def set_status_changed_callback(self, callback: collections.abc.Callable[[Client.Status, Client.Error, int], None] | None) -> None:
        """
        Calls callback(status, error, error_detail) on every change of state (None: stop). error_detail is the Gateway close code or HTTP status behind a failure.
        """
    def set_token_expiration_callback(self, callback: collections.abc.Callable[[], None] | None) -> None:
        """
        Calls callback() when the access token is about to expire or is rejected (None: stop).
        """
    def unmerge_into_provisional_account(self, application_id: typing.SupportsInt | typing.SupportsIndex, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, callback: collections.abc.Callable[[ClientResult], None]) -> None:
        """
        Splits a merged account back into a provisional one: callback(result).
        """
    async def unmerge_into_provisional_account_async(self, application_id: typing.SupportsInt | typing.SupportsIndex, external_auth_type: AuthenticationExternalAuthType, external_auth_token: str, *, timeout: float | None = None) -> None:
        """
        Awaitable unmerge_into_provisional_account(): returns what its callback receives after the result (None), or raises the ClientError for a failed result. `timeout` in seconds.
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
