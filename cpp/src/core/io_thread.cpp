#include "core/io_thread.hpp"

namespace platformpp::core {

IoThread::IoThread() : work_(boost::asio::make_work_guard(io_)), thread_([this] { io_.run(); }) {}

IoThread::~IoThread() { Stop(); }

void IoThread::Stop() {
    work_.reset();
    io_.stop();
    if (thread_.joinable() && !OnThread()) thread_.join();
}

}  // namespace platformpp::core
