#pragma once
// One Bind* function per area, each in the file named after the header it binds.
//
// The Client is bound in parts: BindClient makes the class with its own members, then each social area
// adds its Client methods to it after binding its classes. pybind11 writes a method's signature when
// the method is bound, so the classes a method names must exist by then (else the signature and the
// stub show C++ type names); binding each area's methods beside its classes keeps that order.

#include <pybind11/pybind11.h>

#include "platformpp/client.hpp"
#include "platformpp/user.hpp"

namespace platformpp::python {

void BindErrors(pybind11::module_& m);
void BindLogging(pybind11::module_& m);
void BindClientResult(pybind11::module_& m);
void BindAuthorization(pybind11::module_& m);
pybind11::class_<Client> BindClient(pybind11::module_& m);
void BindActivity(pybind11::module_& m, pybind11::class_<Client>& client);
void BindGuild(pybind11::module_& m, pybind11::class_<Client>& client);
pybind11::class_<UserHandle> BindUser(pybind11::module_& m, pybind11::class_<Client>& client);
// Adds UserHandle.relationship too, once RelationshipHandle exists.
void BindRelationship(pybind11::module_& m, pybind11::class_<Client>& client, pybind11::class_<UserHandle>& user);
void BindLobby(pybind11::module_& m, pybind11::class_<Client>& client);
// LinkedLobby and LinkedChannel (lobby.hpp); BindGuild calls it first, as GuildChannel names LinkedLobby.
void BindLinkedValues(pybind11::module_& m);
void BindMessage(pybind11::module_& m, pybind11::class_<Client>& client);
void BindVoiceSettings(pybind11::module_& m, pybind11::class_<Client>& client);
// Voice: Call, CallInfoHandle, VoiceStateHandle, VADThresholdSettings, AudioModeType and the
// Client's call members (call.cpp); AudioDevice, AudioSystem and the audio members (audio.cpp). Before
// BindLobby, whose LobbyHandle.get_call_info_handle names CallInfoHandle.
void BindCall(pybind11::module_& m, pybind11::class_<Client>& client);
void BindAudio(pybind11::module_& m, pybind11::class_<Client>& client);
// DeviceAuthorizationArgs and the Client's device grant and provisional-account members
// (authorization.cpp).
void BindDeviceAuthorization(pybind11::module_& m, pybind11::class_<Client>& client);
// ClientCreateOptions (client_options.cpp); after BindAudio, as it names AudioSystem.
void BindClientOptions(pybind11::module_& m);
// The namespace-level enum_to_string overloads of enum_to_string.hpp; after every enum they name.
void BindEnumToString(pybind11::module_& m);
void BindCallbacks(pybind11::module_& m);
void BindVersioning(pybind11::module_& m);

}  // namespace platformpp::python
