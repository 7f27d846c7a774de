#pragma once
// A Client's network thread: one io_context run by one std::thread until Stop(). Everything that
// touches sockets runs on it, so the network state needs no locks.

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <thread>

namespace platformpp::core {

class IoThread {
public:
    IoThread();
    ~IoThread();  // Stop()s
    IoThread(const IoThread&) = delete;
    IoThread& operator=(const IoThread&) = delete;

    boost::asio::io_context& Context() noexcept { return io_; }
    bool OnThread() const noexcept { return std::this_thread::get_id() == thread_.get_id(); }
    // Lets queued handlers finish their current step, then joins. Idempotent.
    void Stop();

private:
    boost::asio::io_context io_{1};
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
    std::thread thread_;
};

}  // namespace platformpp::core
