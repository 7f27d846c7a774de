#pragma once
// TLS for https and wss: peer certificates verified against the system's trust store, and the
// host name checked (RFC 6125) on every connection.

#include <boost/asio/ssl/context.hpp>

#include <string>

namespace platformpp::net {

// A client context with TLS 1.2+ and peer verification on. Extra CA file for tests or private CAs.
boost::asio::ssl::context MakeClientTlsContext(const std::string& extraCaFile = {});

}  // namespace platformpp::net
