// The PulseAudio backend (also PipeWire's pulse server): a threaded main loop for the device list and
// its changes and for one record and one playback stream on the chosen devices, and an audio thread
// clocked every 20 ms by the steady clock that exchanges one frame with each stream without blocking.
//
// libpulse is loaded at run time (dlopen), never linked: the SDK loads on a machine without PulseAudio
// (a server, a container, another distribution's wheel user) and calls use the null backend there. The
// headers (libpulse-dev) give the types at build time; every function is taken from the loaded library.
#include <dlfcn.h>
#include <pulse/error.h>
#include <pulse/pulseaudio.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#include "voice/audio_devices.hpp"
#include "voice/opus_codec.hpp"

namespace platformpp::voice {
namespace {

// Every libpulse function the backend calls, as a pointer taken from the loaded library.
#define PLATFORMPP_PULSE_FUNCTIONS(X) \
    X(pa_context_connect) \
    X(pa_context_disconnect) \
    X(pa_context_errno) \
    X(pa_context_get_server_info) \
    X(pa_context_get_sink_info_list) \
    X(pa_context_get_source_info_list) \
    X(pa_context_get_state) \
    X(pa_context_new) \
    X(pa_context_set_state_callback) \
    X(pa_context_set_subscribe_callback) \
    X(pa_context_subscribe) \
    X(pa_context_unref) \
    X(pa_operation_unref) \
    X(pa_stream_connect_playback) \
    X(pa_stream_connect_record) \
    X(pa_stream_disconnect) \
    X(pa_stream_drop) \
    X(pa_stream_get_state) \
    X(pa_stream_new) \
    X(pa_stream_peek) \
    X(pa_stream_readable_size) \
    X(pa_stream_set_state_callback) \
    X(pa_stream_unref) \
    X(pa_stream_writable_size) \
    X(pa_stream_write) \
    X(pa_strerror) \
    X(pa_threaded_mainloop_free) \
    X(pa_threaded_mainloop_get_api) \
    X(pa_threaded_mainloop_lock) \
    X(pa_threaded_mainloop_new) \
    X(pa_threaded_mainloop_signal) \
    X(pa_threaded_mainloop_start) \
    X(pa_threaded_mainloop_stop) \
    X(pa_threaded_mainloop_unlock) \
    X(pa_threaded_mainloop_wait)

struct PulseApi {
#define PLATFORMPP_PULSE_POINTER(name) decltype(&::name) name = nullptr;
    PLATFORMPP_PULSE_FUNCTIONS(PLATFORMPP_PULSE_POINTER)
#undef PLATFORMPP_PULSE_POINTER
};

struct PulseLibrary {
    PulseApi api;
    std::string error;  // empty when loaded
};

// Loads `name` once per process and keeps it loaded (libpulse's threads outlive any one backend).
const PulseLibrary& LoadPulse(const std::string& name) {
    static std::mutex mutex;
    static std::map<std::string, PulseLibrary> loaded;
    std::lock_guard<std::mutex> lock(mutex);
    auto found = loaded.find(name);
    if (found != loaded.end()) return found->second;
    PulseLibrary& library = loaded[name];
    void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = dlerror();
        library.error = why ? why : name + ": cannot be loaded";
        return library;
    }
#define PLATFORMPP_PULSE_LOAD(fn)                                           \
    library.api.fn = reinterpret_cast<decltype(&::fn)>(dlsym(handle, #fn)); \
    if (!library.api.fn) {                                                  \
        library.error = name + " has no " #fn;                              \
        return library;                                                     \
    }
    PLATFORMPP_PULSE_FUNCTIONS(PLATFORMPP_PULSE_LOAD)
#undef PLATFORMPP_PULSE_LOAD
    return library;
}

// The loaded library's functions, set by MakePulseAudioBackend before it makes a backend.
std::atomic<const PulseApi*> gPulse{nullptr};
const PulseApi& Pa() { return *gPulse.load(std::memory_order_acquire); }

constexpr std::size_t kFrameBytes = static_cast<std::size_t>(kFrameSamples) * kDeviceChannels * sizeof(std::int16_t);

pa_sample_spec Spec() {
    pa_sample_spec spec{};
    spec.format = PA_SAMPLE_S16LE;
    spec.rate = kSampleRate;
    spec.channels = kDeviceChannels;
    return spec;
}

class PulseBackend final : public AudioBackend {
public:
    explicit PulseBackend(core::LogSink log) : log_(std::move(log)) {}
    ~PulseBackend() override {
        Stop();
        {
            std::lock_guard<std::mutex> lock(refreshMutex_);
            stopping_ = true;
        }
        refreshWake_.notify_all();
        if (watcher_.joinable()) watcher_.join();
        if (loop_ && context_) {
            Pa().pa_threaded_mainloop_lock(loop_);
            Pa().pa_context_disconnect(context_);
            Pa().pa_threaded_mainloop_unlock(loop_);
        }
        if (loop_) Pa().pa_threaded_mainloop_stop(loop_);
        if (context_) Pa().pa_context_unref(context_);
        if (loop_) Pa().pa_threaded_mainloop_free(loop_);
    }

    // Connects the control context; false when no server answers.
    bool Connect() {
        loop_ = Pa().pa_threaded_mainloop_new();
        if (!loop_) return false;
        context_ = Pa().pa_context_new(Pa().pa_threaded_mainloop_get_api(loop_), "platformpp");
        if (!context_) return false;
        Pa().pa_context_set_state_callback(context_, &PulseBackend::OnContextState, this);
        if (Pa().pa_context_connect(context_, nullptr, PA_CONTEXT_NOAUTOSPAWN, nullptr) < 0) return false;
        if (Pa().pa_threaded_mainloop_start(loop_) < 0) return false;
        Pa().pa_threaded_mainloop_lock(loop_);
        while (true) {
            const auto state = Pa().pa_context_get_state(context_);
            if (state == PA_CONTEXT_READY) break;
            if (!PA_CONTEXT_IS_GOOD(state)) {
                Pa().pa_threaded_mainloop_unlock(loop_);
                return false;
            }
            Pa().pa_threaded_mainloop_wait(loop_);
        }
        Pa().pa_context_set_subscribe_callback(context_, &PulseBackend::OnSubscribe, this);
        Pa().pa_operation_unref(Pa().pa_context_subscribe(
            context_, static_cast<pa_subscription_mask_t>(PA_SUBSCRIPTION_MASK_SINK | PA_SUBSCRIPTION_MASK_SOURCE |
                                                          PA_SUBSCRIPTION_MASK_SERVER),
            nullptr, nullptr));
        Pa().pa_threaded_mainloop_unlock(loop_);
        Refresh();
        watcher_ = std::thread([this] { Watch(); });
        return true;
    }

    const char* Name() const override { return "pulseaudio"; }
    std::vector<AudioDeviceInfo> InputDevices() override {
        std::lock_guard<std::mutex> lock(mutex_);
        return inputs_;
    }
    std::vector<AudioDeviceInfo> OutputDevices() override {
        std::lock_guard<std::mutex> lock(mutex_);
        return outputs_;
    }
    bool SetInputDevice(const std::string& id) override { return Choose(id, true); }
    bool SetOutputDevice(const std::string& id) override { return Choose(id, false); }
    std::string CurrentInputDevice() const override {
        std::lock_guard<std::mutex> lock(mutex_);
        return input_;
    }
    std::string CurrentOutputDevice() const override {
        std::lock_guard<std::mutex> lock(mutex_);
        return output_;
    }
    void SetDeviceChangeCallback(DeviceChangeFn fn) override {
        std::lock_guard<std::mutex> lock(mutex_);
        onChange_ = std::move(fn);
    }

    void Start(ProcessFn process) override {
        Stop();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            process_ = std::move(process);
        }
        running_ = true;
        thread_ = std::thread([this] { Run(); });
    }

    void Stop() override {
        running_ = false;
        if (thread_.joinable()) thread_.join();
    }

private:
    // --- device list -------------------------------------------------------------------------------
    struct Listing {
        PulseBackend* self;
        std::vector<AudioDeviceInfo> devices;
        std::string defaultName;
    };

    // Lists sources, sinks and the defaults (blocking; never called on the main loop's thread).
    void Refresh() {
        Listing sources{this, {}, {}}, sinks{this, {}, {}};
        std::string defaultSource, defaultSink;
        Pa().pa_threaded_mainloop_lock(loop_);
        pending_ = 3;
        Pa().pa_operation_unref(Pa().pa_context_get_server_info(context_, &PulseBackend::OnServerInfo, this));
        Pa().pa_operation_unref(Pa().pa_context_get_source_info_list(context_, &PulseBackend::OnSource, &sources));
        Pa().pa_operation_unref(Pa().pa_context_get_sink_info_list(context_, &PulseBackend::OnSink, &sinks));
        while (pending_ > 0) Pa().pa_threaded_mainloop_wait(loop_);
        defaultSource = serverDefaultSource_;
        defaultSink = serverDefaultSink_;
        Pa().pa_threaded_mainloop_unlock(loop_);
        for (auto& d : sources.devices) d.isDefault = d.id == defaultSource;
        for (auto& d : sinks.devices) d.isDefault = d.id == defaultSink;
        DeviceChangeFn notify;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            const bool changed = !(inputs_ == sources.devices) || !(outputs_ == sinks.devices);
            inputs_ = std::move(sources.devices);
            outputs_ = std::move(sinks.devices);
            if (changed && everListed_) notify = onChange_;
            everListed_ = true;
        }
        if (notify) notify(InputDevices(), OutputDevices());
    }

