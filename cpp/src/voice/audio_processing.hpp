// Capture processing of the media engine: acoustic echo cancellation, noise suppression (and a
// stronger "noise cancellation" level) and automatic gain control, through libspeexdsp (Debian
// libspeexdsp-dev; docs/voice-engine.md says why this library). One processor per engine; Process runs on
// the audio thread on each captured frame, with the frame that was played during the same tick as the
// echo reference. The setters may be called from any thread: they take effect on the next frame.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

struct SpeexEchoState_;
struct SpeexPreprocessState_;

namespace platformpp::voice {

class AudioProcessor {
public:
    // Defaults as in the platform's SDK: echo cancellation, noise suppression and gain control on;
    // noise cancellation (the stronger suppression) off.
    AudioProcessor();
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
    // every feature off the capture is left untouched; otherwise it is processed as mono (the channels
    // averaged) and written back to every channel.
    void Process(std::int16_t* capture, const std::int16_t* farEnd);

private:
    void Configure(bool aec, bool ns, bool nc, bool agc);

    std::atomic<bool> aec_{true}, ns_{true}, nc_{false}, agc_{true};
    // Audio thread only.
    SpeexEchoState_* echo_ = nullptr;
    SpeexPreprocessState_* pre_ = nullptr;
    bool configured_ = false, aecOn_ = false, nsOn_ = false, ncOn_ = false, agcOn_ = false;
    std::vector<std::int16_t> near_, far_, out_;
};

}  // namespace platformpp::voice
