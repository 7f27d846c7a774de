#include "core/callback_queue.hpp"

#include "platformpp/callbacks.hpp"

namespace platformpp {
namespace core {

CallbackQueue& CallbackQueue::Global() {
    static CallbackQueue queue;
    return queue;
}

void CallbackQueue::Post(std::function<void()> callback) {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(callback));
    size_.store(queue_.size(), std::memory_order_release);
}

void CallbackQueue::RunPending() {
    if (size_.load(std::memory_order_acquire) == 0) return;
    std::deque<std::function<void()>> batch;
    {
        std::lock_guard lock(mutex_);
        batch.swap(queue_);
        size_.store(0, std::memory_order_release);
    }
    while (!batch.empty()) {
        auto callback = std::move(batch.front());
        batch.pop_front();
        try {
            callback();
        } catch (...) {
            std::lock_guard lock(mutex_);
            queue_.insert(queue_.begin(), std::make_move_iterator(batch.begin()), std::make_move_iterator(batch.end()));
            size_.store(queue_.size(), std::memory_order_release);
            throw;
        }
    }
}

}  // namespace core

void RunCallbacks() { core::CallbackQueue::Global().RunPending(); }

}  // namespace platformpp
