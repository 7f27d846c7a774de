#include "ipc/desktop_client.hpp"

#include <boost/json.hpp>

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

#include "core/json_fields.hpp"
#include "ipc/frame.hpp"

namespace platformpp::ipc {

namespace {

constexpr const char* kDefaultPrefix = "platformpp-ipc";
constexpr int kSlots = 10;

int ConnectUnix(const std::string& path) {
    sockaddr_un address{};
    if (path.size() >= sizeof(address.sun_path)) return -1;
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool WriteAll(int fd, const std::string& data) {
    std::size_t sent = 0;
    while (sent < data.size()) {
        const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) return false;
        sent += static_cast<std::size_t>(n);
    }
    return true;
}

// Reads until one frame is complete or `deadline` passes (the handshake, before the reader thread).
std::optional<Frame> ReadFrame(int fd, FrameDecoder& decoder, std::vector<Frame>& extra,
                               std::chrono::steady_clock::time_point deadline, std::string& why) {
    uint8_t buffer[4096];
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            why = "the desktop client did not answer the handshake in time";
            return std::nullopt;
        }
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
        const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
        if (n <= 0) {
            why = "the desktop client closed the connection during the handshake";
            return std::nullopt;
        }
        try {
            auto frames = decoder.Feed(buffer, static_cast<std::size_t>(n));
            if (!frames.empty()) {
                Frame first = std::move(frames.front());
                extra.assign(std::make_move_iterator(frames.begin() + 1), std::make_move_iterator(frames.end()));
                return first;
            }
        } catch (const FrameError& error) {
            why = std::string("unreadable frames from the desktop client: ") + error.what();
            return std::nullopt;
        }
    }
}

std::string CloseReason(const std::string& payload) {
    boost::system::error_code ec;
    const auto value = boost::json::parse(payload, ec);
    if (ec) return "closed by the desktop client";
    return "closed by the desktop client (" + std::to_string(json_fields::Integer(value, "code")) + " " +
           json_fields::String(value, "message") + ")";
}

}  // namespace

std::vector<std::string> SocketCandidates() {
    std::string prefix;
    if (const char* override = std::getenv("PLATFORMPP_IPC_PATH"); override != nullptr && *override != '\0') {
        prefix = override;
    } else {
        std::string folder = "/tmp";
        for (const char* name : {"XDG_RUNTIME_DIR", "TMPDIR", "TMP", "TEMP"}) {
            const char* value = std::getenv(name);
            if (value != nullptr && *value != '\0') {
                folder = value;
                break;
            }
        }
        while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
        prefix = folder + "/" + kDefaultPrefix;
    }
    std::vector<std::string> paths;
    for (int i = 0; i < kSlots; ++i) paths.push_back(prefix + "-" + std::to_string(i));
    return paths;
}

std::optional<std::string> FindDesktopClientSocket() {
    for (const std::string& path : SocketCandidates()) {
        const int fd = ConnectUnix(path);
        if (fd >= 0) {
            ::close(fd);
            return path;
        }
    }
    return std::nullopt;
}

std::shared_ptr<DesktopClient> DesktopClient::Connect(uint64_t clientId, EventHandler onEvent, ClosedHandler onClosed,
                                                      std::string& why, int timeoutMs) {
    int fd = -1;
    for (const std::string& path : SocketCandidates()) {
        fd = ConnectUnix(path);
        if (fd >= 0) break;
    }
    if (fd < 0) {
        why = "no desktop client is running (no IPC socket answers)";
        return nullptr;
    }
    boost::json::object handshake{{"v", 1}, {"client_id", std::to_string(clientId)}};
    if (!WriteAll(fd, EncodeFrame(Opcode::Handshake, boost::json::serialize(handshake)))) {
        ::close(fd);
        why = "could not write the handshake to the desktop client";
        return nullptr;
    }
    FrameDecoder decoder;
    std::vector<Frame> extra;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    auto first = ReadFrame(fd, decoder, extra, deadline, why);
    if (!first) {
        ::close(fd);
        return nullptr;
    }
    if (first->opcode == Opcode::Close) {
        why = "the desktop client refused the handshake: " + CloseReason(first->payload);
        ::close(fd);
        return nullptr;
    }
    boost::system::error_code ec;
    const auto ready = boost::json::parse(first->payload, ec);
    if (ec || json_fields::String(ready, "evt") != "READY") {
        why = "the desktop client answered the handshake without READY";
        ::close(fd);
        return nullptr;
    }
    std::shared_ptr<DesktopClient> client(new DesktopClient(fd, clientId, std::move(onEvent), std::move(onClosed)));
    if (const auto* data = json_fields::Object(ready.as_object(), "data")) {
        if (const auto* user = json_fields::Object(*data, "user")) client->user_ = *user;
    }
    for (const Frame& frame : extra) {
        if (frame.opcode == Opcode::Frame) client->Handle(frame.payload);
    }
    // The reader goes on with the handshake's decoder: it may hold the start of the next frame.
    client->reader_ = std::thread([raw = client.get(), decoder = std::move(decoder)]() mutable {
        raw->ReadLoop(std::move(decoder));
    });
    return client;
}

