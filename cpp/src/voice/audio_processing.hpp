// Capture processing of the media engine: acoustic echo cancellation, noise suppression (and a
// stronger "noise cancellation" level) and automatic gain control, through libspeexdsp (Debian
// libspeexdsp-dev; docs/voice-engine.md says why this library). One processor per engine; Process runs on
// the audio thread on each captured frame, with the frame that was played during the same tick as the
// echo reference. The setters may be called from any thread: they take effect on the next frame.
//
// CPU (docs/voice-engine.md, "CPU"): a captured frame of digital silence (every sample 0: a muted or
// absent microphone, the null backend) is left as it is, unprocessed: there is nothing in it to cancel,
// suppress or raise. Frames the engine sends nowhere (every call muted) go to Idle instead of Process.
// Either way the far end is remembered (one echo tail of it), and the echo canceller is given what it
// missed before the next processed frame, so its filter and history are current again when sound comes
// back.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

struct SpeexEchoState_;
struct SpeexPreprocessState_;

namespace platformpp::voice {

// One device frame (kFrameSamples per channel, kDeviceChannels interleaved) as one channel: the
// channels averaged.
void DownmixToMono(const std::int16_t* deviceFrame, std::int16_t* mono);

// The echo canceller's filter length: covers echo paths up to 200 ms (docs/voice-engine.md says why).
constexpr int kEchoTailFrames = 10;  // 20 ms frames

class AudioProcessor {
public:
    struct Options {
        // Leave digital silence unprocessed. Off only to compare against (tests, benchmarks).
        bool skipDigitalSilence = true;
    };
    struct Counters {
        std::uint64_t processed = 0;        // frames that went through the speexdsp chain
        std::uint64_t skippedSilent = 0;    // digital silence left as it was
        std::uint64_t idle = 0;             // frames given to Idle
        std::uint64_t farEndReplayed = 0;   // remembered far-end frames given to the echo canceller late
    };

    // Defaults as in the platform's SDK: echo cancellation, noise suppression and gain control on;
    // noise cancellation (the stronger suppression) off.
    AudioProcessor() : AudioProcessor(Options{}) {}
    explicit AudioProcessor(Options options);
    ~AudioProcessor();
    AudioProcessor(const AudioProcessor&) = delete;
    AudioProcessor& operator=(const AudioProcessor&) = delete;

    void SetEchoCancellation(bool on) { aec_ = on; }
    bool EchoCancellation() const { return aec_; }
    void SetNoiseSuppression(bool on) { ns_ = on; }
    bool NoiseSuppression() const { return ns_; }
    void SetNoiseCancellation(bool on) { nc_ = on; }
    bool NoiseCancellation() const { return nc_; }
    void SetAutomaticGainControl(bool on) { agc_ = on; }
    bool AutomaticGainControl() const { return agc_; }

    // Audio thread. capture: one frame (kFrameSamples per channel, kDeviceChannels interleaved),
    // processed in place; farEnd: the frame the output device got during this tick (same shape). With
    // every feature off, or when the capture is digital silence, the capture is left untouched;
    // otherwise it is processed as mono (the channels averaged) and written back to every channel.
    void Process(std::int16_t* capture, const std::int16_t* farEnd);
    // Audio thread. A tick whose capture nobody needs processed: only the far end is remembered.
    void Idle(const std::int16_t* farEnd);

    // Any thread.
    Counters GetCounters() const;

private:
    void Configure(bool aec, bool ns, bool nc, bool agc);
    void Remember(const std::int16_t* farEnd);
    void CatchUpEchoCanceller();

    const Options options_;
    std::atomic<bool> aec_{true}, ns_{true}, nc_{false}, agc_{true};
    std::atomic<std::uint64_t> processed_{0}, skippedSilent_{0}, idle_{0}, replayed_{0};
    // Audio thread only.
    SpeexEchoState_* echo_ = nullptr;
    SpeexPreprocessState_* pre_ = nullptr;
    bool configured_ = false, aecOn_ = false, nsOn_ = false, ncOn_ = false, agcOn_ = false;
    std::vector<std::int16_t> near_, far_, out_;
    // The far end (mono) of the last kEchoTailFrames unprocessed ticks, a ring; missed_ of them (the
    // newest) have not been given to the echo canceller yet.
    std::vector<std::int16_t> farRing_, zeros_;
    int ringNext_ = 0, missed_ = 0;
};

}  // namespace platformpp::voice
