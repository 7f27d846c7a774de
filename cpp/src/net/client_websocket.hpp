// A client WebSocket over TCP or over TLS, chosen when it is made (ws:// or wss://): the one under the
// Gateway connection and under each voice gateway connection. With(f) calls f with the concrete Beast
// stream; the steps both connections take the same way live here.
#pragma once

#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "net/no_delay.hpp"

#include <string>
#include <utility>
#include <variant>

namespace platformpp::net {

class ClientWebSocket {
public:
    using Plain = boost::beast::websocket::stream<boost::beast::tcp_stream>;
    using Tls = boost::beast::websocket::stream<boost::asio::ssl::stream<boost::beast::tcp_stream>>;

    // `tls` is used (and must be set) only when `secure`.
    ClientWebSocket(boost::asio::io_context& io, boost::asio::ssl::context* tls, bool secure)
        : stream_(Make(io, tls, secure)) {}

    template <class F>
    decltype(auto) With(F&& f) {
        return std::visit([&](auto& stream) -> decltype(auto) { return f(stream); }, stream_);
    }

    // Once TCP is connected: Nagle off (net/no_delay.hpp). wss: the TLS handshake, with SNI and a
    // certificate that must name `host` (the context verifies the chain), then done(error); ws: done("")
    // at once. `error` is "" on success, else what failed.
    template <class Done>
    void Secure(const std::string& host, Done done) {
        With([](auto& ws) { TurnOffNagle(boost::beast::get_lowest_layer(ws).socket()); });
        auto* tls = std::get_if<Tls>(&stream_);
        if (tls == nullptr) return done(std::string());
        auto& stream = tls->next_layer();
        if (!SSL_set_tlsext_host_name(stream.native_handle(), host.c_str())) {
            return done(std::string("TLS: could not set the server name"));
        }
        stream.set_verify_mode(boost::asio::ssl::verify_peer);
        stream.set_verify_callback(boost::asio::ssl::host_name_verification(host));
        stream.async_handshake(boost::asio::ssl::stream_base::client,
                               [done = std::move(done)](boost::system::error_code ec) mutable {
                                   done(ec ? "TLS handshake failed: " + ec.message() : std::string());
                               });
    }

    // After a read failed: the close code the peer sent (0 when the connection just ended) and its
    // reason, or the error's message.
    std::pair<int, std::string> ReadFailure(const boost::system::error_code& ec) {
        if (ec != boost::beast::websocket::error::closed) return {0, ec.message()};
        return With([](auto& ws) {
            return std::pair<int, std::string>(ws.reason().code, std::string(ws.reason().reason.c_str()));
        });
    }

private:
    using Stream = std::variant<Plain, Tls>;
    // The streams cannot move; C++17's guaranteed elision builds the chosen one in place.
    static Stream Make(boost::asio::io_context& io, boost::asio::ssl::context* tls, bool secure) {
        if (secure) return Stream(std::in_place_type<Tls>, io, *tls);
        return Stream(std::in_place_type<Plain>, io);
    }

    Stream stream_;
};

}  // namespace platformpp::net
