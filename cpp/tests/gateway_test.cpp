// GatewayConnection against a live emulator over loopback: Identify, zlib-stream, fatal close codes,
// resume after drops with every dispatch delivered once, Reconnect, Invalid Session, zombie detection.
#include <boost/test/unit_test.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "net/gateway_connection.hpp"
#include "net/tls.hpp"
#include "support/emulator_process.hpp"

using namespace platformpp;
using namespace std::chrono_literals;
using net::GatewayState;
using testing::EmulatorProcess;
using testing::TestRequest;
namespace json = boost::json;

namespace {

// The default world's "Demo Game" bot (python/platformpp/emulator/world/default.json).
const std::string kBotToken = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA";
const std::string kDemoGuildId = "1200000000000000000";
constexpr uint64_t kGuildsIntent = 1;

// Test set-up over HTTP; retries the emulator's (rare) 429s so that set-up never flakes.
json::value Call(const EmulatorProcess& emulator, const std::string& method, const std::string& target,
                 const json::value& body, const std::string& authorization, int expected) {
    for (int attempt = 0; attempt < 10; ++attempt) {
        const auto response = TestRequest(emulator, method, target, json::serialize(body), "application/json", authorization);
        if (response.status == 429) {
            std::this_thread::sleep_for(200ms);
            continue;
        }
        BOOST_REQUIRE_MESSAGE(response.status == expected, method << " " << target << " answered " << response.status
                                                                  << ": " << response.body);
        return response.body.empty() ? json::value() : json::parse(response.body);
    }
    BOOST_FAIL(method << " " << target << " stayed rate limited");
    return {};
}

void GatewaySettings(const EmulatorProcess& emulator, int heartbeatMs) {
    Call(emulator, "PUT", "/_emulator/gateway", json::object{{"heartbeat_interval_ms", heartbeatMs}}, {}, 200);
}

// An SDK user (a provisional account minted by the bot) in a lobby of its own: every message it posts
// there is a LOBBY_MESSAGE_CREATE dispatch on its own Gateway session.
struct LobbyUser {
    LobbyUser(const EmulatorProcess& emulator, const std::string& externalId) : emulator(emulator) {
        const auto token = Call(emulator, "POST", "/api/v10/partner-sdk/token/bot",
                                json::object{{"external_user_id", externalId}}, "Bot " + kBotToken, 200);
        accessToken = json::value_to<std::string>(token.at("access_token"));
        const auto lobby = Call(emulator, "PUT", "/api/v10/lobbies", json::object{{"secret", externalId}},
                                "Bearer " + accessToken, 200);
        lobbyId = json::value_to<std::string>(lobby.at("id"));
    }
    void Say(const std::string& content) const {
        Call(emulator, "POST", "/api/v10/lobbies/" + lobbyId + "/messages", json::object{{"content", content}},
             "Bearer " + accessToken, 201);
    }

    const EmulatorProcess& emulator;
    std::string accessToken, lobbyId;
};

// Runs one GatewayConnection on its own io thread and records everything it reports.
class GatewayRun {
public:
    explicit GatewayRun(net::GatewayOptions options) : token_(options.token) {
        net::GatewayEvents events;
        events.onState = [this](GatewayState state, int code, const std::string& detail) {
            Record([&] {
                states.push_back(state);
                codes.push_back(code);
                details.push_back(detail);
                readiesAtState.push_back(readies.size());
            });
        };
        events.onReady = [this](const json::object& ready) { Record([&] { readies.push_back(ready); }); };
        events.onDispatch = [this](std::string_view type, const json::value& data, int64_t seq) {
            Record([&] { dispatches.push_back({std::string(type), data, seq}); });
        };
        events.log = [this](LoggingSeverity, const std::string& line) { Record([&] { logs.push_back(line); }); };
        gateway_ = net::GatewayConnection::Create(io_, tls_, std::move(options), std::move(events));
        thread_ = std::thread([this] { io_.run(); });
    }
    ~GatewayRun() {
        gateway_->Stop();
        WaitFor([&] { return !states.empty() && states.back() == GatewayState::Disconnected; }, 5s);
        work_.reset();
        io_.stop();
        thread_.join();
        // No secret reaches the log, whatever the sink does with it.
        for (const auto& line : logs) BOOST_TEST(line.find(token_) == std::string::npos, line);
    }

