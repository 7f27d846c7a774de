// wss:// against the emulator through a TLS front on loopback (support/tls_front.hpp). Checks SNI,
// certificate verification against a given CA file, and host-name verification.
#include <boost/test/unit_test.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "net/gateway_connection.hpp"
#include "net/tls.hpp"
#include "support/emulator_process.hpp"
#include "support/tls_front.hpp"

using namespace platformpp;
using namespace std::chrono_literals;
namespace asio = boost::asio;
using net::GatewayState;
using testing::Certificate;
using testing::TlsFront;

namespace {

const std::string kBotToken = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA";

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
