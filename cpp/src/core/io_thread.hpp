#pragma once
// A Client's network thread: one io_context run by one std::thread. Everything that touches sockets
// runs on it, so the network state needs no locks.

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace platformpp::core {

class IoThread {
public:
    IoThread();
    ~IoThread();  // Stop() with no grace
    IoThread(const IoThread&) = delete;
    IoThread& operator=(const IoThread&) = delete;

    boost::asio::io_context& Context() noexcept { return io_; }
    // Lets the work already queued run for up to `grace` (so cancelled operations complete), then stops
    // the io_context and joins. Idempotent; must not be called from the io thread.
    void Stop(std::chrono::milliseconds grace = std::chrono::milliseconds(0));

private:
    boost::asio::io_context io_{1};
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
    std::mutex mutex_;
    std::condition_variable finished_;
    bool running_ = true;
    std::thread thread_;
};

}  // namespace platformpp::core
