#include <boost/asio/error.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/test/unit_test.hpp>

#include <future>
#include <vector>

#include "core/io_thread.hpp"
#include "net/http_client.hpp"
#include "net/tls.hpp"
#include "support/emulator_process.hpp"

using namespace platformpp;
using platformpp::testing::EmulatorProcess;
using platformpp::testing::TestRequest;

namespace {

struct HttpFixture {
    EmulatorProcess emulator;
    core::IoThread io;
    boost::asio::ssl::context tls = net::MakeClientTlsContext();
    net::HttpClient http{io.Context(), tls, {}};

    net::HttpResponse Get(const std::string& target) {
        std::promise<net::HttpResponse> done;
        http.Send({"GET", emulator.BaseUrl() + target}, [&](net::HttpResponse r) { done.set_value(std::move(r)); });
        return done.get_future().get();
    }

    std::vector<net::HttpResponse> GetConcurrently(const std::string& target, int count) {
        std::vector<std::promise<net::HttpResponse>> done(count);
        for (int i = 0; i < count; ++i) {
            http.Send({"GET", emulator.BaseUrl() + target}, [&, i](net::HttpResponse r) { done[i].set_value(std::move(r)); });
        }
        std::vector<net::HttpResponse> responses;
        for (auto& promise : done) responses.push_back(promise.get_future().get());
        return responses;
    }

    void SetFaults(const std::string& json) {
        BOOST_REQUIRE_EQUAL(TestRequest(emulator, "PUT", "/_emulator/faults", json).status / 100, 2);
    }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(http_client, HttpFixture)

BOOST_AUTO_TEST_CASE(get_json_and_reuse_the_connection) {
    for (int i = 0; i < 10; ++i) {
        const auto response = Get("/api/v10/gateway");
        BOOST_TEST(!response.error);
        BOOST_TEST(response.status == 200);
        BOOST_TEST(response.body.find("\"url\"") != std::string::npos);
        BOOST_REQUIRE(response.Header("content-type"));
        BOOST_TEST(*response.Header("Content-Type") == "application/json");
    }
    BOOST_TEST(http.ConnectionsOpened() == 1u);
}

BOOST_AUTO_TEST_CASE(a_429_storm_completes_every_request) {
    SetFaults(R"({"rules": [{"path": "/api/v10/gateway", "force_429": 12, "retry_after": 0.05}]})");
    const auto responses = GetConcurrently("/api/v10/gateway", 8);
    for (const auto& response : responses) {
        BOOST_TEST(!response.error);
        BOOST_TEST(response.status == 200);
    }
}

BOOST_AUTO_TEST_CASE(a_global_429_holds_every_route) {
    SetFaults(R"({"rules": [{"path": "/api/v10/gateway", "force_429": 1, "retry_after": 0.3, "global": true}]})");
    const auto started = std::chrono::steady_clock::now();
    const auto responses = GetConcurrently("/api/v10/gateway", 3);
    for (const auto& response : responses) BOOST_TEST(response.status == 200);
    BOOST_TEST((std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(250)));
}

BOOST_AUTO_TEST_CASE(a_slow_response_times_out) {
    SetFaults(R"({"rules": [{"path": "/api/v10/gateway", "latency_ms": 1500}]})");
    http.SetTimeout(std::chrono::milliseconds(200));
    const auto started = std::chrono::steady_clock::now();
    const auto response = Get("/api/v10/gateway");
    BOOST_TEST((response.error == boost::asio::error::timed_out));
    BOOST_TEST(response.status == 0);
    BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::milliseconds(1200)));
}

BOOST_AUTO_TEST_CASE(a_dropped_connection_is_an_error_not_a_hang) {
    SetFaults(R"({"rules": [{"path": "/api/v10/gateway", "drop_rate": 1.0}]})");
    const auto response = Get("/api/v10/gateway");
    BOOST_TEST(static_cast<bool>(response.error));
    BOOST_TEST(response.errorDetail.size() > 0u);
}

BOOST_AUTO_TEST_CASE(http_errors_are_responses) {
    const auto response = Get("/api/v10/users/@me");
    BOOST_TEST(!response.error);
    BOOST_TEST(response.status == 401);
    BOOST_TEST(response.body.find("\"code\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_urls_and_cancellation) {
    std::promise<net::HttpResponse> bad;
    http.Send({"GET", "ftp://example/"}, [&](net::HttpResponse r) { bad.set_value(std::move(r)); });
    BOOST_TEST((bad.get_future().get().error == boost::asio::error::invalid_argument));

    SetFaults(R"({"rules": [{"path": "/api/v10/gateway", "latency_ms": 3000}]})");
    std::promise<net::HttpResponse> pending;
    http.Send({"GET", emulator.BaseUrl() + "/api/v10/gateway"}, [&](net::HttpResponse r) { pending.set_value(std::move(r)); });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    http.CancelAll();
    auto future = pending.get_future();
    BOOST_REQUIRE((future.wait_for(std::chrono::seconds(2)) == std::future_status::ready));
    BOOST_TEST((future.get().error == boost::asio::error::operation_aborted));
}

BOOST_AUTO_TEST_SUITE_END()
