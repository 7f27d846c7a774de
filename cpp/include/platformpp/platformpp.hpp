#pragma once
// Everything a game includes: `#include <platformpp/platformpp.hpp>`.

#include "platformpp/activity.hpp"
#include "platformpp/audio.hpp"
#include "platformpp/authorization.hpp"
#include "platformpp/call.hpp"
#include "platformpp/callbacks.hpp"
#include "platformpp/client.hpp"
#include "platformpp/errors.hpp"
#include "platformpp/guild.hpp"
#include "platformpp/lobby.hpp"
#include "platformpp/message.hpp"
#include "platformpp/relationship.hpp"
#include "platformpp/user.hpp"
#include "platformpp/versioning.hpp"
