#pragma once
// The SDK's namespace-level EnumToString overloads for the enums of the client, auth and users areas:
// each value's C++ name ("HttpError" -> "HTTPError", HttpStatusCode::NotFound -> "NotFound"), or
// "Unknown" for a number the enum does not list. The overloads of other areas sit with their enums
// (e.g. EnumToString(VoiceInputModeType) in voice_settings.hpp).

#include "platformpp/client.hpp"

namespace platformpp {

const char* EnumToString(ErrorType value);
const char* EnumToString(HttpStatusCode value);
const char* EnumToString(LoggingSeverity value);
const char* EnumToString(AuthenticationCodeChallengeMethod value);
const char* EnumToString(IntegrationType value);
const char* EnumToString(AuthorizationTokenType value);
const char* EnumToString(AuthenticationExternalAuthType value);
const char* EnumToString(Client::Error value);
const char* EnumToString(Client::Status value);
const char* EnumToString(Client::Thread value);
// The rest of the reference's list: guilds, messages, audio, calls and users.
const char* EnumToString(ChannelType value);
const char* EnumToString(AdditionalContentType value);
const char* EnumToString(AudioSystem value);
const char* EnumToString(Call::Error value);
const char* EnumToString(AudioModeType value);
const char* EnumToString(Call::Status value);
const char* EnumToString(StatusType value);
const char* EnumToString(DisclosureTypes value);
const char* EnumToString(ExternalIdentityProviderType value);

}  // namespace platformpp