    net::GatewayConnection& Gateway() { return *gateway_; }

    // Waits (up to `timeout`) until `done` holds; `done` runs under the recorder's lock.
    template <class Predicate>
    bool WaitFor(Predicate done, std::chrono::milliseconds timeout = 10s) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, timeout, done);
    }
    template <class F>
    auto Read(F read) {
        std::lock_guard lock(mutex_);
        return read();
    }
    std::size_t Count(GatewayState state) {
        return Read([&] { return static_cast<std::size_t>(std::count(states.begin(), states.end(), state)); });
    }
    bool Logged(const std::string& text) {
        return std::any_of(logs.begin(), logs.end(), [&](const auto& line) { return line.find(text) != std::string::npos; });
    }

    struct Dispatch {
        std::string type;
        json::value data;
        int64_t seq;
    };
    // Guarded by the recorder's lock (WaitFor's predicate and Read already hold it).
    std::vector<GatewayState> states;
    std::vector<int> codes;
    std::vector<std::string> details;
    std::vector<json::object> readies;
    std::vector<std::size_t> readiesAtState;  // how many READYs had been handed over at each state
    std::vector<Dispatch> dispatches;
    std::vector<std::string> logs;

private:
    template <class F>
    void Record(F f) {
        {
            std::lock_guard lock(mutex_);
            f();
        }
        changed_.notify_all();
    }

    std::string token_;
    std::mutex mutex_;
    std::condition_variable changed_;
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{io_.get_executor()};
    boost::asio::ssl::context tls_ = net::MakeClientTlsContext();
    std::shared_ptr<net::GatewayConnection> gateway_;
    std::thread thread_;
};

std::string GatewayUrl(const EmulatorProcess& emulator) {
    return "ws://" + emulator.Host() + ":" + std::to_string(emulator.Port()) + "/gateway";
}

net::GatewayOptions Options(std::string url, std::string token, uint64_t intents, bool compress) {
    net::GatewayOptions options;
    options.url = std::move(url);
    options.token = std::move(token);
    options.intents = intents;
    options.compress = compress;
    options.initialBackoff = 20ms;
    options.maxBackoff = 200ms;
    options.connectTimeout = 3s;
    options.invalidSessionMinDelay = 20ms;
    options.invalidSessionMaxDelay = 60ms;
    return options;
}

// The lobby messages delivered so far, in order.
std::vector<std::string> Messages(GatewayRun& run) {
    return run.Read([&] {
        std::vector<std::string> contents;
        for (const auto& d : run.dispatches)
            if (d.type == "LOBBY_MESSAGE_CREATE") contents.push_back(json::value_to<std::string>(d.data.at("content")));
        return contents;
    });
}

bool StrictlyIncreasingSeqs(GatewayRun& run) {
    return run.Read([&] {
        for (std::size_t i = 1; i < run.dispatches.size(); ++i)
            if (run.dispatches[i].seq <= run.dispatches[i - 1].seq) return false;
        return true;
    });
}

