#pragma once
// The skeleton of a client session over one JSON WebSocket at a time, as the Gateway connection and
// each voice gateway connection keep one: connect (resolve, TCP, TLS for wss, the WebSocket
// handshake) within a deadline that Hello ends, the read loop, one write at a time with urgent frames
// first, heartbeats that notice a missing ACK, and closing. Private to the core.
//
// Derived (CRTP) supplies what differs, on the io_context's thread like everything here:
//   template <class Stream> void Configure(Stream& ws);  // stream options before the handshake
//   void Opened(const SocketPtr& sock);                   // the handshake completed
//   void OnMessage(const SocketPtr& sock, std::string message, bool binary);
//   void ReadFailed(const SocketPtr& sock, int closeCode, const std::string& detail);
//   void Lost(const SocketPtr& sock, int closeCode, const std::string& detail);  // connecting failed
//   void Beat(const SocketPtr& sock);                     // sends one heartbeat
//   void Zombie(const SocketPtr& sock);                   // a beat found the last one unacknowledged
// Handlers hold a socket by shared_ptr and act only while it is the current one (`socket_`), so a
// socket that was given up can finish its close while the next one connects.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>

#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <utility>

#include "net/client_websocket.hpp"

namespace platformpp::net {

// One WebSocket and what lives exactly as long as it; a session's own socket type derives from it.
struct SessionSocket {
    SessionSocket(boost::asio::io_context& io, boost::asio::ssl::context* tls, bool secure) : ws(io, tls, secure) {}

    struct Frame {
        bool binary = false;
        std::string payload;
    };

    ClientWebSocket ws;
    boost::beast::flat_buffer buffer;
    std::deque<Frame> urgent;  // written before `normal`
    std::deque<Frame> normal;
    bool open = false;  // the WebSocket handshake completed
    bool writing = false;
};

template <class Derived, class Socket = SessionSocket>
class JsonWebSocketSession : public std::enable_shared_from_this<Derived> {
protected:
    using SocketPtr = std::shared_ptr<Socket>;
    using error_code = boost::system::error_code;
    using tcp = boost::asio::ip::tcp;

    JsonWebSocketSession(boost::asio::io_context& io, boost::asio::ssl::context* tls,
                         std::chrono::milliseconds heartbeatInterval)
        : io_(io), tls_(tls), resolver_(io), connectTimer_(io), heartbeatTimer_(io), heartbeatInterval_(heartbeatInterval) {}

    // A new socket, made the current one; Hello has not been seen on it yet.
    SocketPtr NewSocket(bool secure) {
        socket_ = std::make_shared<Socket>(io_, tls_, secure);
        helloSeen_ = false;
        return socket_;
    }

    // Connects `sock` to host:port and opens the WebSocket at `target` (Host: hostHeader), then reads
    // until the socket is given up. One deadline, `timeout`, covers all of it up to Hello (HelloArrived).
    void Open(const SocketPtr& sock, const std::string& host, const std::string& port, std::string hostHeader,
              std::string target, std::chrono::milliseconds timeout) {
        connectTimer_.expires_after(timeout);
        connectTimer_.async_wait([self = Self(), sock](error_code ec) {
            if (ec || sock != self->socket_ || self->helloSeen_) return;
            self->Lost(sock, 0, "no Hello within the connect timeout");
        });
        resolver_.async_resolve(
            host, port,
            [self = Self(), sock, host, hostHeader = std::move(hostHeader), target = std::move(target),
             timeout](error_code ec, tcp::resolver::results_type results) {
                if (sock != self->socket_) return;
                if (ec) return self->Lost(sock, 0, "resolve failed: " + ec.message());
                sock->ws.With([&](auto& ws) {
                    boost::beast::get_lowest_layer(ws).async_connect(
                        results, [self, sock, host, hostHeader, target, timeout](error_code ec2, const tcp::endpoint&) {
                            if (sock != self->socket_) return;
                            if (ec2) return self->Lost(sock, 0, "connect failed: " + ec2.message());
                            self->Secure(sock, host, hostHeader, target, timeout);
                        });
                });
            });
    }

    // Hello arrived on the current socket: the connect deadline is met.
    void HelloArrived() {
        helloSeen_ = true;
        connectTimer_.cancel();
    }

    // Queues a frame on `sock` and writes what is queued, one write at a time, urgent frames first.
    void Send(const SocketPtr& sock, std::string payload, bool binary, bool urgent) {
        (urgent ? sock->urgent : sock->normal).push_back({binary, std::move(payload)});
        Flush(sock);
    }

