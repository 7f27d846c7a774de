#include "net/gateway_policy.hpp"

#include <algorithm>

namespace platformpp::net {

CloseAction ClassifyClose(int closeCode) {
    switch (closeCode) {
        case 4004:  // authentication failed
        case 4010:  // invalid shard
        case 4011:  // sharding required
        case 4012:  // invalid API version
        case 4013:  // invalid intents
        case 4014:  // disallowed intents
            return CloseAction::Fatal;
        case 4007:  // invalid seq
        case 4009:  // session timed out
            return CloseAction::Reidentify;
        default:
            return CloseAction::Resume;
    }
}

std::chrono::milliseconds BackoffCeiling(std::chrono::milliseconds initial, std::chrono::milliseconds maxDelay,
                                         unsigned attempt) {
    if (initial.count() <= 0) return std::chrono::milliseconds(0);
    auto ceiling = initial;
    for (unsigned i = 0; i < attempt && ceiling < maxDelay; ++i) ceiling *= 2;  // no overflow: stops at max
    return std::min(ceiling, maxDelay);
}

std::chrono::milliseconds BackoffDelay(std::chrono::milliseconds initial, std::chrono::milliseconds maxDelay,
                                       unsigned attempt, std::mt19937_64& random) {
    const auto ceiling = BackoffCeiling(initial, maxDelay, attempt);
    if (ceiling.count() <= 0) return ceiling;
    std::uniform_int_distribution<int64_t> pick(0, ceiling.count());
    return std::chrono::milliseconds(pick(random));
}

void SendWindow::Expire(Clock::time_point now) {
    while (!sent_.empty() && now - sent_.front() >= kWindow) sent_.pop_front();
}

void SendWindow::Record(Clock::time_point now) {
    Expire(now);
    sent_.push_back(now);
}

SendWindow::Clock::duration SendWindow::WaitForCommand(Clock::time_point now, std::size_t reserve) {
    Expire(now);
    const std::size_t allowed = reserve < kLimit ? kLimit - reserve : 1;
    if (sent_.size() < allowed) return Clock::duration::zero();
    // The command may go once enough of the oldest payloads have left the window.
    const std::size_t mustExpire = sent_.size() - allowed + 1;
    return sent_[mustExpire - 1] + kWindow - now;
}

std::size_t SendWindow::HeartbeatReserve(std::chrono::milliseconds heartbeatInterval) {
    const auto interval = std::max<int64_t>(heartbeatInterval.count(), 1);
    const auto window = std::chrono::duration_cast<std::chrono::milliseconds>(kWindow).count();
    const auto perWindow = static_cast<std::size_t>((window + interval - 1) / interval) + 1;
    return std::min(perWindow, kLimit / 2);
}

}  // namespace platformpp::net