void ExpectIdentifyThenGuildCreate(bool compress) {
    EmulatorProcess emulator;
    GatewayRun run(Options(GatewayUrl(emulator), kBotToken, kGuildsIntent, compress));
    run.Gateway().Start();
    BOOST_REQUIRE(run.WaitFor([&] {
        return std::any_of(run.dispatches.begin(), run.dispatches.end(),
                           [](const auto& d) { return d.type == "GUILD_CREATE"; });
    }));
    run.Read([&] {
        BOOST_REQUIRE_EQUAL(run.readies.size(), 1u);
        const auto& ready = run.readies.front();
        BOOST_TEST(!json::value_to<std::string>(ready.at("session_id")).empty());
        BOOST_TEST(ready.at("user").at("bot").as_bool());
        BOOST_TEST(json::value_to<std::string>(ready.at("user").at("id")) == "1000000000000000001");
        const auto& guild = run.dispatches.front();
        BOOST_TEST(guild.type == "GUILD_CREATE");
        BOOST_TEST(json::value_to<std::string>(guild.data.at("id")) == kDemoGuildId);
        BOOST_TEST(json::value_to<std::string>(guild.data.at("name")) == "Demo Guild");
        BOOST_TEST(guild.seq == 2);  // READY was 1
        BOOST_TEST((run.states == std::vector{GatewayState::Connecting, GatewayState::Ready}));
        // READY's content is handed over (and stored: the current user) before Ready is reported.
        BOOST_TEST((run.readiesAtState == std::vector<std::size_t>{0, 1}));
    });
    BOOST_TEST((run.Gateway().State() == GatewayState::Ready));
}

void ExpectFatal(uint64_t intents, const std::string& token, int code) {
    EmulatorProcess emulator;
    GatewayRun run(Options(GatewayUrl(emulator), token, intents, true));
    run.Gateway().Start();
    BOOST_REQUIRE(run.WaitFor([&] { return !run.states.empty() && run.states.back() == GatewayState::Disconnected; }));
    run.Read([&] {
        BOOST_TEST(run.codes.back() == code);
        BOOST_TEST(run.readies.empty());
    });
    // Several backoff periods later it has not tried again.
    std::this_thread::sleep_for(500ms);
    BOOST_TEST(run.Count(GatewayState::Connecting) == 1u);
    BOOST_TEST(run.Count(GatewayState::Reconnecting) == 0u);
    BOOST_TEST((run.Gateway().State() == GatewayState::Disconnected));
}

// Ready again after the state went elsewhere `readyBefore` Ready transitions ago.
bool BackToReady(GatewayRun& run, std::size_t readyBefore) {
    return run.WaitFor([&] {
        return std::count(run.states.begin(), run.states.end(), GatewayState::Ready) > static_cast<long>(readyBefore) &&
               run.states.back() == GatewayState::Ready;
    });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gateway)

BOOST_AUTO_TEST_CASE(bot_identifies_and_gets_ready_then_guild_create_with_zlib_stream) {
    ExpectIdentifyThenGuildCreate(true);
}

BOOST_AUTO_TEST_CASE(bot_identifies_and_gets_ready_then_guild_create_without_compression) {
    ExpectIdentifyThenGuildCreate(false);
}

BOOST_AUTO_TEST_CASE(bad_token_is_fatal_4004_without_reconnecting) {
    ExpectFatal(kGuildsIntent, "not-a-token", 4004);
}

BOOST_AUTO_TEST_CASE(invalid_intents_are_fatal_4013) {
    ExpectFatal(uint64_t(1) << 40, kBotToken, 4013);
}