    static void OnContextState(pa_context*, void* user) {
        Pa().pa_threaded_mainloop_signal(static_cast<PulseBackend*>(user)->loop_, 0);
    }
    static void OnServerInfo(pa_context*, const pa_server_info* info, void* user) {
        auto* self = static_cast<PulseBackend*>(user);
        if (info) {
            self->serverDefaultSource_ = info->default_source_name ? info->default_source_name : "";
            self->serverDefaultSink_ = info->default_sink_name ? info->default_sink_name : "";
        }
        --self->pending_;
        Pa().pa_threaded_mainloop_signal(self->loop_, 0);
    }
    static void OnSource(pa_context*, const pa_source_info* info, int eol, void* user) {
        auto* listing = static_cast<Listing*>(user);
        if (eol) {
            --listing->self->pending_;
            Pa().pa_threaded_mainloop_signal(listing->self->loop_, 0);
            return;
        }
        listing->devices.push_back({info->name, info->description ? info->description : info->name, false});
    }
    static void OnSink(pa_context*, const pa_sink_info* info, int eol, void* user) {
        auto* listing = static_cast<Listing*>(user);
        if (eol) {
            --listing->self->pending_;
            Pa().pa_threaded_mainloop_signal(listing->self->loop_, 0);
            return;
        }
        listing->devices.push_back({info->name, info->description ? info->description : info->name, false});
    }
    // Device events arrive on the main loop's thread, where a blocking listing would deadlock: the
    // watcher thread lists again.
    static void OnSubscribe(pa_context*, pa_subscription_event_type_t, uint32_t, void* user) {
        auto* self = static_cast<PulseBackend*>(user);
        {
            std::lock_guard<std::mutex> lock(self->refreshMutex_);
            self->refreshQueued_ = true;
        }
        self->refreshWake_.notify_all();
    }
    void Watch() {
        std::unique_lock<std::mutex> lock(refreshMutex_);
        while (true) {
            refreshWake_.wait(lock, [this] { return stopping_ || refreshQueued_; });
            if (stopping_) return;
            refreshQueued_ = false;
            lock.unlock();
            Refresh();
            lock.lock();
        }
    }

