#pragma once
// Reading VoiceSettings from the desktop client's RPC voice settings object. Private to the core.

#include <boost/json/value.hpp>

#include "platformpp/voice_settings.hpp"

namespace platformpp::ipc {

// Fields missing or of the wrong type read as false / 0 / "" (the desktop client always sends them all).
VoiceSettings VoiceSettingsFromRpc(const boost::json::value& data);

}  // namespace platformpp::ipc