BOOST_AUTO_TEST_CASE(resumes_after_twenty_drops_delivering_every_dispatch_once_in_order) {
    EmulatorProcess emulator;
    GatewaySettings(emulator, 1000);
    LobbyUser user(emulator, "gateway-drops");
    GatewayRun run(Options(GatewayUrl(emulator), user.accessToken, 0, true));
    run.Gateway().Start();
    BOOST_REQUIRE(BackToReady(run, 0));
    std::vector<std::string> said;
    for (int drop = 0; drop < 20; ++drop) {
        const auto readyBefore = run.Count(GatewayState::Ready);
        said.push_back("before drop " + std::to_string(drop));
        user.Say(said.back());
        const auto dropped = Call(emulator, "POST", "/_emulator/gateway/drop", json::object{}, {}, 200);
        BOOST_REQUIRE_EQUAL(dropped.at("dropped").as_int64(), 1);
        // Said while the client is away or resuming: replayed on Resume.
        said.push_back("after drop " + std::to_string(drop));
        user.Say(said.back());
        BOOST_REQUIRE_MESSAGE(BackToReady(run, readyBefore), "not Ready again after drop " << drop);
    }
    BOOST_REQUIRE(run.WaitFor([&] {
        return std::count_if(run.dispatches.begin(), run.dispatches.end(),
                             [](const auto& d) { return d.type == "LOBBY_MESSAGE_CREATE"; }) >= 40;
    }));
    std::this_thread::sleep_for(200ms);  // anything repeated would arrive by now
    BOOST_TEST(Messages(run) == said, boost::test_tools::per_element());
    BOOST_TEST(StrictlyIncreasingSeqs(run));
    run.Read([&] {
        BOOST_TEST(run.readies.size() == 1u);  // every reconnection resumed, none identified again
        BOOST_TEST(run.Logged("closed by the server with code 4000"));
        BOOST_TEST(run.Logged("resuming the session at seq"));
    });
    BOOST_TEST(run.Count(GatewayState::Reconnecting) >= 20u);
}

BOOST_AUTO_TEST_CASE(resumes_when_the_gateway_drops_sockets_mid_dispatch) {
    EmulatorProcess emulator;
    GatewaySettings(emulator, 1000);
    LobbyUser user(emulator, "gateway-faults");
    GatewayRun run(Options(GatewayUrl(emulator), user.accessToken, 0, true));
    run.Gateway().Start();
    BOOST_REQUIRE(BackToReady(run, 0));
    // A third of the dispatches kill the socket instead of being sent; they wait for the Resume.
    Call(emulator, "PUT", "/_emulator/faults",
         json::parse(R"({"seed": 7, "rules": [{"path": "/gateway", "method": "GATEWAY", "drop_rate": 0.3}]})"), {}, 200);
    std::vector<std::string> said;
    for (int i = 0; i < 30; ++i) {
        said.push_back("message " + std::to_string(i));
        user.Say(said.back());
    }
    BOOST_REQUIRE(run.WaitFor([&] {
        return std::count_if(run.dispatches.begin(), run.dispatches.end(),
                             [](const auto& d) { return d.type == "LOBBY_MESSAGE_CREATE"; }) >= 30;
    }, 30s));
    Call(emulator, "PUT", "/_emulator/faults", json::object{}, {}, 200);
    std::this_thread::sleep_for(200ms);
    BOOST_TEST(Messages(run) == said, boost::test_tools::per_element());
    BOOST_TEST(StrictlyIncreasingSeqs(run));
    BOOST_TEST(run.Count(GatewayState::Reconnecting) >= 1u);
    BOOST_TEST(run.Read([&] { return run.readies.size(); }) == 1u);
}

BOOST_AUTO_TEST_CASE(reconnect_op7_closes_and_resumes) {
    EmulatorProcess emulator;
    LobbyUser user(emulator, "gateway-reconnect");
    GatewayRun run(Options(GatewayUrl(emulator), user.accessToken, 0, false));
    run.Gateway().Start();
    BOOST_REQUIRE(BackToReady(run, 0));
    const auto reconnected = Call(emulator, "POST", "/_emulator/gateway/reconnect", json::object{}, {}, 200);
    BOOST_REQUIRE_EQUAL(reconnected.at("reconnected").as_int64(), 1);
    BOOST_REQUIRE(BackToReady(run, 1));
    user.Say("after reconnect");
    BOOST_REQUIRE(run.WaitFor([&] { return !run.dispatches.empty(); }));
    BOOST_TEST(Messages(run) == std::vector<std::string>{"after reconnect"});
    run.Read([&] {
        BOOST_TEST(run.readies.size() == 1u);
        BOOST_TEST(run.Logged("the server asked to reconnect"));
        BOOST_TEST(std::count(run.details.begin(), run.details.end(), "resumed") == 1);
    });
}

