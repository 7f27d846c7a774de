#include <boost/test/unit_test.hpp>

#include "net/gateway_policy.hpp"

using namespace platformpp::net;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(gateway_policy)

BOOST_AUTO_TEST_CASE(close_codes_are_classified_as_wire_md_says) {
    for (int code : {4004, 4010, 4011, 4012, 4013, 4014}) BOOST_TEST((ClassifyClose(code) == CloseAction::Fatal), code);
    for (int code : {4007, 4009}) BOOST_TEST((ClassifyClose(code) == CloseAction::Reidentify), code);
    for (int code : {0, 1000, 1001, 1006, 1011, 4000, 4001, 4002, 4003, 4005, 4008})
        BOOST_TEST((ClassifyClose(code) == CloseAction::Resume), code);
}

BOOST_AUTO_TEST_CASE(backoff_doubles_up_to_the_cap_with_full_jitter) {
    BOOST_TEST(BackoffCeiling(250ms, 30s, 0).count() == 250);
    BOOST_TEST(BackoffCeiling(250ms, 30s, 1).count() == 500);
    BOOST_TEST(BackoffCeiling(250ms, 30s, 6).count() == 16000);
    BOOST_TEST(BackoffCeiling(250ms, 30s, 7).count() == 30000);
    BOOST_TEST(BackoffCeiling(250ms, 30s, 1000).count() == 30000);
    std::mt19937_64 random(42);
    for (unsigned attempt = 0; attempt < 12; ++attempt) {
        int64_t low = INT64_MAX, high = 0;
        for (int i = 0; i < 400; ++i) {
            const auto delay = BackoffDelay(250ms, 30s, attempt, random).count();
            low = std::min(low, delay);
            high = std::max(high, delay);
        }
        const auto ceiling = BackoffCeiling(250ms, 30s, attempt).count();
        BOOST_TEST(low >= 0);
        BOOST_TEST(high <= ceiling);
        // Full jitter spreads over the whole range, not just near the ceiling.
        BOOST_TEST(low < ceiling / 4);
        BOOST_TEST(high > ceiling * 3 / 4);
    }
    BOOST_TEST(BackoffDelay(0ms, 30s, 3, random).count() == 0);
}

BOOST_AUTO_TEST_CASE(send_window_keeps_commands_under_120_per_minute_with_room_for_heartbeats) {
    const auto reserve = SendWindow::HeartbeatReserve(41250ms);
    BOOST_TEST(reserve == 3u);  // two beats per minute, plus one
    BOOST_TEST(SendWindow::HeartbeatReserve(1000ms) == 60u);  // capped at half the budget
    SendWindow window;
    const auto start = SendWindow::Clock::now();
    auto now = start;
    int sent = 0;
    while (window.WaitForCommand(now, reserve) == SendWindow::Clock::duration::zero()) {
        window.Record(now);
        ++sent;
        now += 10ms;
    }
    BOOST_TEST(sent == 117);
    // The next command waits until the first payload leaves the 60 s window.
    const auto wait = window.WaitForCommand(now, reserve);
    BOOST_TEST((now + wait == start + 60s));
    // Heartbeats are recorded regardless and push commands further out.
    window.Record(now);
    BOOST_TEST((now + window.WaitForCommand(now, reserve) == start + 60s + 10ms));
    BOOST_TEST((window.WaitForCommand(start + 61s, reserve) == SendWindow::Clock::duration::zero()));
}

BOOST_AUTO_TEST_SUITE_END()