    bool Choose(const std::string& id, bool input) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (id != kDefaultDeviceId) {
                const auto& list = input ? inputs_ : outputs_;
                if (std::none_of(list.begin(), list.end(), [&](const AudioDeviceInfo& d) { return d.id == id; }))
                    return false;
            }
            (input ? input_ : output_) = id;
        }
        restart_ = true;  // the audio thread reopens its streams on the new device
        return true;
    }

    // --- the audio thread ------------------------------------------------------------------------------
    // Why the thread is clocked by the steady clock and never blocks on a device: a duplex loop that
    // blocks in a read of the capture device before it writes to the playback device stalls whenever the
    // capture device stops delivering. That is what PulseAudio's null sink does for up to two seconds after
    // a new stream connects (an idle null sink has rendered ahead by its idle latency, 2 s, and renders
    // again only then), and its monitor source is silent until then; with the monitor as our input, the
    // blocked read also held back the playback writes that would have started the sink: one frame, then
    // nothing. A real microphone that is unplugged does the same. So each 20 ms tick takes what the record
    // stream has (silence when it has less than a frame: counted) and writes one frame when the playback
    // stream has room (dropped when it has none: counted), both without blocking.
    struct Streams {
        pa_stream* record = nullptr;
        pa_stream* playback = nullptr;
    };

    static void OnStreamState(pa_stream*, void* user) {
        Pa().pa_threaded_mainloop_signal(static_cast<PulseBackend*>(user)->loop_, 0);
    }

    // Opens both streams on the control context (one connection); false when either fails.
    bool Open(const std::string& input, const std::string& output, Streams& s) {
        const pa_sample_spec spec = Spec();
        pa_buffer_attr recordAttr{};
        recordAttr.maxlength = static_cast<uint32_t>(-1);
        recordAttr.fragsize = static_cast<uint32_t>(kFrameBytes);
        pa_buffer_attr playAttr{};
        playAttr.maxlength = static_cast<uint32_t>(-1);
        playAttr.tlength = static_cast<uint32_t>(kFrameBytes * 3);
        playAttr.prebuf = static_cast<uint32_t>(kFrameBytes);  // start as soon as one frame is there
        playAttr.minreq = static_cast<uint32_t>(-1);
        const auto flags = static_cast<pa_stream_flags_t>(PA_STREAM_ADJUST_LATENCY);
        Pa().pa_threaded_mainloop_lock(loop_);
        s.record = Pa().pa_stream_new(context_, "voice capture", &spec, nullptr);
        s.playback = Pa().pa_stream_new(context_, "voice playback", &spec, nullptr);
        bool ok = s.record && s.playback;
        if (ok) {
            Pa().pa_stream_set_state_callback(s.record, &PulseBackend::OnStreamState, this);
            Pa().pa_stream_set_state_callback(s.playback, &PulseBackend::OnStreamState, this);
            ok = Pa().pa_stream_connect_record(s.record, input == kDefaultDeviceId ? nullptr : input.c_str(), &recordAttr,
                                          flags) == 0 &&
                 Pa().pa_stream_connect_playback(s.playback, output == kDefaultDeviceId ? nullptr : output.c_str(), &playAttr,
                                            flags, nullptr, nullptr) == 0;
        }
        while (ok) {
            const auto r = Pa().pa_stream_get_state(s.record), p = Pa().pa_stream_get_state(s.playback);
            if (!PA_STREAM_IS_GOOD(r) || !PA_STREAM_IS_GOOD(p)) ok = false;
            else if (r == PA_STREAM_READY && p == PA_STREAM_READY) break;
            else Pa().pa_threaded_mainloop_wait(loop_);
        }
        if (!ok && log_)
            log_(LoggingSeverity::Error,
                 std::string("voice: PulseAudio streams failed: ") + Pa().pa_strerror(Pa().pa_context_errno(context_)));
        Pa().pa_threaded_mainloop_unlock(loop_);
        if (!ok) Close(s);
        return ok;
    }

    void Close(Streams& s) {
        Pa().pa_threaded_mainloop_lock(loop_);
        for (pa_stream* stream : {s.record, s.playback}) {
            if (!stream) continue;
            Pa().pa_stream_set_state_callback(stream, nullptr, nullptr);
            Pa().pa_stream_disconnect(stream);
            Pa().pa_stream_unref(stream);
        }
        Pa().pa_threaded_mainloop_unlock(loop_);
        s = Streams{};
    }

    // One tick's device I/O under the main loop's lock: the record stream's data into captured_, then
    // one frame of capture out of it (silence when short), and the frame to play into the playback
    // stream. False when a stream has failed (the device went away): reopen.
    bool Exchange(Streams& s, std::int16_t* capture, const std::int16_t* playback, bool withPlayback) {
        Pa().pa_threaded_mainloop_lock(loop_);
        const bool good = Pa().pa_stream_get_state(s.record) == PA_STREAM_READY &&
                          Pa().pa_stream_get_state(s.playback) == PA_STREAM_READY;
        if (good) {
            while (Pa().pa_stream_readable_size(s.record) > 0) {
                const void* data = nullptr;
                std::size_t bytes = 0;
                if (Pa().pa_stream_peek(s.record, &data, &bytes) < 0 || bytes == 0) break;
                const auto* samples = static_cast<const std::int16_t*>(data);
                const std::size_t count = bytes / sizeof(std::int16_t);
                if (samples) captured_.insert(captured_.end(), samples, samples + count);
                else captured_.insert(captured_.end(), count, 0);  // a hole in the stream
                Pa().pa_stream_drop(s.record);
            }
            if (withPlayback && Pa().pa_stream_writable_size(s.playback) >= kFrameBytes)
                Pa().pa_stream_write(s.playback, playback, kFrameBytes, nullptr, 0, PA_SEEK_RELATIVE);
            else if (withPlayback)
                ++playbackDropped_;
        }
        Pa().pa_threaded_mainloop_unlock(loop_);
        constexpr std::size_t kFrame = kFrameBytes / sizeof(std::int16_t);
        // Keep at most 100 ms queued: a capture clock faster than ours must not grow the latency.
        if (captured_.size() > 5 * kFrame) captured_.erase(captured_.begin(), captured_.end() - 2 * kFrame);
        if (captured_.size() >= kFrame) {
            std::copy(captured_.begin(), captured_.begin() + kFrame, capture);
            captured_.erase(captured_.begin(), captured_.begin() + kFrame);
        } else {
            std::fill(capture, capture + kFrame, 0);
            ++captureShort_;
        }
        return good;
    }

    void Run() {
        std::vector<std::int16_t> capture(kFrameBytes / 2), playback(kFrameBytes / 2);
        while (running_) {
            std::string input, output;
            ProcessFn process;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                input = input_;
                output = output_;
                process = process_;
            }
            restart_ = false;
            Streams streams;
            if (!Open(input, output, streams)) {
                std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the device may come back
                continue;
            }
            captured_.clear();
            bool withPlayback = false;  // nothing to play before the first process call
            auto next = std::chrono::steady_clock::now();
            while (running_ && !restart_) {
                if (!Exchange(streams, capture.data(), playback.data(), withPlayback)) break;
                std::fill(playback.begin(), playback.end(), 0);
                process(capture.data(), playback.data());
                withPlayback = true;
                next += std::chrono::milliseconds(kFrameMs);
                const auto now = std::chrono::steady_clock::now();
                if (next < now - std::chrono::milliseconds(200)) next = now;  // fell far behind: do not burst
                std::this_thread::sleep_until(next);
            }
            Close(streams);
        }
    }

    core::LogSink log_;
    pa_threaded_mainloop* loop_ = nullptr;
    pa_context* context_ = nullptr;
    int pending_ = 0;  // under the main loop's lock
    std::string serverDefaultSource_, serverDefaultSink_;

    mutable std::mutex mutex_;
    std::vector<AudioDeviceInfo> inputs_, outputs_;
    std::string input_ = kDefaultDeviceId, output_ = kDefaultDeviceId;
    DeviceChangeFn onChange_;
    ProcessFn process_;
    bool everListed_ = false;

    std::mutex refreshMutex_;
    std::condition_variable refreshWake_;
    bool refreshQueued_ = false, stopping_ = false;
    std::thread watcher_;

    std::atomic<bool> running_{false}, restart_{false};
    std::thread thread_;
    // Audio thread only.
    std::vector<std::int16_t> captured_;  // recorded, not yet processed
    std::uint64_t captureShort_ = 0, playbackDropped_ = 0;
};

}  // namespace

std::string PulseLibraryName() {
    const char* chosen = std::getenv("PLATFORMPP_LIBPULSE");
    return chosen && *chosen ? chosen : "libpulse.so.0";
}

std::unique_ptr<AudioBackend> MakePulseAudioBackend(core::LogSink log, const std::string& library) {
    const PulseLibrary& pulse = LoadPulse(library);
    if (!pulse.error.empty()) {
        if (log)
            log(LoggingSeverity::Info, "voice: libpulse not loaded (" + pulse.error +
                                           "); using the null audio backend (silence)");
        return nullptr;
    }
    gPulse.store(&pulse.api, std::memory_order_release);
    auto backend = std::make_unique<PulseBackend>(log);
    if (!backend->Connect()) {
        if (log) log(LoggingSeverity::Info, "voice: no PulseAudio server; using the null audio backend (silence)");
        return nullptr;
    }
    return backend;
}

}  // namespace platformpp::voice
