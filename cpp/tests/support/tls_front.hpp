#pragma once
// A TLS front for tests of https and wss on loopback: a throwaway self-signed certificate for
// "localhost" terminates TLS, and the bytes go on, unchanged, to a plain TCP port (the emulator's).

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace platformpp::testing {

// A self-signed certificate (its own CA) for DNS:localhost only, its key, and a PEM file holding the
// certificate, for a client to trust it as a game would trust a private CA.
struct Certificate {
    Certificate();
    ~Certificate();
    Certificate(const Certificate&) = delete;
    Certificate& operator=(const Certificate&) = delete;

    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key{nullptr, EVP_PKEY_free};
    std::unique_ptr<X509, decltype(&X509_free)> cert{nullptr, X509_free};
    std::string caFile;
};

// Terminates TLS on a loopback port and relays each connection to backendPort on 127.0.0.1.
class TlsFront {
public:
    TlsFront(const Certificate& certificate, unsigned short backendPort);
    ~TlsFront();
    TlsFront(const TlsFront&) = delete;
    TlsFront& operator=(const TlsFront&) = delete;

    unsigned short Port() const;
    // The SNI host name of the last connection that completed its handshake.
    std::string ServerName();

private:
    struct Relay;
    void Accept();
    template <class From, class To>
    static void Pump(std::shared_ptr<Relay> relay, From& from, To& to, char* buffer);

    unsigned short backendPort_;
    boost::asio::ssl::context context_{boost::asio::ssl::context::tls_server};  // outlives the relays io_ holds
    boost::asio::io_context io_;
    boost::asio::ip::tcp::acceptor acceptor_;
    std::thread thread_;
    std::mutex mutex_;
    std::string serverName_;
};

}  // namespace platformpp::testing
