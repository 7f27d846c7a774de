#pragma once

#include <cstdint>

namespace platformpp {

// Severity of an SDK log line; a log callback receives lines at or above the level it asked for.
// None as the minimum turns a callback's logging off.
enum class LoggingSeverity : int32_t {
    Verbose = 1,
    Info = 2,
    Warning = 3,
    Error = 4,
    None = 5,
};

}  // namespace platformpp
