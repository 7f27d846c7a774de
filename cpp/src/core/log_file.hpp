#pragma once
// The SDK's log file (Client::SetLogDir): lines at or above a severity, secrets redacted exactly as
// for the log callbacks, written at once from whichever thread logs, and rotated by size so a
// long-running game never fills the disk.

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

#include "platformpp/logging.hpp"

namespace platformpp::core {

class LogFile {
public:
    static constexpr const char* kFileName = "platformpp.log";
    static constexpr const char* kVoiceFileName = "platformpp-voice.log";  // Client::SetVoiceLogDir
    static constexpr uint64_t kDefaultMaxBytes = 5 * 1024 * 1024;
    static constexpr int kDefaultKeptFiles = 3;

    // Creates `directory` if needed and opens <directory>/<fileName> for appending. Throws
    // ValidationError("path") when the directory cannot be created or the file opened.
    LogFile(const std::string& directory, LoggingSeverity minSeverity, uint64_t maxBytes = kDefaultMaxBytes,
            int keptFiles = kDefaultKeptFiles, const char* fileName = kFileName);
    ~LogFile();
    LogFile(const LogFile&) = delete;
    LogFile& operator=(const LogFile&) = delete;

    // Redacts and appends one line (with a UTC timestamp and the severity) when severity is at or
    // above the minimum. When the file would pass maxBytes it becomes <fileName>.1 (older ones
    // shift up to .<keptFiles>; the oldest is deleted) and a new file starts.
    void Write(LoggingSeverity severity, const std::string& line);
    std::string Path() const { return path_; }

private:
    void RotateLocked();

    const std::string path_;
    const LoggingSeverity minSeverity_;
    const uint64_t maxBytes_;
    const int keptFiles_;
    std::mutex mutex_;
    std::FILE* file_ = nullptr;
    uint64_t size_ = 0;
};

// "Verbose", "Info", "Warning", "Error", "None".
const char* SeverityName(LoggingSeverity severity);

}  // namespace platformpp::core
