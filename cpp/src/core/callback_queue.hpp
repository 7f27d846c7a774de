#pragma once
// The queue between the SDK's threads and the game's: producers post from any thread, the game
// drains it in RunCallbacks(). Private to the core.

#include <atomic>
#include <deque>
#include <functional>
#include <mutex>

namespace platformpp::core {

class CallbackQueue {
public:
    static CallbackQueue& Global();

    CallbackQueue();
    ~CallbackQueue();
    CallbackQueue(const CallbackQueue&) = delete;
    CallbackQueue& operator=(const CallbackQueue&) = delete;

    void Post(std::function<void()> callback);
    // Runs the callbacks queued before the call, in order. If one throws, the ones after it stay
    // queued (in order, ahead of newer ones) and the exception propagates.
    void RunPending();
    std::size_t Size() const noexcept { return size_.load(std::memory_order_acquire); }
    // Readable while the queue is not empty (an eventfd on Linux, a pipe elsewhere).
    int WakeupFd() const noexcept { return readFd_; }

private:
    mutable std::mutex mutex_;
    std::deque<std::function<void()>> queue_;
    // Mirrors queue_.size() so that an empty RunPending() takes no lock.
    std::atomic<std::size_t> size_{0};
    int readFd_ = -1;
    int writeFd_ = -1;  // the same as readFd_ for an eventfd

    void Signal();  // under mutex_, when the queue becomes non-empty
    void Drain();   // under mutex_, when it is emptied
};

}  // namespace platformpp::core
