// wss:// against the emulator through a TLS front on loopback: a throwaway self-signed certificate for
// "localhost" terminates TLS and the bytes go on to the emulator's plain port. Checks SNI, certificate
// verification against a given CA file, and host-name verification.
#include <boost/test/unit_test.hpp>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <array>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>
#include <unistd.h>

#include "net/gateway_connection.hpp"
#include "net/tls.hpp"
#include "support/emulator_process.hpp"

using namespace platformpp;
using namespace std::chrono_literals;
namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using net::GatewayState;

namespace {

const std::string kBotToken = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA";

// A self-signed certificate for DNS:localhost only, and its key.
struct Certificate {
    Certificate() {
        key.reset(EVP_EC_gen("P-256"));
        cert.reset(X509_new());
        BOOST_REQUIRE(key && cert);
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
            BOOST_REQUIRE(extension);
            X509_add_ext(cert.get(), extension, -1);
            X509_EXTENSION_free(extension);
        }
        BOOST_REQUIRE(X509_sign(cert.get(), key.get(), EVP_sha256()) > 0);
        // The client trusts it through a CA file, as a game would trust a private CA.
        char path[] = "/tmp/platformpp-gateway-ca-XXXXXX";
        const int fd = mkstemp(path);
        BOOST_REQUIRE(fd >= 0);
        caFile = path;
        FILE* file = fdopen(fd, "w");
        PEM_write_X509(file, cert.get());
        fclose(file);
    }
    ~Certificate() { unlink(caFile.c_str()); }

    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key{nullptr, EVP_PKEY_free};
    std::unique_ptr<X509, decltype(&X509_free)> cert{nullptr, X509_free};
    std::string caFile;
};

// Terminates TLS on a loopback port and relays each connection to the emulator's plain port.
class TlsFront {
public:
    TlsFront(const Certificate& certificate, unsigned short backendPort) : backendPort_(backendPort) {
        SSL_CTX_use_certificate(context_.native_handle(), certificate.cert.get());
        SSL_CTX_use_PrivateKey(context_.native_handle(), certificate.key.get());
        Accept();
        thread_ = std::thread([this] { io_.run(); });
    }
    ~TlsFront() {
        io_.stop();
        thread_.join();
    }
    unsigned short Port() const { return acceptor_.local_endpoint().port(); }
    std::string ServerName() {
        std::lock_guard lock(mutex_);
        return serverName_;
    }

private:
    struct Relay {
        Relay(asio::io_context& io, tcp::socket client, ssl::context& context)
            : tls(std::move(client), context), backend(io) {}
        ssl::stream<tcp::socket> tls;
        tcp::socket backend;
        std::array<char, 16384> up{}, down{};
    };

    void Accept() {
        acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
            if (ec) return;
            auto relay = std::make_shared<Relay>(io_, std::move(socket), context_);
            relay->tls.async_handshake(ssl::stream_base::server, [this, relay](boost::system::error_code ec) {
                if (ec) return;
                if (const char* name = SSL_get_servername(relay->tls.native_handle(), TLSEXT_NAMETYPE_host_name)) {
                    std::lock_guard lock(mutex_);
                    serverName_ = name;
                }
                relay->backend.async_connect({asio::ip::make_address("127.0.0.1"), backendPort_},
                                             [relay](boost::system::error_code ec) {
                                                 if (ec) return;
                                                 Pump(relay, relay->tls, relay->backend, relay->up);
                                                 Pump(relay, relay->backend, relay->tls, relay->down);
                                             });
            });
            Accept();
        });
    }

    template <class From, class To>
    static void Pump(std::shared_ptr<Relay> relay, From& from, To& to, std::array<char, 16384>& buffer) {
        from.async_read_some(asio::buffer(buffer), [relay, &from, &to, &buffer](boost::system::error_code ec, std::size_t n) {
            if (ec) {
                relay->backend.close();
                relay->tls.lowest_layer().close();
                return;
            }
            asio::async_write(to, asio::buffer(buffer.data(), n), [relay, &from, &to, &buffer](boost::system::error_code ec, std::size_t) {
                if (!ec) Pump(relay, from, to, buffer);
            });
        });
    }

    unsigned short backendPort_;
    ssl::context context_{ssl::context::tls_server};  // outlives the relays that io_ still holds
    asio::io_context io_;
    tcp::acceptor acceptor_{io_, {asio::ip::make_address("127.0.0.1"), 0}};
    std::thread thread_;
    std::mutex mutex_;
    std::string serverName_;
};

