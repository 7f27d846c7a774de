"""platformpp: a social SDK for games.

The names below come from the C++ extension ``platformpp._platformpp``. It is loaded on first use
(PEP 562), so that ``platformpp.emulator`` — a separate server that must never load the extension —
can be imported on its own.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._platformpp import (
        RPCError,
        NetworkError,
        HTTPError,
        Disabled,
        ClientNotReady,
        ClientError,
        ClientDestroyed,
        AuthorizationFailed,
        Aborted,
        AuthenticationCodeChallengeMethod,
        AuthenticationExternalAuthType,
        AuthorizationArgs,
        AuthorizationCodeChallenge,
        AuthorizationCodeVerifier,
        AuthorizationTokenType,
        Client,
        ClientResult,
        Error,
        ErrorType,
        IntegrationType,
        LoggingSeverity,
        NullHandleError,
        ValidationError,
        Activity,
        ActivityAssets,
        ActivityButton,
        ActivityParty,
        ActivitySecrets,
        ActivityTimestamps,
        ActivityTypes,
        ChannelType,
        GuildChannel,
        GuildMinimal,
        LobbyHandle,
        LobbyMemberHandle,
        MessageHandle,
        RelationshipHandle,
        RelationshipType,
        StatusType,
        UserApplicationProfileHandle,
        UserHandle,
        VoiceInputModeType,
        VoiceSettings,
        enum_to_string,
        sort_guild_channels_for_display,
        callback_wakeup_fd,
        get_callback_error_hook,
        resolve_authorize_redirect_uri,
        resolve_authorize_state,
        run_callbacks,
        set_callback_error_hook,
        # issue 17, auth / client / users
        ClientCreateOptions,
        DeviceAuthorizationArgs,
        HttpStatusCode,
        # issue 17, lobbies / messages / guilds
        AdditionalContent,
        AdditionalContentType,
        ChannelHandle,
        DisclosureTypes,
        LinkedChannel,
        LinkedLobby,
        UserMessageSummary,
        # issue 15, voice and audio
        AudioDevice,
        AudioModeType,
        AudioSystem,
        Call,
        CallInfoHandle,
        VADThresholdSettings,
        VoiceStateHandle,
        # issue 17, presence / relationships
        ActivityActionTypes,
        ActivityInvite,
        ActivityGamePlatforms,
        ActivityPartyPrivacy,
        RelationshipGroupType,
        StatusDisplayTypes,
        # issue 17, the rest (users)
        ExternalIdentityProviderType,
    )

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

_EXTENSION_NAMES = (
    "RPCError",
    "NetworkError",
    "HTTPError",
    "Disabled",
    "ClientNotReady",
    "ClientError",
    "ClientDestroyed",
    "AuthorizationFailed",
    "Aborted",
    "AuthenticationCodeChallengeMethod",
    "AuthenticationExternalAuthType",
    "AuthorizationArgs",
    "AuthorizationCodeChallenge",
    "AuthorizationCodeVerifier",
    "AuthorizationTokenType",
    "Client",
    "ClientResult",
    "Error",
    "ErrorType",
    "IntegrationType",
    "LoggingSeverity",
    "NullHandleError",
    "ValidationError",
    "Activity",
    "ActivityAssets",
    "ActivityButton",
    "ActivityParty",
    "ActivitySecrets",
    "ActivityTimestamps",
    "ActivityTypes",
    "ChannelType",
    "GuildChannel",
    "GuildMinimal",
    "LobbyHandle",
    "LobbyMemberHandle",
    "MessageHandle",
    "RelationshipHandle",
    "RelationshipType",
    "StatusType",
    "UserApplicationProfileHandle",
    "UserHandle",
    "VoiceInputModeType",
    "VoiceSettings",
    "enum_to_string",
    "sort_guild_channels_for_display",
    "callback_wakeup_fd",
    "get_callback_error_hook",
    "resolve_authorize_redirect_uri",
    "resolve_authorize_state",
    "run_callbacks",
    "set_callback_error_hook",
    # issue 17, auth / client / users
    "ClientCreateOptions",
    "DeviceAuthorizationArgs",
    "HttpStatusCode",
    # issue 17, lobbies / messages / guilds
    "AdditionalContent",
    "AdditionalContentType",
    "ChannelHandle",
    "DisclosureTypes",
    "LinkedChannel",
    "LinkedLobby",
    "UserMessageSummary",
    # issue 15, voice and audio
    "AudioDevice",
    "AudioModeType",
    "AudioSystem",
    "Call",
    "CallInfoHandle",
    "VADThresholdSettings",
    "VoiceStateHandle",
    # issue 17, presence / relationships
    "ActivityActionTypes",
    "ActivityInvite",
    "ActivityGamePlatforms",
    "ActivityPartyPrivacy",
    "RelationshipGroupType",
    "StatusDisplayTypes",
    # issue 17, the rest (users)
    "ExternalIdentityProviderType",
)

__all__ = [*_EXTENSION_NAMES, "FrameLoop", "__version__", "aio", "events", "versioning"]


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
