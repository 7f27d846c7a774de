"""
platformpp's C++ core. Import the names from `platformpp`, which re-exports them.
"""
from __future__ import annotations
import datetime
import enum
import typing
__all__: list[str] = ['AuthenticationCodeChallengeMethod', 'AuthorizationArgs', 'AuthorizationCodeChallenge', 'AuthorizationCodeVerifier', 'Client', 'Error', 'IntegrationType', 'NullHandleError', 'ReleaseCalendar', 'ValidationError', 'resolve_authorize_redirect_uri', 'resolve_authorize_state', 'run_callbacks']
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
    The SDK's entry point: one per signed-in player.
    """
    nullobj: typing.ClassVar[Client]
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
    def __bool__(self) -> bool:
        """
        True when the instance holds a client; False for Client.nullobj.
        """
    def __init__(self) -> None:
        """
        A client with no application id set.
        """
    def create_authorization_code_verifier(self) -> AuthorizationCodeVerifier:
        """
        A fresh PKCE pair: 32 CSPRNG bytes as a base64url verifier and its S256 challenge.
        """
    def get_application_id(self) -> int:
        """
        The id given to set_application_id (0 if none).
        """
    def set_application_id(self, application_id: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Sets the default client_id of AuthorizationArgs.
        """
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
    Runs every SDK callback queued since the last call, on this thread, in the order they happened. Call it once per frame.
    """
