#pragma once
// The SDK's side of the platform's desktop client: finding its IPC socket as the platform's SDK does,
// and one connection to it (handshake, commands matched to their answers by nonce, events). Private to
// the core.
//
// Threads: Connect() blocks (it runs on the Client's io thread); a reader thread per connection then
// receives frames and calls the reply and event functions on that thread. The Client's wiring
// (src/client/desktop.cpp) only queues user callbacks from there.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ipc/frame.hpp"
#include "platformpp/client_result.hpp"

namespace platformpp::ipc {

// Where the desktop client's socket may be, in the order the platform's SDK tries them:
// `<folder>/platformpp-ipc-<0..9>` for the first of $XDG_RUNTIME_DIR, $TMPDIR, $TMP, $TEMP that is set
// (else /tmp). $PLATFORMPP_IPC_PATH, when set, replaces `<folder>/platformpp-ipc` (as the emulator's
// --ipc-path does).
std::vector<std::string> SocketCandidates();

// The first candidate a desktop client answers on, if any.
std::optional<std::string> FindDesktopClientSocket();

class DesktopClient {
public:
    // The answer to a command: Success with its `data`, or RPCError naming the code and message.
    using Reply = std::function<void(ClientResult result, boost::json::value data)>;
    using EventHandler = std::function<void(const std::string& evt, const boost::json::value& data)>;
    // The connection ended (the desktop client quit, or closed it with a code); `why` says how.
    using ClosedHandler = std::function<void(const std::string& why)>;

    // Connects to the first socket found and handshakes as `clientId`, waiting up to `timeoutMs` for
    // READY. nullptr (and `why`) when no desktop client runs or it refused the handshake.
    static std::shared_ptr<DesktopClient> Connect(uint64_t clientId, EventHandler onEvent, ClosedHandler onClosed,
                                                  std::string& why, int timeoutMs = 5000);
    ~DesktopClient();  // Close()
    DesktopClient(const DesktopClient&) = delete;
    DesktopClient& operator=(const DesktopClient&) = delete;

    // Sends a command; `reply` runs exactly once (with a failure if the connection ends first).
    void Command(const std::string& cmd, boost::json::object args, Reply reply, const std::string& evt = "");
    bool Open() const noexcept { return open_; }
    uint64_t ClientId() const noexcept { return clientId_; }
    // READY's user object.
    const boost::json::object& User() const noexcept { return user_; }
    // The access token this connection authenticated with (AUTHENTICATE), if any.
    std::string AuthenticatedToken() const;
    void SetAuthenticatedToken(std::string token);
    // Ends the connection (a CLOSE frame, then the socket); fails pending commands. Idempotent.
    void Close();

private:
    DesktopClient(int fd, uint64_t clientId, EventHandler onEvent, ClosedHandler onClosed);
    void ReadLoop(FrameDecoder decoder);
    void Handle(const std::string& payload);
    void Finish(const std::string& why);
    bool Send(uint32_t opcode, const std::string& payload);

    int fd_;
    const uint64_t clientId_;
    EventHandler onEvent_;
    ClosedHandler onClosed_;
    boost::json::object user_;
    std::atomic<bool> open_{true};
    mutable std::mutex mutex_;
    std::mutex writeMutex_;
    std::map<std::string, Reply> pending_;
    uint64_t nextNonce_ = 1;
    std::string authenticatedToken_;
    std::thread reader_;
};

}  // namespace platformpp::ipc
