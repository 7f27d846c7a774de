// The namespace-level EnumToString overloads of enum_to_string.hpp, generated from the
// SDK reference's enum values once and kept by hand: a switch per enum, so -Wswitch flags a value
// added to an enum and not named here.
#include "platformpp/enum_to_string.hpp"

namespace platformpp {

const char* EnumToString(ErrorType value) {
    switch (value) {
        case ErrorType::None: return "None";
        case ErrorType::NetworkError: return "NetworkError";
        case ErrorType::HTTPError: return "HTTPError";
        case ErrorType::ClientNotReady: return "ClientNotReady";
        case ErrorType::Disabled: return "Disabled";
        case ErrorType::ClientDestroyed: return "ClientDestroyed";
        case ErrorType::ValidationError: return "ValidationError";
        case ErrorType::Aborted: return "Aborted";
        case ErrorType::AuthorizationFailed: return "AuthorizationFailed";
        case ErrorType::RPCError: return "RPCError";
    }
    return "Unknown";
}

const char* EnumToString(HttpStatusCode value) {
    switch (value) {
        case HttpStatusCode::None: return "None";
        case HttpStatusCode::Continue: return "Continue";
        case HttpStatusCode::SwitchingProtocols: return "SwitchingProtocols";
        case HttpStatusCode::Processing: return "Processing";
        case HttpStatusCode::EarlyHints: return "EarlyHints";
        case HttpStatusCode::Ok: return "Ok";
        case HttpStatusCode::Created: return "Created";
        case HttpStatusCode::Accepted: return "Accepted";
        case HttpStatusCode::NonAuthoritativeInfo: return "NonAuthoritativeInfo";
        case HttpStatusCode::NoContent: return "NoContent";
        case HttpStatusCode::ResetContent: return "ResetContent";
        case HttpStatusCode::PartialContent: return "PartialContent";
        case HttpStatusCode::MultiStatus: return "MultiStatus";
        case HttpStatusCode::AlreadyReported: return "AlreadyReported";
        case HttpStatusCode::ImUsed: return "ImUsed";
        case HttpStatusCode::MultipleChoices: return "MultipleChoices";
        case HttpStatusCode::MovedPermanently: return "MovedPermanently";
        case HttpStatusCode::Found: return "Found";
        case HttpStatusCode::SeeOther: return "SeeOther";
        case HttpStatusCode::NotModified: return "NotModified";
        case HttpStatusCode::TemporaryRedirect: return "TemporaryRedirect";
        case HttpStatusCode::PermanentRedirect: return "PermanentRedirect";
        case HttpStatusCode::BadRequest: return "BadRequest";
        case HttpStatusCode::Unauthorized: return "Unauthorized";
        case HttpStatusCode::PaymentRequired: return "PaymentRequired";
        case HttpStatusCode::Forbidden: return "Forbidden";
        case HttpStatusCode::NotFound: return "NotFound";
        case HttpStatusCode::MethodNotAllowed: return "MethodNotAllowed";
        case HttpStatusCode::NotAcceptable: return "NotAcceptable";
        case HttpStatusCode::ProxyAuthRequired: return "ProxyAuthRequired";
        case HttpStatusCode::RequestTimeout: return "RequestTimeout";
        case HttpStatusCode::Conflict: return "Conflict";
        case HttpStatusCode::Gone: return "Gone";
        case HttpStatusCode::LengthRequired: return "LengthRequired";
        case HttpStatusCode::PreconditionFailed: return "PreconditionFailed";
        case HttpStatusCode::PayloadTooLarge: return "PayloadTooLarge";
        case HttpStatusCode::UriTooLong: return "UriTooLong";
        case HttpStatusCode::UnsupportedMediaType: return "UnsupportedMediaType";
        case HttpStatusCode::RangeNotSatisfiable: return "RangeNotSatisfiable";
        case HttpStatusCode::ExpectationFailed: return "ExpectationFailed";
        case HttpStatusCode::MisdirectedRequest: return "MisdirectedRequest";
        case HttpStatusCode::UnprocessableEntity: return "UnprocessableEntity";
        case HttpStatusCode::Locked: return "Locked";
        case HttpStatusCode::FailedDependency: return "FailedDependency";
        case HttpStatusCode::TooEarly: return "TooEarly";
        case HttpStatusCode::UpgradeRequired: return "UpgradeRequired";
        case HttpStatusCode::PreconditionRequired: return "PreconditionRequired";
        case HttpStatusCode::TooManyRequests: return "TooManyRequests";
        case HttpStatusCode::RequestHeaderFieldsTooLarge: return "RequestHeaderFieldsTooLarge";
        case HttpStatusCode::InternalServerError: return "InternalServerError";
        case HttpStatusCode::NotImplemented: return "NotImplemented";
        case HttpStatusCode::BadGateway: return "BadGateway";
        case HttpStatusCode::ServiceUnavailable: return "ServiceUnavailable";
        case HttpStatusCode::GatewayTimeout: return "GatewayTimeout";
        case HttpStatusCode::HttpVersionNotSupported: return "HttpVersionNotSupported";
        case HttpStatusCode::VariantAlsoNegotiates: return "VariantAlsoNegotiates";
        case HttpStatusCode::InsufficientStorage: return "InsufficientStorage";
        case HttpStatusCode::LoopDetected: return "LoopDetected";
        case HttpStatusCode::NotExtended: return "NotExtended";
        case HttpStatusCode::NetworkAuthorizationRequired: return "NetworkAuthorizationRequired";
    }
    return "Unknown";
}

const char* EnumToString(LoggingSeverity value) {
    switch (value) {
        case LoggingSeverity::Verbose: return "Verbose";
        case LoggingSeverity::Info: return "Info";
        case LoggingSeverity::Warning: return "Warning";
        case LoggingSeverity::Error: return "Error";
        case LoggingSeverity::None: return "None";
    }
    return "Unknown";
}

const char* EnumToString(AuthenticationCodeChallengeMethod value) {
    switch (value) {
        case AuthenticationCodeChallengeMethod::S256: return "S256";
    }
    return "Unknown";
}

const char* EnumToString(IntegrationType value) {
    switch (value) {
        case IntegrationType::GuildInstall: return "GuildInstall";
        case IntegrationType::UserInstall: return "UserInstall";
    }
    return "Unknown";
}

const char* EnumToString(AuthorizationTokenType value) {
    switch (value) {
        case AuthorizationTokenType::User: return "User";
        case AuthorizationTokenType::Bearer: return "Bearer";
    }
    return "Unknown";
}

const char* EnumToString(AuthenticationExternalAuthType value) {
    switch (value) {
        case AuthenticationExternalAuthType::OIDC: return "OIDC";
        case AuthenticationExternalAuthType::EpicOnlineServicesAccessToken: return "EpicOnlineServicesAccessToken";
        case AuthenticationExternalAuthType::EpicOnlineServicesIdToken: return "EpicOnlineServicesIdToken";
        case AuthenticationExternalAuthType::SteamSessionTicket: return "SteamSessionTicket";
        case AuthenticationExternalAuthType::UnityServicesIdToken: return "UnityServicesIdToken";
        case AuthenticationExternalAuthType::PlatformBotIssuedAccessToken: return "PlatformBotIssuedAccessToken";
        case AuthenticationExternalAuthType::AppleIdToken: return "AppleIdToken";
        case AuthenticationExternalAuthType::PlayStationNetworkIdToken: return "PlayStationNetworkIdToken";
    }
    return "Unknown";
}

const char* EnumToString(Client::Error value) {
    switch (value) {
        case Client::Error::None: return "None";
        case Client::Error::ConnectionFailed: return "ConnectionFailed";
        case Client::Error::UnexpectedClose: return "UnexpectedClose";
        case Client::Error::ConnectionCanceled: return "ConnectionCanceled";
    }
    return "Unknown";
}

const char* EnumToString(Client::Status value) {
    switch (value) {
        case Client::Status::Disconnected: return "Disconnected";
        case Client::Status::Connecting: return "Connecting";
        case Client::Status::Connected: return "Connected";
        case Client::Status::Ready: return "Ready";
        case Client::Status::Reconnecting: return "Reconnecting";
        case Client::Status::Disconnecting: return "Disconnecting";
        case Client::Status::HttpWait: return "HttpWait";
    }
    return "Unknown";
}

const char* EnumToString(Client::Thread value) {
    switch (value) {
        case Client::Thread::Client: return "Client";
        case Client::Thread::Voice: return "Voice";
        case Client::Thread::Network: return "Network";
    }
    return "Unknown";
}

// ---- the rest of the reference's list ----

const char* EnumToString(ChannelType value) {
    switch (value) {
        case ChannelType::GuildText: return "GuildText";
        case ChannelType::Dm: return "Dm";
        case ChannelType::GuildVoice: return "GuildVoice";
        case ChannelType::GroupDm: return "GroupDm";
        case ChannelType::GuildCategory: return "GuildCategory";
        case ChannelType::GuildNews: return "GuildNews";
        case ChannelType::GuildStore: return "GuildStore";
        case ChannelType::GuildNewsThread: return "GuildNewsThread";
        case ChannelType::GuildPublicThread: return "GuildPublicThread";
        case ChannelType::GuildPrivateThread: return "GuildPrivateThread";
        case ChannelType::GuildStageVoice: return "GuildStageVoice";
        case ChannelType::GuildDirectory: return "GuildDirectory";
        case ChannelType::GuildForum: return "GuildForum";
        case ChannelType::GuildMedia: return "GuildMedia";
        case ChannelType::Lobby: return "Lobby";
        case ChannelType::EphemeralDm: return "EphemeralDm";
    }
    return "Unknown";
}

const char* EnumToString(AdditionalContentType value) {
    switch (value) {
        case AdditionalContentType::Other: return "Other";
        case AdditionalContentType::Attachment: return "Attachment";
        case AdditionalContentType::Poll: return "Poll";
        case AdditionalContentType::VoiceMessage: return "VoiceMessage";
        case AdditionalContentType::Thread: return "Thread";
        case AdditionalContentType::Embed: return "Embed";
        case AdditionalContentType::Sticker: return "Sticker";
    }
    return "Unknown";
}

const char* EnumToString(AudioSystem value) {
    switch (value) {
        case AudioSystem::Standard: return "Standard";
        case AudioSystem::Game: return "Game";
    }
    return "Unknown";
}

const char* EnumToString(Call::Error value) {
    switch (value) {
        case Call::Error::None: return "None";
        case Call::Error::SignalingConnectionFailed: return "SignalingConnectionFailed";
        case Call::Error::SignalingUnexpectedClose: return "SignalingUnexpectedClose";
        case Call::Error::VoiceConnectionFailed: return "VoiceConnectionFailed";
        case Call::Error::JoinTimeout: return "JoinTimeout";
        case Call::Error::Forbidden: return "Forbidden";
    }
    return "Unknown";
}

const char* EnumToString(AudioModeType value) {
    switch (value) {
        case AudioModeType::MODE_UNINIT: return "MODE_UNINIT";
        case AudioModeType::MODE_VAD: return "MODE_VAD";
        case AudioModeType::MODE_PTT: return "MODE_PTT";
    }
    return "Unknown";
}

const char* EnumToString(Call::Status value) {
    switch (value) {
        case Call::Status::Disconnected: return "Disconnected";
        case Call::Status::Joining: return "Joining";
        case Call::Status::Connecting: return "Connecting";
        case Call::Status::SignalingConnected: return "SignalingConnected";
        case Call::Status::Connected: return "Connected";
        case Call::Status::Reconnecting: return "Reconnecting";
        case Call::Status::Disconnecting: return "Disconnecting";
    }
    return "Unknown";
}

const char* EnumToString(StatusType value) {
    switch (value) {
        case StatusType::Online: return "Online";
        case StatusType::Offline: return "Offline";
        case StatusType::Blocked: return "Blocked";
        case StatusType::Idle: return "Idle";
        case StatusType::Dnd: return "Dnd";
        case StatusType::Invisible: return "Invisible";
        case StatusType::Streaming: return "Streaming";
        case StatusType::Unknown: return "Unknown";
    }
    return "Unknown";
}

const char* EnumToString(DisclosureTypes value) {
    switch (value) {
        case DisclosureTypes::MessageDataVisibleOnPlatform: return "MessageDataVisibleOnPlatform";
    }
    return "Unknown";
}

const char* EnumToString(ExternalIdentityProviderType value) {
    switch (value) {
        case ExternalIdentityProviderType::OIDC: return "OIDC";
        case ExternalIdentityProviderType::EpicOnlineServices: return "EpicOnlineServices";
        case ExternalIdentityProviderType::Steam: return "Steam";
        case ExternalIdentityProviderType::Unity: return "Unity";
        case ExternalIdentityProviderType::PlatformBot: return "PlatformBot";
        case ExternalIdentityProviderType::None: return "None";
        case ExternalIdentityProviderType::Unknown: return "Unknown";
    }
    return "Unknown";
}

}  // namespace platformpp
