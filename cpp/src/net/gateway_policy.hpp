#pragma once
// The Gateway client's decisions that need no socket (docs/wire.md: Gateway), kept apart so that unit
// tests can pin them down: what a server close code means, how long to back off, and the outgoing
// payload budget (at most 120 payloads per 60 s per connection).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <random>

namespace platformpp::net {

enum class CloseAction {
    Resume,      // reconnect and resume the session if there is one (network errors, 4000, 4008, ...)
    Reidentify,  // reconnect with a new session: 4007 invalid seq, 4009 session timed out
    Fatal,       // stop for good: 4004, 4010–4014
};

CloseAction ClassifyClose(int closeCode);

// Exponential backoff with full jitter: uniform in [0, min(maxDelay, initial × 2^attempt)].
std::chrono::milliseconds BackoffCeiling(std::chrono::milliseconds initial, std::chrono::milliseconds maxDelay,
                                         unsigned attempt);
std::chrono::milliseconds BackoffDelay(std::chrono::milliseconds initial, std::chrono::milliseconds maxDelay,
                                       unsigned attempt, std::mt19937_64& random);

// A sliding window of the payloads sent on one connection. Heartbeats, Identify and Resume are always
// sent (and recorded); commands wait while sending one would leave fewer than `reserve` slots free.
class SendWindow {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::size_t kLimit = 120;
    static constexpr Clock::duration kWindow = std::chrono::seconds(60);

    void Record(Clock::time_point now);
    // Zero when a command may be sent now, else how long until it may.
    Clock::duration WaitForCommand(Clock::time_point now, std::size_t reserve);
    // Slots to keep for heartbeats: one window's worth plus one, at most half the budget.
    static std::size_t HeartbeatReserve(std::chrono::milliseconds heartbeatInterval);

private:
    void Expire(Clock::time_point now);
    std::deque<Clock::time_point> sent_;
};

}  // namespace platformpp::net
