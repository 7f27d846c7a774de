// ClientCreateOptions and what a Client does with them; the SDK's threads (ThreadToString,
// SetThreadPriority), its version hash and its log file (SetLogDir).
#include "platformpp/client_options.hpp"

#include <boost/asio/post.hpp>

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <future>

#include "client/client_impl.hpp"
#include "client/voice_layer.hpp"
#include "core/log_file.hpp"
#include "platformpp/client.hpp"
#include "platformpp/errors.hpp"

#ifndef PLATFORMPP_VERSION_HASH
#define PLATFORMPP_VERSION_HASH "unknown"
#endif

namespace platformpp {

namespace {

std::string EnvironmentOr(const char* name, const char* fallback) {
    const char* value = std::getenv(name);
    return value && *value ? value : fallback;
}

// Runs `work` on the Client's network thread and waits for its answer (errno-style: 0 is success).
int OnNetworkThread(Client::Impl& impl, std::function<int()> work) {
    std::promise<int> done;
    auto answer = done.get_future();
    boost::asio::post(impl.io.Context(), [&done, &work] { done.set_value(work()); });
    return answer.get();
}

int SetCurrentThreadNice(int32_t priority) {
    // Linux: a thread's nice value is set through its kernel thread id.
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    return ::setpriority(PRIO_PROCESS, tid, priority) == 0 ? 0 : errno;
}

// SetLogDir and SetVoiceLogDir: the rotated file `fileName` in `directory`, or null when it cannot be
// opened (logged as `caller`'s error; the file in use stays as it is).
std::shared_ptr<core::LogFile> OpenLogFile(Client::Impl& impl, const char* caller, const std::string& directory,
                                           LoggingSeverity minSeverity, const char* fileName) {
    try {
        return std::make_shared<core::LogFile>(directory, minSeverity, core::LogFile::kDefaultMaxBytes,
                                               core::LogFile::kDefaultKeptFiles, fileName);
    } catch (const ValidationError& error) {
        impl.Log(LoggingSeverity::Error, std::string(caller) + ": " + error.what());
        return nullptr;
    }
}

}  // namespace

// ---- ClientCreateOptions ----

const ClientCreateOptions ClientCreateOptions::nullobj{NullTag{}};

ClientCreateOptions::ClientCreateOptions()
  : webBase_(EnvironmentOr("PLATFORMPP_WEB_BASE", PLATFORMPP_DEFAULT_WEB_BASE)),
    apiBase_(EnvironmentOr("PLATFORMPP_API_BASE", PLATFORMPP_DEFAULT_API_BASE)) {}

ClientCreateOptions::ClientCreateOptions(ClientCreateOptions&& other) noexcept
  : valid_(std::exchange(other.valid_, false)),
    webBase_(std::move(other.webBase_)),
    apiBase_(std::move(other.apiBase_)),
    audioSystem_(other.audioSystem_),
    preventCommsForBluetooth_(other.preventCommsForBluetooth_),
    cpuAffinityMask_(other.cpuAffinityMask_) {}

ClientCreateOptions& ClientCreateOptions::operator=(ClientCreateOptions&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        webBase_ = std::move(other.webBase_);
        apiBase_ = std::move(other.apiBase_);
        audioSystem_ = other.audioSystem_;
        preventCommsForBluetooth_ = other.preventCommsForBluetooth_;
        cpuAffinityMask_ = other.cpuAffinityMask_;
    }
    return *this;
}

void ClientCreateOptions::RequireValid() const {
    if (!valid_) throw NullHandleError("ClientCreateOptions: the instance is null (nullobj or moved from)");
}

std::string ClientCreateOptions::WebBase() const { RequireValid(); return webBase_; }
void ClientCreateOptions::SetWebBase(std::string WebBase) { RequireValid(); webBase_ = std::move(WebBase); }
std::string ClientCreateOptions::ApiBase() const { RequireValid(); return apiBase_; }
void ClientCreateOptions::SetApiBase(std::string ApiBase) { RequireValid(); apiBase_ = std::move(ApiBase); }
AudioSystem ClientCreateOptions::ExperimentalAudioSystem() const { RequireValid(); return audioSystem_; }
void ClientCreateOptions::SetExperimentalAudioSystem(AudioSystem ExperimentalAudioSystem) {
    RequireValid();
    audioSystem_ = ExperimentalAudioSystem;
}
bool ClientCreateOptions::ExperimentalAndroidPreventCommsForBluetooth() const {
    RequireValid();
    return preventCommsForBluetooth_;
}
void ClientCreateOptions::SetExperimentalAndroidPreventCommsForBluetooth(bool ExperimentalAndroidPreventCommsForBluetooth) {
    RequireValid();
    preventCommsForBluetooth_ = ExperimentalAndroidPreventCommsForBluetooth;
}
std::optional<uint64_t> ClientCreateOptions::CpuAffinityMask() const { RequireValid(); return cpuAffinityMask_; }
void ClientCreateOptions::SetCpuAffinityMask(std::optional<uint64_t> CpuAffinityMask) {
    RequireValid();
    cpuAffinityMask_ = CpuAffinityMask;
}