// Runs a GatewayConnection on its own thread until `done` (checked on each state change) or a timeout.
struct Outcome {
    std::vector<GatewayState> states;
    std::vector<std::string> logs;
    bool ready = false;
};

template <class Done>
Outcome RunGateway(const std::string& url, const std::string& caFile, Done done) {
    asio::io_context io;
    auto tls = net::MakeClientTlsContext(caFile);
    std::mutex mutex;
    std::condition_variable changed;
    Outcome outcome;
    net::GatewayOptions options;
    options.url = url;
    options.token = kBotToken;
    options.intents = 1;
    options.initialBackoff = 20ms;
    options.maxBackoff = 100ms;
    net::GatewayEvents events;
    events.onState = [&](GatewayState state, int, const std::string&) {
        std::lock_guard lock(mutex);
        outcome.states.push_back(state);
        outcome.ready = outcome.ready || state == GatewayState::Ready;
        changed.notify_all();
    };
    events.log = [&](LoggingSeverity, const std::string& line) {
        std::lock_guard lock(mutex);
        outcome.logs.push_back(line);
    };
    auto gateway = net::GatewayConnection::Create(io, tls, std::move(options), std::move(events));
    auto work = asio::make_work_guard(io);
    std::thread thread([&] { io.run(); });
    gateway->Start();
    {
        std::unique_lock lock(mutex);
        changed.wait_for(lock, 10s, [&] { return done(outcome); });
    }
    gateway->Stop();
    {
        std::unique_lock lock(mutex);
        changed.wait_for(lock, 5s, [&] { return outcome.states.back() == GatewayState::Disconnected; });
    }
    work.reset();
    io.stop();
    thread.join();
    return outcome;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gateway_tls)

BOOST_AUTO_TEST_CASE(wss_verifies_the_certificate_and_sends_sni) {
    testing::EmulatorProcess emulator;
    Certificate certificate;
    TlsFront front(certificate, emulator.Port());
    const auto outcome = RunGateway("wss://localhost:" + std::to_string(front.Port()) + "/gateway", certificate.caFile,
                                    [](const Outcome& o) { return o.ready; });
    BOOST_TEST(outcome.ready);
    BOOST_TEST(front.ServerName() == "localhost");
}

BOOST_AUTO_TEST_CASE(wss_refuses_a_certificate_for_another_host) {
    testing::EmulatorProcess emulator;
    Certificate certificate;
    TlsFront front(certificate, emulator.Port());
    // The certificate names localhost only, not 127.0.0.1.
    const auto outcome = RunGateway("wss://127.0.0.1:" + std::to_string(front.Port()) + "/gateway", certificate.caFile,
                                    [](const Outcome& o) {
                                        return std::count(o.states.begin(), o.states.end(), GatewayState::Reconnecting) >= 3;
                                    });
    BOOST_TEST(!outcome.ready);
    BOOST_TEST(std::any_of(outcome.logs.begin(), outcome.logs.end(),
                           [](const auto& line) { return line.find("TLS handshake failed") != std::string::npos; }));
}

BOOST_AUTO_TEST_CASE(wss_refuses_an_untrusted_certificate) {
    testing::EmulatorProcess emulator;
    Certificate certificate;
    TlsFront front(certificate, emulator.Port());
    const auto outcome = RunGateway("wss://localhost:" + std::to_string(front.Port()) + "/gateway", {},
                                    [](const Outcome& o) {
                                        return std::count(o.states.begin(), o.states.end(), GatewayState::Reconnecting) >= 3;
                                    });
    BOOST_TEST(!outcome.ready);
}

BOOST_AUTO_TEST_SUITE_END()
