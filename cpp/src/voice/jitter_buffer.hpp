// An adaptive jitter buffer for one remote sender's Opus packets (20 ms each).
//
// The network thread pushes packets as they arrive; the audio thread pops one frame every 20 ms and
// is told what to play: the packet itself, the next packet's in-band FEC (when this one is missing
// but the next has arrived), concealment (missing, nothing to recover from), or nothing (the sender is
// not talking: playout has not started, or it ended after a silence frame or a run of losses).
//
// Adaptation: an RFC 3550 interarrival jitter estimate sets the target delay,
// target = clamp(1 + ceil(3 * jitter / 20 ms), minDelay, maxDelay) frames; playout starts once the
// target is buffered, and when the buffer holds more than target + 2 frames the oldest are dropped to
// catch up. Thread-safe: one mutex, held for a few comparisons.
//
// Memory: a played or dropped packet's map node (and its byte buffer) is kept for the next Push, so in
// steady state neither thread allocates or frees per packet (the audio thread must not).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace platformpp::voice {

class JitterBuffer {
public:
    using Clock = std::chrono::steady_clock;
    struct Options {
        int minDelayFrames = 1;
        int maxDelayFrames = 10;         // 200 ms
        int maxConcealedFrames = 5;      // losses in a row before playout stops (100 ms)
    };
    struct Stats {
        std::uint64_t received = 0, played = 0, fecRecovered = 0, concealed = 0, late = 0, duplicate = 0,
                      dropped = 0;  // dropped to catch up
        double jitterMs = 0;
        int targetDelayFrames = 0;
    };
    enum class Kind { Frame, Fec, Conceal, Idle };
    struct Output {
        Kind kind = Kind::Idle;
        std::vector<std::uint8_t> packet;  // the packet (Frame) or the next one, carrying FEC (Fec)
    };

    JitterBuffer() : JitterBuffer(Options{}) {}
    explicit JitterBuffer(Options options);

    // Network thread. timestamp is the RTP timestamp (48 kHz units), arrival the local receive time.
    void Push(std::uint16_t sequence, std::uint32_t timestamp, const std::uint8_t* data, std::size_t size,
              Clock::time_point arrival);
    // Audio thread, every 20 ms. Reuses out.packet's storage.
    void Pop(Output& out);
    Stats GetStats() const;
    bool Playing() const;
    // The Opus silence frame F8 FF FE: the end of a talk spurt, never speech.
    static bool IsSilenceFrame(const std::vector<std::uint8_t>& packet);

private:
    using Packets = std::map<std::uint16_t, std::vector<std::uint8_t>, bool (*)(std::uint16_t, std::uint16_t)>;
    int TargetLocked() const;
    // Removes it from packets_, keeping its node for reuse (up to kSpareNodes).
    void RecycleLocked(Packets::iterator it);

    static constexpr std::size_t kSpareNodes = 24;    // more than the most ever buffered (maxDelay + 2)
    static constexpr std::size_t kPacketCapacity = 1275;  // RFC 6716's largest frame: buffers never grow

    Options options_;
    mutable std::mutex mutex_;
    Packets packets_;
    std::vector<Packets::node_type> spare_;
    bool playing_ = false;
    std::uint16_t next_ = 0;  // the sequence to play next (while playing_)
    int concealedInARow_ = 0;
    bool haveTransit_ = false;
    double lastTransitMs_ = 0;
    Stats stats_;
};

// Sequence order with 16-bit wrap-around (RFC 1982): a precedes b.
bool SequenceBefore(std::uint16_t a, std::uint16_t b);

}  // namespace platformpp::voice