    void Flush(const SocketPtr& sock) {
        if (sock->writing || !sock->open) return;
        auto& queue = !sock->urgent.empty() ? sock->urgent : sock->normal;
        if (queue.empty()) return;
        auto frame = std::make_shared<SessionSocket::Frame>(std::move(queue.front()));
        queue.pop_front();
        sock->writing = true;
        sock->ws.With([&](auto& ws) {
            ws.binary(frame->binary);
            ws.async_write(boost::asio::buffer(frame->payload), [self = Self(), sock, frame](error_code ec, std::size_t) {
                sock->writing = false;
                // A failed write also fails the pending read, which reports the loss.
                if (!ec && sock == self->socket_) self->Flush(sock);
            });
        });
    }

    // Heartbeats on `sock`: the first after `first`, then every heartbeatInterval_. A beat due while
    // the previous one is unacknowledged (Acknowledged) calls Zombie instead.
    void StartHeartbeats(const SocketPtr& sock, std::chrono::milliseconds first) {
        awaitingAck_ = false;
        ScheduleHeartbeat(sock, first);
    }
    void Acknowledged() { awaitingAck_ = false; }

    // Closes `sock` with a close frame; `done` runs once the closing handshake ends.
    template <class Done>
    static void CloseWith(const SocketPtr& sock, boost::beast::websocket::close_reason reason, Done done) {
        sock->ws.With([&](auto& ws) { ws.async_close(reason, std::move(done)); });
    }
    // Whether `sock` can still send a close frame.
    static bool CanClose(const SocketPtr& sock) {
        return sock->open && sock->ws.With([](auto& ws) { return ws.is_open(); });
    }
    // Closes `sock`'s TCP connection at once, without a close frame.
    static void CloseTransport(Socket& sock) {
        sock.ws.With([](auto& ws) { boost::beast::get_lowest_layer(ws).close(); });
    }

    void CancelConnecting() {
        resolver_.cancel();
        connectTimer_.cancel();
    }

    boost::asio::io_context& io_;
    boost::asio::ssl::context* tls_;
    tcp::resolver resolver_;
    boost::asio::steady_timer connectTimer_, heartbeatTimer_;
    SocketPtr socket_;  // the current socket, if any
    bool helloSeen_ = false;
    bool awaitingAck_ = false;
    std::chrono::milliseconds heartbeatInterval_;

private:
    std::shared_ptr<Derived> Self() { return this->shared_from_this(); }
    Derived& AsDerived() { return static_cast<Derived&>(*this); }

    void Secure(const SocketPtr& sock, const std::string& host, std::string hostHeader, std::string target,
                std::chrono::milliseconds timeout) {
        sock->ws.Secure(host, [self = Self(), sock, hostHeader = std::move(hostHeader), target = std::move(target),
                               timeout](const std::string& error) {
            if (sock != self->socket_) return;
            if (!error.empty()) return self->Lost(sock, 0, error);
            self->Handshake(sock, hostHeader, target, timeout);
        });
    }

    void Handshake(const SocketPtr& sock, const std::string& hostHeader, const std::string& target,
                   std::chrono::milliseconds timeout) {
        sock->ws.With([&](auto& ws) {
            // Heartbeats watch the connection; Beast only bounds the opening and closing handshakes.
            ws.set_option(boost::beast::websocket::stream_base::timeout{
                timeout, boost::beast::websocket::stream_base::none(), false});
            AsDerived().Configure(ws);
            ws.async_handshake(hostHeader, target, [self = Self(), sock](error_code ec) {
                if (sock != self->socket_) return;
                if (ec) return self->Lost(sock, 0, "WebSocket handshake failed: " + ec.message());
                sock->open = true;
                self->Opened(sock);
                self->Read(sock);
            });
        });
    }

    void Read(const SocketPtr& sock) {
        sock->ws.With([&](auto& ws) {
            ws.async_read(sock->buffer, [self = Self(), sock](error_code ec, std::size_t) {
                self->JsonWebSocketSession::OnRead(sock, ec);
            });
        });
    }

    void OnRead(const SocketPtr& sock, error_code ec) {
        if (sock != socket_) return;
        if (ec) {
            const auto [code, detail] = sock->ws.ReadFailure(ec);
            return AsDerived().ReadFailed(sock, code, detail);
        }
        const bool binary = sock->ws.With([](auto& ws) { return ws.got_binary(); });
        std::string message = boost::beast::buffers_to_string(sock->buffer.data());
        sock->buffer.consume(sock->buffer.size());
        AsDerived().OnMessage(sock, std::move(message), binary);
        if (sock == socket_) Read(sock);
    }

    void ScheduleHeartbeat(const SocketPtr& sock, std::chrono::milliseconds after) {
        heartbeatTimer_.expires_after(after);
        heartbeatTimer_.async_wait([self = Self(), sock](error_code ec) {
            if (ec || sock != self->socket_) return;
            if (self->awaitingAck_) return self->Zombie(sock);
            self->awaitingAck_ = true;
            self->Beat(sock);
            self->JsonWebSocketSession::ScheduleHeartbeat(sock, self->heartbeatInterval_);
        });
    }
};

}  // namespace platformpp::net
