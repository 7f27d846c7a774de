#include "core/log_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

#include "core/redact.hpp"
#include "platformpp/errors.hpp"

namespace platformpp::core {

namespace {

// mkdir -p: every missing component of `directory`.
bool MakeDirectories(const std::string& directory) {
    if (directory.empty()) return false;
    std::string partial;
    for (std::size_t i = 0; i <= directory.size(); ++i) {
        if (i == directory.size() || directory[i] == '/') {
            partial = directory.substr(0, i);
            if (!partial.empty() && ::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) return false;
        }
    }
    struct stat info {};
    return ::stat(directory.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

std::string UtcTimestamp() {
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const auto millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[64];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                  utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis));
    return text;
}

}  // namespace

const char* SeverityName(LoggingSeverity severity) {
    switch (severity) {
        case LoggingSeverity::Verbose: return "Verbose";
        case LoggingSeverity::Info: return "Info";
        case LoggingSeverity::Warning: return "Warning";
        case LoggingSeverity::Error: return "Error";
        case LoggingSeverity::None: return "None";
    }
    return "Unknown";
}

LogFile::LogFile(const std::string& directory, LoggingSeverity minSeverity, uint64_t maxBytes, int keptFiles,
                 const char* fileName)
  : path_(directory + (directory.empty() || directory.back() == '/' ? "" : "/") + fileName),
    minSeverity_(minSeverity),
    maxBytes_(maxBytes),
    keptFiles_(keptFiles) {
    if (!MakeDirectories(directory)) {
        throw ValidationError("path", "cannot create the log directory \"" + directory + "\": " + std::strerror(errno));
    }
    file_ = std::fopen(path_.c_str(), "a");
    if (file_ == nullptr) {
        throw ValidationError("path", "cannot open \"" + path_ + "\" for writing: " + std::strerror(errno));
    }
    struct stat info {};
    if (::stat(path_.c_str(), &info) == 0) size_ = static_cast<uint64_t>(info.st_size);
}

LogFile::~LogFile() {
    if (file_ != nullptr) std::fclose(file_);
}

void LogFile::Write(LoggingSeverity severity, const std::string& line) {
    if (minSeverity_ == LoggingSeverity::None || severity < minSeverity_) return;
    const std::string text = UtcTimestamp() + " [" + SeverityName(severity) + "] " + RedactSecrets(line) + "\n";
    std::lock_guard lock(mutex_);
    if (file_ == nullptr) return;
    if (size_ > 0 && size_ + text.size() > maxBytes_) RotateLocked();
    if (file_ == nullptr) return;
    std::fwrite(text.data(), 1, text.size(), file_);
    std::fflush(file_);  // a crash must not lose the lines that explain it
    size_ += text.size();
}

void LogFile::RotateLocked() {
    std::fclose(file_);
    file_ = nullptr;
    std::remove((path_ + "." + std::to_string(keptFiles_)).c_str());
    for (int index = keptFiles_ - 1; index >= 1; --index) {
        std::rename((path_ + "." + std::to_string(index)).c_str(), (path_ + "." + std::to_string(index + 1)).c_str());
    }
    if (keptFiles_ >= 1) {
        std::rename(path_.c_str(), (path_ + ".1").c_str());
    } else {
        std::remove(path_.c_str());
    }
    file_ = std::fopen(path_.c_str(), "w");
    size_ = 0;
}

}  // namespace platformpp::core
