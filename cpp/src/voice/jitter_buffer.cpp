#include "voice/jitter_buffer.hpp"

#include <algorithm>
#include <cmath>

namespace platformpp::voice {

bool SequenceBefore(std::uint16_t a, std::uint16_t b) { return static_cast<std::int16_t>(a - b) < 0; }

JitterBuffer::JitterBuffer(Options options) : options_(options), packets_(&SequenceBefore) {
    stats_.targetDelayFrames = options_.minDelayFrames;
    spare_.reserve(kSpareNodes);
}

void JitterBuffer::RecycleLocked(Packets::iterator it) {
    auto node = packets_.extract(it);
    if (spare_.size() < kSpareNodes) spare_.push_back(std::move(node));
}

bool JitterBuffer::IsSilenceFrame(const std::vector<std::uint8_t>& packet) {
    return packet.size() == 3 && packet[0] == 0xF8 && packet[1] == 0xFF && packet[2] == 0xFE;
}

int JitterBuffer::TargetLocked() const {
    const int target = 1 + static_cast<int>(std::ceil(3.0 * stats_.jitterMs / 20.0));
    return std::clamp(target, options_.minDelayFrames, options_.maxDelayFrames);
}

void JitterBuffer::Push(std::uint16_t sequence, std::uint32_t timestamp, const std::uint8_t* data, std::size_t size,
                        Clock::time_point arrival) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.received;
    // RFC 3550 A.8: J += (|D| - J) / 16, D the change in transit time between consecutive packets.
    const double arrivalMs = std::chrono::duration<double, std::milli>(arrival.time_since_epoch()).count();
    const double transit = arrivalMs - timestamp / 48.0;
    if (haveTransit_) {
        double d = std::fabs(transit - lastTransitMs_);
        if (d > 1000) d = 0;  // a timestamp jump (a new talk spurt after a long pause), not jitter
        stats_.jitterMs += (d - stats_.jitterMs) / 16.0;
    }
    lastTransitMs_ = transit;
    haveTransit_ = true;
    stats_.targetDelayFrames = TargetLocked();

    if (playing_ && SequenceBefore(sequence, next_)) {
        ++stats_.late;
        return;
    }
    if (packets_.count(sequence) != 0) {
        ++stats_.duplicate;
        return;
    }
    Packets::node_type node;
    if (!spare_.empty()) {
        node = std::move(spare_.back());
        spare_.pop_back();
        node.key() = sequence;
    } else {  // the first packets (and after a burst): a new node
        Packets fresh(&SequenceBefore);
        node = fresh.extract(fresh.try_emplace(sequence).first);
    }
    // Buffers travel between the nodes and the audio thread's Output (swapped in Pop): each is given its
    // full size once, here on the network thread, and never grows after.
    if (node.mapped().capacity() < kPacketCapacity) node.mapped().reserve(kPacketCapacity);
    node.mapped().assign(data, data + size);
    packets_.insert(std::move(node));
}

void JitterBuffer::Pop(Output& out) {
    std::lock_guard<std::mutex> lock(mutex_);
    out.kind = Kind::Idle;
    const int target = TargetLocked();
    if (!playing_) {
        if (static_cast<int>(packets_.size()) < target) return;
        playing_ = true;
        next_ = packets_.begin()->first;
        concealedInARow_ = 0;
    }
    // Too much buffered: drop the oldest frames to come back to the target delay.
    while (static_cast<int>(packets_.size()) > target + 2) {
        RecycleLocked(packets_.begin());
        ++stats_.dropped;
        next_ = packets_.begin()->first;
    }
    auto it = packets_.find(next_);
    const std::uint16_t current = next_;
    ++next_;
    if (it != packets_.end()) {
        const bool silence = IsSilenceFrame(it->second);
        out.kind = Kind::Frame;
        out.packet.swap(it->second);
        RecycleLocked(it);
        ++stats_.played;
        concealedInARow_ = 0;
        if (silence && packets_.empty()) playing_ = false;  // the end of a talk spurt
        return;
    }
    // Missing. Anything older than it is gone for good.
    while (!packets_.empty() && SequenceBefore(packets_.begin()->first, current)) RecycleLocked(packets_.begin());
    auto following = packets_.find(next_);
    if (following != packets_.end()) {
        out.kind = Kind::Fec;
        out.packet.assign(following->second.begin(), following->second.end());
        ++stats_.fecRecovered;
        concealedInARow_ = 0;
        return;
    }
    if (++concealedInARow_ > options_.maxConcealedFrames) {
        playing_ = false;  // the sender stopped (or the stream is gone): stop inventing audio
        while (!packets_.empty()) RecycleLocked(packets_.begin());
        return;
    }
    out.kind = Kind::Conceal;
    ++stats_.concealed;
}

JitterBuffer::Stats JitterBuffer::GetStats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
}

bool JitterBuffer::Playing() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return playing_;
}

}  // namespace platformpp::voice