// ---- Client ----

namespace {

const ClientCreateOptions& RequireOptions(const ClientCreateOptions& options) {
    if (!options) throw ValidationError("options", "is a null ClientCreateOptions");
    return options;
}

}  // namespace

// (The order in which the two bases are read is unspecified: each checks the options first.)
Client::Client(ClientCreateOptions options)
  : Client(RequireOptions(options).ApiBase(), RequireOptions(options).WebBase()) {
    // (Client(apiBase, webBase) checked the bases; its messages name apiBase/webBase.)
    impl_->audioSystem = options.ExperimentalAudioSystem();
    impl_->preventCommsForBluetooth = options.ExperimentalAndroidPreventCommsForBluetooth();
    if (const auto mask = options.CpuAffinityMask()) {
        cpu_set_t cpus;
        CPU_ZERO(&cpus);
        const long online = ::sysconf(_SC_NPROCESSORS_CONF);
        for (int cpu = 0; cpu < 64 && cpu < online && cpu < CPU_SETSIZE; ++cpu) {
            if ((*mask >> cpu) & 1U) CPU_SET(cpu, &cpus);
        }
        if (CPU_COUNT(&cpus) == 0) {
            throw ValidationError("CpuAffinityMask", "names no CPU of this machine (" + std::to_string(online) +
                                                         " CPUs: bits 0.." + std::to_string(online - 1) + ")");
        }
        const int error = OnNetworkThread(*impl_, [cpus] {
            return ::pthread_setaffinity_np(::pthread_self(), sizeof cpus, &cpus);
        });
        if (error != 0) {
            throw ValidationError("CpuAffinityMask", std::string("cannot be applied: ") + std::strerror(error));
        }
    }
}

std::string Client::GetVersionHash() { return PLATFORMPP_VERSION_HASH; }

std::string Client::ThreadToString(Thread type) {
    switch (type) {
        case Thread::Client: return "Client";
        case Thread::Voice: return "Voice";
        case Thread::Network: return "Network";
    }
    return "Unknown";
}

void Client::SetThreadPriority(Thread thread, int32_t priority) {
    Impl& impl = RequireImpl();
    if (priority < -20 || priority > 19) {
        throw ValidationError("priority", "must be a nice value from -20 (highest) to 19 (lowest), got " +
                                              std::to_string(priority));
    }
    if (thread == Thread::Voice) {
        std::lock_guard lock(impl.mutex);
        impl.voiceThreadPriority = priority;
        return;
    }
    const int error = OnNetworkThread(impl, [priority] { return SetCurrentThreadNice(priority); });
    if (error != 0) {
        impl.Log(LoggingSeverity::Warning, "SetThreadPriority(" + ThreadToString(thread) + ", " +
                                               std::to_string(priority) + "): " + std::strerror(error));
        return;
    }
    impl.Log(LoggingSeverity::Info,
             "the " + ThreadToString(thread) + " thread runs at nice " + std::to_string(priority));
}

bool Client::SetLogDir(std::string const& path, LoggingSeverity minSeverity) {
    Impl& impl = RequireImpl();
    if (path.empty()) {
        std::lock_guard lock(impl.mutex);
        impl.logFile.reset();
        return true;
    }
    auto file = OpenLogFile(impl, "SetLogDir", path, minSeverity, core::LogFile::kFileName);
    if (!file) return false;
    {
        std::lock_guard lock(impl.mutex);
        impl.logFile = file;
    }
    impl.Log(LoggingSeverity::Info, "logging to " + file->Path());
    return true;
}

void Client::AddVoiceLogCallback(LogCallback callback, LoggingSeverity minSeverity) {
    if (!callback) throw ValidationError("callback", "must not be empty");
    Impl& impl = RequireImpl();
    auto shared = std::make_shared<LogCallback>(std::move(callback));
    // The engine logs from its threads; the game's callback runs where its other callbacks run.
    // A voice connection may keep the sink a moment after the Client is gone: `alive` tells.
    impl.voice->AddLogSink(
        [&impl, alive = impl.alive, shared](LoggingSeverity severity, const std::string& line) {
            if (!alive->load()) return;
            impl.DeliverEvent([shared, line, severity] { (*shared)(line, severity); });
        },
        minSeverity);
}

void Client::SetVoiceLogDir(std::string const& path, LoggingSeverity minSeverity) {
    Impl& impl = RequireImpl();
    if (path.empty()) {
        impl.voice->SetLogFile(nullptr);
        return;
    }
    auto file = OpenLogFile(impl, "SetVoiceLogDir", path, minSeverity, core::LogFile::kVoiceFileName);
    if (!file) return;
    impl.voice->SetLogFile(file);
    impl.Log(LoggingSeverity::Info, "voice logging to " + file->Path());
}

}  // namespace platformpp