DesktopClient::DesktopClient(int fd, uint64_t clientId, EventHandler onEvent, ClosedHandler onClosed)
  : fd_(fd), clientId_(clientId), onEvent_(std::move(onEvent)), onClosed_(std::move(onClosed)) {}

DesktopClient::~DesktopClient() {
    Close();
    if (reader_.joinable()) reader_.join();
    ::close(fd_);
}

std::string DesktopClient::AuthenticatedToken() const {
    std::lock_guard lock(mutex_);
    return authenticatedToken_;
}

void DesktopClient::SetAuthenticatedToken(std::string token) {
    std::lock_guard lock(mutex_);
    authenticatedToken_ = std::move(token);
}

bool DesktopClient::Send(uint32_t opcode, const std::string& payload) {
    std::string frame;
    try {
        frame = EncodeFrame(static_cast<Opcode>(opcode), payload);
    } catch (const FrameError&) {
        return false;
    }
    std::lock_guard lock(writeMutex_);
    return WriteAll(fd_, frame);
}

void DesktopClient::Command(const std::string& cmd, boost::json::object args, Reply reply, const std::string& evt) {
    std::string nonce;
    {
        std::lock_guard lock(mutex_);
        if (!open_) {
            reply(ClientResult::Failure(ErrorType::RPCError, "the desktop client connection is closed"), nullptr);
            return;
        }
        nonce = std::to_string(nextNonce_++);
        pending_.emplace(nonce, reply);
    }
    boost::json::object body{{"cmd", cmd}, {"nonce", nonce}, {"args", std::move(args)}};
    if (!evt.empty()) body["evt"] = evt;
    if (!Send(static_cast<uint32_t>(Opcode::Frame), boost::json::serialize(body))) {
        Reply failed;
        {
            std::lock_guard lock(mutex_);
            auto found = pending_.find(nonce);
            if (found == pending_.end()) return;  // the reader already failed it
            failed = std::move(found->second);
            pending_.erase(found);
        }
        failed(ClientResult::Failure(ErrorType::RPCError, "could not send " + cmd + " to the desktop client"), nullptr);
    }
}

void DesktopClient::ReadLoop(FrameDecoder decoder) {
    uint8_t buffer[16 * 1024];
    while (open_) {
        const ssize_t n = ::recv(fd_, buffer, sizeof(buffer), 0);
        if (n <= 0) {
            Finish("the desktop client connection ended");
            return;
        }
        try {
            for (const Frame& frame : decoder.Feed(buffer, static_cast<std::size_t>(n))) {
                switch (frame.opcode) {
                    case Opcode::Frame: Handle(frame.payload); break;
                    case Opcode::Ping: Send(static_cast<uint32_t>(Opcode::Pong), frame.payload); break;
                    case Opcode::Close: Finish(CloseReason(frame.payload)); return;
                    default: break;
                }
            }
        } catch (const FrameError& error) {
            Finish(std::string("unreadable frames from the desktop client: ") + error.what());
            return;
        }
    }
}

void DesktopClient::Handle(const std::string& payload) {
    boost::system::error_code ec;
    const auto message = boost::json::parse(payload, ec);
    if (ec || !message.is_object()) return;
    const auto& object = message.as_object();
    const std::string evt = json_fields::String(object, "evt");
    const boost::json::value* data = object.if_contains("data");
    const boost::json::value empty;
    const std::string nonce = json_fields::String(object, "nonce");
    if (json_fields::String(object, "cmd") == "DISPATCH" && nonce.empty()) {
        if (onEvent_) onEvent_(evt, data ? *data : empty);
        return;
    }
    Reply reply;
    {
        std::lock_guard lock(mutex_);
        auto found = pending_.find(nonce);
        if (found == pending_.end()) return;
        reply = std::move(found->second);
        pending_.erase(found);
    }
    if (evt == "ERROR") {
        const auto code = data ? json_fields::Integer(*data, "code") : 0;
        const auto text = data ? json_fields::String(*data, "message") : std::string();
        reply(ClientResult::Failure(ErrorType::RPCError,
                                    json_fields::String(object, "cmd") + " failed: " + std::to_string(code) + " " + text),
              data ? *data : empty);
        return;
    }
    reply(ClientResult::Success(), data ? *data : empty);
}

void DesktopClient::Finish(const std::string& why) {
    std::map<std::string, Reply> pending;
    {
        std::lock_guard lock(mutex_);
        if (!open_.exchange(false)) return;
        pending.swap(pending_);
    }
    ::shutdown(fd_, SHUT_RDWR);
    for (auto& [nonce, reply] : pending) reply(ClientResult::Failure(ErrorType::RPCError, why), nullptr);
    if (onClosed_) onClosed_(why);
}

void DesktopClient::Close() {
    if (!open_) return;
    Send(static_cast<uint32_t>(Opcode::Close), "{}");
    Finish("the desktop client connection was closed by the SDK");
}

}  // namespace platformpp::ipc
