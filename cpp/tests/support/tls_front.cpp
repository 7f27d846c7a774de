#include "support/tls_front.hpp"

#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/write.hpp>

#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <array>
#include <cstdio>
#include <stdexcept>
#include <unistd.h>

namespace platformpp::testing {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

namespace {

void Require(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(std::string("test certificate: ") + what + " failed");
}

}  // namespace

Certificate::Certificate() {
    key.reset(EVP_EC_gen("P-256"));
    cert.reset(X509_new());
    Require(key && cert, "key generation");
    X509_set_version(cert.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -60);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 3600);
    X509_set_pubkey(cert.get(), key.get());
    X509_NAME* name = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
    X509_set_issuer_name(cert.get(), name);
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, cert.get(), cert.get(), nullptr, nullptr, 0);
    for (auto [nid, value] : {std::pair{NID_subject_alt_name, "DNS:localhost"},
                              std::pair{NID_basic_constraints, "critical,CA:TRUE"}}) {
        X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value);
        Require(extension != nullptr, "extension");
        X509_add_ext(cert.get(), extension, -1);
        X509_EXTENSION_free(extension);
    }
    Require(X509_sign(cert.get(), key.get(), EVP_sha256()) > 0, "signing");
    char path[] = "/tmp/platformpp-test-ca-XXXXXX";
    const int fd = mkstemp(path);
    Require(fd >= 0, "mkstemp");
    caFile = path;
    FILE* file = fdopen(fd, "w");
    PEM_write_X509(file, cert.get());
    fclose(file);
}

Certificate::~Certificate() { unlink(caFile.c_str()); }

struct TlsFront::Relay {
    Relay(tcp::socket client, ssl::context& context, asio::io_context& io) : tls(std::move(client), context), backend(io) {}
    ssl::stream<tcp::socket> tls;
    tcp::socket backend;
    static constexpr std::size_t kBufferSize = 16384;
    std::array<char, kBufferSize> up{}, down{};
};

TlsFront::TlsFront(const Certificate& certificate, unsigned short backendPort)
  : backendPort_(backendPort), acceptor_(io_, {asio::ip::make_address("127.0.0.1"), 0}) {
    SSL_CTX_use_certificate(context_.native_handle(), certificate.cert.get());
    SSL_CTX_use_PrivateKey(context_.native_handle(), certificate.key.get());
    Accept();
    thread_ = std::thread([this] { io_.run(); });
}

TlsFront::~TlsFront() {
    io_.stop();
    thread_.join();
}

unsigned short TlsFront::Port() const { return acceptor_.local_endpoint().port(); }

std::string TlsFront::ServerName() {
    std::lock_guard lock(mutex_);
    return serverName_;
}

void TlsFront::Accept() {
    acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
        if (ec) return;
        auto relay = std::make_shared<Relay>(std::move(socket), context_, io_);
        relay->tls.async_handshake(ssl::stream_base::server, [this, relay](boost::system::error_code ec) {
            if (ec) return;
            if (const char* name = SSL_get_servername(relay->tls.native_handle(), TLSEXT_NAMETYPE_host_name)) {
                std::lock_guard lock(mutex_);
                serverName_ = name;
            }
            relay->backend.async_connect({asio::ip::make_address("127.0.0.1"), backendPort_},
                                         [relay](boost::system::error_code ec) {
                                             if (ec) return;
                                             Pump(relay, relay->tls, relay->backend, relay->up.data());
                                             Pump(relay, relay->backend, relay->tls, relay->down.data());
                                         });
        });
        Accept();
    });
}

template <class From, class To>
void TlsFront::Pump(std::shared_ptr<Relay> relay, From& from, To& to, char* buffer) {
    from.async_read_some(asio::buffer(buffer, Relay::kBufferSize), [relay, &from, &to, buffer](boost::system::error_code ec, std::size_t n) {
        if (ec) {
            relay->backend.close();
            relay->tls.lowest_layer().close();
            return;
        }
        asio::async_write(to, asio::buffer(buffer, n), [relay, &from, &to, buffer](boost::system::error_code ec, std::size_t) {
            if (!ec) Pump(relay, from, to, buffer);
        });
    });
}

}  // namespace platformpp::testing
