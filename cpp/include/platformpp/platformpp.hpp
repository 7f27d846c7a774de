#pragma once
// Everything a game includes: `#include <platformpp/platformpp.hpp>`.

#include "platformpp/authorization.hpp"
#include "platformpp/callbacks.hpp"
#include "platformpp/client.hpp"
#include "platformpp/errors.hpp"
#include "platformpp/versioning.hpp"
