#include "core/callback_queue.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <system_error>

#ifdef __linux__
#include <sys/eventfd.h>
#endif

#include "platformpp/callbacks.hpp"

namespace platformpp {
namespace core {

CallbackQueue& CallbackQueue::Global() {
    static CallbackQueue queue;
    return queue;
}

CallbackQueue::CallbackQueue() {
#ifdef __linux__
    readFd_ = writeFd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (readFd_ < 0) throw std::system_error(errno, std::generic_category(), "eventfd");
#else
    int fds[2];
    if (pipe(fds) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
    for (int fd : fds) {
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    readFd_ = fds[0];
    writeFd_ = fds[1];
#endif
}

CallbackQueue::~CallbackQueue() {
    close(readFd_);
    if (writeFd_ != readFd_) close(writeFd_);
}

void CallbackQueue::Signal() {
    const uint64_t one = 1;
    // A full pipe or a saturated eventfd is already readable: nothing is lost by ignoring EAGAIN.
    [[maybe_unused]] const auto written = write(writeFd_, &one, writeFd_ == readFd_ ? sizeof one : 1);
}

void CallbackQueue::Drain() {
    uint64_t buffer[16];
    while (read(readFd_, buffer, sizeof buffer) > 0) {
    }
}

void CallbackQueue::Post(std::function<void()> callback) {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(callback));
    size_.store(queue_.size(), std::memory_order_release);
    if (queue_.size() == 1) Signal();
}

void CallbackQueue::RunPending() {
    if (size_.load(std::memory_order_acquire) == 0) return;
    std::deque<std::function<void()>> batch;
    {
        std::lock_guard lock(mutex_);
        batch.swap(queue_);
        size_.store(0, std::memory_order_release);
        Drain();
    }
    while (!batch.empty()) {
        auto callback = std::move(batch.front());
        batch.pop_front();
        try {
            callback();
        } catch (...) {
            std::lock_guard lock(mutex_);
            const bool wasEmpty = queue_.empty();
            queue_.insert(queue_.begin(), std::make_move_iterator(batch.begin()), std::make_move_iterator(batch.end()));
            size_.store(queue_.size(), std::memory_order_release);
            if (wasEmpty && !queue_.empty()) Signal();
            throw;
        }
    }
}

}  // namespace core

void RunCallbacks() { core::CallbackQueue::Global().RunPending(); }

int CallbackWakeupFd() { return core::CallbackQueue::Global().WakeupFd(); }

}  // namespace platformpp
