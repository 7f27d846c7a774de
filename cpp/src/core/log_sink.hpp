#pragma once
// How the core's internals log: a sink the owning Client provides. The sink redacts secrets and fans
// the line out to the log callbacks; callers pass lines as they would print them.

#include <functional>
#include <string>

#include "platformpp/logging.hpp"

namespace platformpp::core {

using LogSink = std::function<void(LoggingSeverity severity, const std::string& line)>;

}  // namespace platformpp::core
