// Nagle's algorithm off on a connected client socket: the SDK writes small messages back to back (a DAVE
// commit and then its transition-ready, a heartbeat and then a command), and with Nagle on the second
// waits for the peer's delayed ACK, 40 ms on Linux. Browsers and the common bot libraries' HTTP and
// WebSocket stacks turn it off too.
#pragma once

#include <boost/asio/ip/tcp.hpp>

namespace platformpp::net {

inline void TurnOffNagle(boost::asio::ip::tcp::socket& socket) {
    boost::system::error_code ignored;  // a socket that cannot take the option still works, only slower
    socket.set_option(boost::asio::ip::tcp::no_delay(true), ignored);
}

}  // namespace platformpp::net
