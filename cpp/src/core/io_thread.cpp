#include "core/io_thread.hpp"

namespace platformpp::core {

IoThread::IoThread()
  : work_(boost::asio::make_work_guard(io_)),
    thread_([this] {
        io_.run();
        std::lock_guard lock(mutex_);
        running_ = false;
        finished_.notify_all();
    }) {}

IoThread::~IoThread() { Stop(); }

void IoThread::Stop(std::chrono::milliseconds grace) {
    work_.reset();
    {
        std::unique_lock lock(mutex_);
        finished_.wait_for(lock, grace, [this] { return !running_; });
    }
    io_.stop();
    if (thread_.joinable()) thread_.join();
}

}  // namespace platformpp::core