BOOST_AUTO_TEST_CASE(resumable_invalid_session_resumes) {
    EmulatorProcess emulator;
    LobbyUser user(emulator, "gateway-invalid-resumable");
    GatewayRun run(Options(GatewayUrl(emulator), user.accessToken, 0, true));
    run.Gateway().Start();
    BOOST_REQUIRE(BackToReady(run, 0));
    user.Say("one");
    Call(emulator, "POST", "/_emulator/gateway/invalidate", json::object{{"resumable", true}}, {}, 200);
    user.Say("two");
    BOOST_REQUIRE(BackToReady(run, 1));
    BOOST_REQUIRE(run.WaitFor([&] { return run.dispatches.size() >= 2; }));
    BOOST_TEST((Messages(run) == std::vector<std::string>{"one", "two"}));
    run.Read([&] {
        BOOST_TEST(run.readies.size() == 1u);
        BOOST_TEST(run.Logged("invalid session (resumable)"));
    });
}

BOOST_AUTO_TEST_CASE(unresumable_invalid_session_identifies_again) {
    EmulatorProcess emulator;
    LobbyUser user(emulator, "gateway-invalid");
    GatewayRun run(Options(GatewayUrl(emulator), user.accessToken, 0, true));
    run.Gateway().Start();
    BOOST_REQUIRE(BackToReady(run, 0));
    Call(emulator, "POST", "/_emulator/gateway/invalidate", json::object{{"resumable", false}}, {}, 200);
    BOOST_REQUIRE(run.WaitFor([&] { return run.readies.size() == 2 && run.states.back() == GatewayState::Ready; }));
    run.Read([&] {
        BOOST_TEST(run.readies[0].at("session_id") != run.readies[1].at("session_id"));
        BOOST_TEST(run.Logged("invalid session (not resumable)"));
    });
    // The new session delivers from seq 1 again; nothing is dropped as "already seen".
    user.Say("in the new session");
    BOOST_REQUIRE(run.WaitFor([&] { return !run.dispatches.empty(); }));
    BOOST_TEST(Messages(run) == std::vector<std::string>{"in the new session"});
}

BOOST_AUTO_TEST_CASE(session_timed_out_4009_identifies_again) {
    EmulatorProcess emulator;
    GatewayRun run(Options(GatewayUrl(emulator), kBotToken, kGuildsIntent, true));
    run.Gateway().Start();
    BOOST_REQUIRE(run.WaitFor([&] { return run.readies.size() == 1; }));
    // Resetting the world ends every session with 4009.
    Call(emulator, "POST", "/_emulator/reset", json::object{}, {}, 204);
    BOOST_REQUIRE(run.WaitFor([&] { return run.readies.size() == 2 && run.states.back() == GatewayState::Ready; }));
    run.Read([&] {
        BOOST_TEST((std::find(run.codes.begin(), run.codes.end(), 4009) != run.codes.end()));
        BOOST_TEST(run.Logged("close code 4009 ends the session"));
    });
}

