// net::HttpClient over https, through a TLS front on loopback (support/tls_front.hpp) in front of the
// emulator: a certificate chaining to a CA given to MakeClientTlsContext is accepted (with SNI and
// keep-alive), an unknown CA and a certificate for another host name are refused.
#include <boost/asio/ssl/context.hpp>
#include <boost/test/unit_test.hpp>

#include <future>

#include "core/io_thread.hpp"
#include "net/http_client.hpp"
#include "net/tls.hpp"
#include "support/emulator_process.hpp"
#include "support/tls_front.hpp"

using namespace platformpp;
using platformpp::testing::Certificate;
using platformpp::testing::EmulatorProcess;
using platformpp::testing::TlsFront;

namespace {

struct HttpsFixture {
    EmulatorProcess emulator;
    Certificate certificate;
    TlsFront front{certificate, emulator.Port()};
    core::IoThread io;

    std::string Url(const std::string& host) const {
        return "https://" + host + ":" + std::to_string(front.Port()) + "/api/v10/gateway";
    }

    static net::HttpResponse Get(net::HttpClient& http, const std::string& url) {
        std::promise<net::HttpResponse> done;
        http.Send({"GET", url}, [&](net::HttpResponse r) { done.set_value(std::move(r)); });
        return done.get_future().get();
    }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(http_client_tls, HttpsFixture)

BOOST_AUTO_TEST_CASE(https_succeeds_with_the_ca_given_to_the_client) {
    boost::asio::ssl::context tls = net::MakeClientTlsContext(certificate.caFile);
    net::HttpClient http(io.Context(), tls, {});
    for (int i = 0; i < 3; ++i) {
        const auto response = Get(http, Url("localhost"));
        BOOST_TEST_REQUIRE(!response.error, response.errorDetail);
        BOOST_TEST(response.status == 200);
        BOOST_TEST(response.body.find("\"url\"") != std::string::npos);
    }
    BOOST_TEST(front.ServerName() == "localhost");  // SNI
    BOOST_TEST(http.ConnectionsOpened() == 1u);     // keep-alive over TLS too
}

BOOST_AUTO_TEST_CASE(https_refuses_a_certificate_of_an_unknown_ca) {
    boost::asio::ssl::context tls = net::MakeClientTlsContext();  // the system's trust store only
    net::HttpClient http(io.Context(), tls, {});
    const auto response = Get(http, Url("localhost"));
    BOOST_TEST(static_cast<bool>(response.error));
    BOOST_TEST(response.status == 0);
    BOOST_TEST(response.errorDetail.find("TLS handshake with localhost failed") != std::string::npos,
               response.errorDetail);
    BOOST_TEST(response.errorDetail.find("certificate verify failed") != std::string::npos, response.errorDetail);
}

BOOST_AUTO_TEST_CASE(https_refuses_a_certificate_for_another_host_name) {
    // Trusted CA, but the certificate names localhost only, not 127.0.0.1.
    boost::asio::ssl::context tls = net::MakeClientTlsContext(certificate.caFile);
    net::HttpClient http(io.Context(), tls, {});
    const auto response = Get(http, Url("127.0.0.1"));
    BOOST_TEST(static_cast<bool>(response.error));
    BOOST_TEST(response.status == 0);
    BOOST_TEST(response.errorDetail.find("TLS handshake with 127.0.0.1 failed") != std::string::npos,
               response.errorDetail);
    BOOST_TEST(response.errorDetail.find("certificate verify failed") != std::string::npos, response.errorDetail);
}

BOOST_AUTO_TEST_SUITE_END()
