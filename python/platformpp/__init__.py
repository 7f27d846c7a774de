"""platformpp: a social SDK for games.

The names below come from the C++ extension ``platformpp._platformpp``. It is loaded on first use
(PEP 562), so that ``platformpp.emulator`` — a separate server that must never load the extension —
can be imported on its own.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # ``X as X``: an explicit re-export, so that ``mypy --strict`` on a user's program accepts
    # ``from platformpp import Client`` (PEP 484's rule for stubs and typed packages).
    from ._platformpp import (
        Aborted as Aborted,
        Activity as Activity,
        ActivityActionTypes as ActivityActionTypes,
        ActivityAssets as ActivityAssets,
        ActivityButton as ActivityButton,
        ActivityGamePlatforms as ActivityGamePlatforms,
        ActivityInvite as ActivityInvite,
        ActivityParty as ActivityParty,
        ActivityPartyPrivacy as ActivityPartyPrivacy,
        ActivitySecrets as ActivitySecrets,
        ActivityTimestamps as ActivityTimestamps,
        ActivityTypes as ActivityTypes,
        AdditionalContent as AdditionalContent,
        AdditionalContentType as AdditionalContentType,
        AudioDevice as AudioDevice,
        AudioModeType as AudioModeType,
        AudioSystem as AudioSystem,
        AuthenticationCodeChallengeMethod as AuthenticationCodeChallengeMethod,
        AuthenticationExternalAuthType as AuthenticationExternalAuthType,
        AuthorizationArgs as AuthorizationArgs,
        AuthorizationCodeChallenge as AuthorizationCodeChallenge,
        AuthorizationCodeVerifier as AuthorizationCodeVerifier,
        AuthorizationFailed as AuthorizationFailed,
        AuthorizationTokenType as AuthorizationTokenType,
        Call as Call,
        CallInfoHandle as CallInfoHandle,
        ChannelHandle as ChannelHandle,
        ChannelType as ChannelType,
        Client as Client,
        ClientCreateOptions as ClientCreateOptions,
        ClientDestroyed as ClientDestroyed,
        ClientError as ClientError,
        ClientNotReady as ClientNotReady,
        ClientResult as ClientResult,
        DeviceAuthorizationArgs as DeviceAuthorizationArgs,
        Disabled as Disabled,
        DisclosureTypes as DisclosureTypes,
        Error as Error,
        ErrorType as ErrorType,
        ExternalIdentityProviderType as ExternalIdentityProviderType,
        GuildChannel as GuildChannel,
        GuildMinimal as GuildMinimal,
        HTTPError as HTTPError,
        HttpStatusCode as HttpStatusCode,
        IntegrationType as IntegrationType,
        LinkedChannel as LinkedChannel,
        LinkedLobby as LinkedLobby,
        LobbyHandle as LobbyHandle,
        LobbyMemberHandle as LobbyMemberHandle,
        LoggingSeverity as LoggingSeverity,
        MessageHandle as MessageHandle,
        NetworkError as NetworkError,
        NullHandleError as NullHandleError,
        RPCError as RPCError,
        RelationshipGroupType as RelationshipGroupType,
        RelationshipHandle as RelationshipHandle,
        RelationshipType as RelationshipType,
        StatusDisplayTypes as StatusDisplayTypes,
        StatusType as StatusType,
        UserApplicationProfileHandle as UserApplicationProfileHandle,
        UserHandle as UserHandle,
        UserMessageSummary as UserMessageSummary,
        VADThresholdSettings as VADThresholdSettings,
        ValidationError as ValidationError,
        VoiceInputModeType as VoiceInputModeType,
        VoiceSettings as VoiceSettings,
        VoiceStateHandle as VoiceStateHandle,
        callback_wakeup_fd as callback_wakeup_fd,
        enum_to_string as enum_to_string,
        get_callback_error_hook as get_callback_error_hook,
        resolve_authorize_redirect_uri as resolve_authorize_redirect_uri,
        resolve_authorize_state as resolve_authorize_state,
        run_callbacks as run_callbacks,
        set_callback_error_hook as set_callback_error_hook,
        sort_guild_channels_for_display as sort_guild_channels_for_display,
    )
    from .frame import FrameLoop as FrameLoop

# The error classes are pure Python (_errors.py): bound here so that platformpp.ipc and its users get
# them without loading the extension (which adopts the same classes; the stub types them there).
if not TYPE_CHECKING:
    from ._errors import (
        Aborted,
        AuthorizationFailed,
        ClientDestroyed,
        ClientError,
        ClientNotReady,
        Disabled,
        Error,
        HTTPError,
        NetworkError,
        NullHandleError,
        RPCError,
        ValidationError,
    )

# Written out (not computed) so that type checkers read it: every public name of the package.
__all__ = [
    "Aborted",
    "Activity",
    "ActivityActionTypes",
    "ActivityAssets",
    "ActivityButton",
    "ActivityGamePlatforms",
    "ActivityInvite",
    "ActivityParty",
    "ActivityPartyPrivacy",
    "ActivitySecrets",
    "ActivityTimestamps",
    "ActivityTypes",
    "AdditionalContent",
    "AdditionalContentType",
    "AudioDevice",
    "AudioModeType",
    "AudioSystem",
    "AuthenticationCodeChallengeMethod",
    "AuthenticationExternalAuthType",
    "AuthorizationArgs",
    "AuthorizationCodeChallenge",
    "AuthorizationCodeVerifier",
    "AuthorizationFailed",
    "AuthorizationTokenType",
    "Call",
    "CallInfoHandle",
    "ChannelHandle",
    "ChannelType",
    "Client",
    "ClientCreateOptions",
    "ClientDestroyed",
    "ClientError",
    "ClientNotReady",
    "ClientResult",
    "DeviceAuthorizationArgs",
    "Disabled",
    "DisclosureTypes",
    "Error",
    "ErrorType",
    "ExternalIdentityProviderType",
    "GuildChannel",
    "GuildMinimal",
    "HTTPError",
    "HttpStatusCode",
    "IntegrationType",
    "LinkedChannel",
    "LinkedLobby",
    "LobbyHandle",
    "LobbyMemberHandle",
    "LoggingSeverity",
    "MessageHandle",
    "NetworkError",
    "NullHandleError",
    "RPCError",
    "RelationshipGroupType",
    "RelationshipHandle",
    "RelationshipType",
    "StatusDisplayTypes",
    "StatusType",
    "UserApplicationProfileHandle",
    "UserHandle",
    "UserMessageSummary",
    "VADThresholdSettings",
    "ValidationError",
    "VoiceInputModeType",
    "VoiceSettings",
    "VoiceStateHandle",
    "callback_wakeup_fd",
    "enum_to_string",
    "get_callback_error_hook",
    "resolve_authorize_redirect_uri",
    "resolve_authorize_state",
    "run_callbacks",
    "set_callback_error_hook",
    "sort_guild_channels_for_display",
    "FrameLoop",
    "__version__",
    "aio",
    "events",
    "versioning",
]


# What the extension provides: everything public but the pure-Python modules and helpers.
_EXTENSION_NAMES = frozenset(__all__) - {"FrameLoop", "__version__", "aio", "events", "versioning"}


def __getattr__(name: str) -> Any:
    if name in _EXTENSION_NAMES:
        extension = importlib.import_module("._platformpp", __name__)
        # Bind every extension name at once so later lookups are plain module attributes.
        globals().update({n: getattr(extension, n) for n in _EXTENSION_NAMES})
        return globals()[name]
    if name == "__version__":
        from ._version import __version__

        return __version__
    if name == "FrameLoop":
        from .frame import FrameLoop

        return FrameLoop
    if name in ("versioning", "aio", "events"):
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