BOOST_AUTO_TEST_CASE(a_zombie_connection_without_heartbeat_acks_is_closed_and_resumed) {
    EmulatorProcess emulator;
    GatewaySettings(emulator, 200);
    LobbyUser user(emulator, "gateway-zombie");
    GatewayRun run(Options(GatewayUrl(emulator), user.accessToken, 0, true));
    run.Gateway().Start();
    BOOST_REQUIRE(BackToReady(run, 0));
    // The emulator cannot be told to stop ACKing, but its one writer sends in order: a dispatch held
    // back by 3 s of injected latency holds back every ACK queued behind it.
    Call(emulator, "PUT", "/_emulator/faults",
         json::parse(R"({"rules": [{"path": "/gateway", "method": "GATEWAY", "latency_ms": 3000}]})"), {}, 200);
    user.Say("held back");
    BOOST_REQUIRE(run.WaitFor([&] { return run.Logged("zombie"); }, 3s));
    Call(emulator, "PUT", "/_emulator/faults", json::object{}, {}, 200);
    BOOST_REQUIRE(BackToReady(run, 1));
    BOOST_REQUIRE(run.WaitFor([&] { return !run.dispatches.empty(); }));
    std::this_thread::sleep_for(3500ms);  // the old socket's late copy never gets through
    BOOST_TEST(Messages(run) == std::vector<std::string>{"held back"});
    run.Read([&] {
        BOOST_TEST(run.readies.size() == 1u);
        BOOST_TEST((std::find(run.codes.begin(), run.codes.end(), 4000) != run.codes.end()));
    });
}

BOOST_AUTO_TEST_CASE(stop_closes_with_1000_and_ends_the_session) {
    EmulatorProcess emulator;
    GatewayRun run(Options(GatewayUrl(emulator), kBotToken, kGuildsIntent, true));
    run.Gateway().Start();
    BOOST_REQUIRE(run.WaitFor([&] { return run.readies.size() == 1; }));
    std::thread([&] { run.Gateway().Stop(); }).join();  // from another thread
    BOOST_REQUIRE(run.WaitFor([&] { return run.states.back() == GatewayState::Disconnected; }));
    run.Read([&] {
        BOOST_TEST((run.states == std::vector{GatewayState::Connecting, GatewayState::Ready, GatewayState::Disconnecting,
                                              GatewayState::Disconnected}));
        BOOST_TEST(run.codes.back() == 1000);
    });
    // A normal close ends the session on the server: nothing is left to resume.
    const auto settings = Call(emulator, "GET", "/_emulator/gateway", nullptr, {}, 200);
    BOOST_TEST(settings.at("sessions").as_array().empty());
}

BOOST_AUTO_TEST_CASE(stop_during_the_handshake_and_restart) {
    EmulatorProcess emulator;
    GatewayRun run(Options(GatewayUrl(emulator), kBotToken, kGuildsIntent, true));
    for (int i = 0; i < 5; ++i) {
        run.Gateway().Start();
        run.Gateway().Stop();
    }
    BOOST_REQUIRE(run.WaitFor([&] { return !run.states.empty() && run.states.back() == GatewayState::Disconnected; }));
    BOOST_TEST(run.Read([&] { return run.readies.size(); }) == 0u);
    run.Gateway().Start();
    BOOST_REQUIRE(run.WaitFor([&] { return run.readies.size() == 1; }));
}

