#pragma once
// TLS for https and wss: peer certificates verified against the system's trust store, and the
// host name checked (RFC 6125) on every connection.

#include <boost/asio/ssl/context.hpp>

#include <string>

namespace platformpp::net {

// Where the trusted authorities are read from. SSL_CERT_FILE and SSL_CERT_DIR, when either is set, name
// them and nothing else is probed; otherwise OpenSSL's own default paths and the first CA bundle file and
// hashed directory found among the usual places of Debian/Ubuntu, Fedora/RHEL/CentOS, Arch, Alpine and
// openSUSE (an OpenSSL linked into the wheel knows only the build machine's layout).
struct TrustLocations {
    std::string file;  // a PEM bundle; empty when none was found
    std::string dir;   // a hashed certificate directory (c_rehash); empty when none was found
    bool fromEnvironment = false;
};
// `root` prefixes every probed path (tests); the environment is read as given.
TrustLocations FindTrustLocations(const std::string& root = {});

// A client context with TLS 1.2+ and peer verification on. Extra CA file for tests or private CAs.
boost::asio::ssl::context MakeClientTlsContext(const std::string& extraCaFile = {});

}  // namespace platformpp::net