BOOST_AUTO_TEST_CASE(destroying_the_io_context_right_after_stop_frees_everything) {
    EmulatorProcess emulator;
    std::weak_ptr<net::GatewayConnection> weak;
    {
        boost::asio::io_context io;
        auto tls = net::MakeClientTlsContext();
        std::atomic<bool> ready{false};
        net::GatewayEvents events;
        events.onReady = [&](const json::object&) { ready = true; };
        auto gateway = net::GatewayConnection::Create(io, tls, Options(GatewayUrl(emulator), kBotToken, kGuildsIntent, true),
                                                      std::move(events));
        weak = gateway;
        gateway->Start();
        std::thread thread([&] { io.run_for(10s); });
        const auto deadline = std::chrono::steady_clock::now() + 10s;
        while (!ready && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(5ms);
        // Stop, then tear the io_context down before the close handshake can finish.
        gateway->Stop();
        io.stop();
        thread.join();
        gateway.reset();
        BOOST_TEST(ready.load());
    }
    BOOST_TEST(weak.expired());  // the pending handlers that held it went with the io_context
}

BOOST_AUTO_TEST_CASE(backs_off_while_the_gateway_is_unreachable_until_stopped) {
    // A loopback port that nothing listens on: bind one, then let it go.
    unsigned short port = 0;
    {
        boost::asio::io_context io;
        boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
        port = acceptor.local_endpoint().port();
    }
    GatewayRun run(Options("ws://127.0.0.1:" + std::to_string(port) + "/gateway", kBotToken, kGuildsIntent, true));
    run.Gateway().Start();
    BOOST_REQUIRE(run.WaitFor([&] {
        return std::count(run.states.begin(), run.states.end(), GatewayState::Reconnecting) >= 5;
    }));
    run.Read([&] {
        BOOST_TEST(run.Logged("connect failed"));
        BOOST_TEST(run.Logged("(attempt 5)"));
    });
    run.Gateway().Stop();
    BOOST_REQUIRE(run.WaitFor([&] { return run.states.back() == GatewayState::Disconnected; }));
    const auto attempts = run.Count(GatewayState::Connecting);
    std::this_thread::sleep_for(400ms);  // twice the largest backoff
    BOOST_TEST(run.Count(GatewayState::Connecting) == attempts);
    BOOST_TEST(run.Count(GatewayState::Ready) == 0u);
}

BOOST_AUTO_TEST_CASE(commands_are_sent_only_when_ready) {
    EmulatorProcess emulator;
    GatewayRun run(Options(GatewayUrl(emulator), kBotToken, kGuildsIntent, true));
    const json::object request{{"guild_id", kDemoGuildId}, {"query", "al"}, {"limit", 10}};
    run.Gateway().SendCommand(8, request);
    run.Gateway().Start();
    BOOST_REQUIRE(run.WaitFor([&] { return !run.dispatches.empty(); }));
    // op 8 Request Guild Members answers with GUILD_MEMBERS_CHUNK.
    run.Gateway().SendCommand(8, request);
    BOOST_REQUIRE(run.WaitFor([&] {
        return std::any_of(run.dispatches.begin(), run.dispatches.end(),
                           [](const auto& d) { return d.type == "GUILD_MEMBERS_CHUNK"; });
    }));
    run.Read([&] { BOOST_TEST(run.Logged("op 8 dropped: not ready")); });
    // Over 4096 bytes: refused here instead of the server closing with 4002.
    run.Gateway().SendCommand(8, json::object{{"guild_id", kDemoGuildId}, {"query", std::string(5000, 'a')}});
    BOOST_REQUIRE(run.WaitFor([&] { return run.Logged("exceed the 4096-byte limit"); }));
    std::this_thread::sleep_for(200ms);
    BOOST_TEST(run.Count(GatewayState::Reconnecting) == 0u);
    BOOST_TEST((run.Gateway().State() == GatewayState::Ready));
}

BOOST_AUTO_TEST_CASE(the_next_identify_uses_the_updated_token) {
    EmulatorProcess emulator;
    LobbyUser first(emulator, "gateway-token-first"), second(emulator, "gateway-token-second");
    GatewayRun run(Options(GatewayUrl(emulator), first.accessToken, 0, true));
    run.Gateway().Start();
    BOOST_REQUIRE(run.WaitFor([&] { return run.readies.size() == 1; }));
    run.Gateway().UpdateToken(second.accessToken);
    Call(emulator, "POST", "/_emulator/gateway/invalidate", json::object{{"resumable", false}}, {}, 200);
    BOOST_REQUIRE(run.WaitFor([&] { return run.readies.size() == 2; }));
    run.Read([&] { BOOST_TEST(run.readies[0].at("user").at("id") != run.readies[1].at("user").at("id")); });
    second.Say("to the second user");
    BOOST_REQUIRE(run.WaitFor([&] { return !run.dispatches.empty(); }));
    BOOST_TEST(Messages(run) == std::vector<std::string>{"to the second user"});
}

BOOST_AUTO_TEST_SUITE_END()
