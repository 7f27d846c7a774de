#include <boost/test/unit_test.hpp>

#include <poll.h>

#include <stdexcept>
#include <thread>
#include <vector>

#include "core/callback_queue.hpp"
#include "platformpp/callbacks.hpp"

using platformpp::core::CallbackQueue;

BOOST_AUTO_TEST_SUITE(callbacks)

BOOST_AUTO_TEST_CASE(run_in_posting_order_on_the_calling_thread) {
    std::vector<int> seen;
    const auto caller = std::this_thread::get_id();
    std::thread producer([&] {
        for (int i = 0; i < 100; ++i) {
            CallbackQueue::Global().Post([&seen, i, caller] {
                BOOST_TEST((std::this_thread::get_id() == caller));
                seen.push_back(i);
            });
        }
    });
    producer.join();
    BOOST_TEST(seen.empty());
    platformpp::RunCallbacks();
    BOOST_TEST(seen.size() == 100u);
    for (int i = 0; i < 100; ++i) BOOST_TEST(seen[i] == i);
}

BOOST_AUTO_TEST_CASE(callbacks_queued_while_running_wait_for_the_next_call) {
    int runs = 0;
    CallbackQueue::Global().Post([&] {
        ++runs;
        CallbackQueue::Global().Post([&] { ++runs; });
    });
    platformpp::RunCallbacks();
    BOOST_TEST(runs == 1);
    platformpp::RunCallbacks();
    BOOST_TEST(runs == 2);
}

BOOST_AUTO_TEST_CASE(a_throwing_callback_loses_nothing_after_it) {
    std::vector<int> seen;
    CallbackQueue::Global().Post([&] { seen.push_back(1); });
    CallbackQueue::Global().Post([] { throw std::runtime_error("boom"); });
    CallbackQueue::Global().Post([&] { seen.push_back(3); });
    BOOST_CHECK_THROW(platformpp::RunCallbacks(), std::runtime_error);
    BOOST_TEST(seen.size() == 1u);
    BOOST_TEST(CallbackQueue::Global().Size() == 1u);
    platformpp::RunCallbacks();
    BOOST_TEST(seen.size() == 2u);
    BOOST_TEST(seen.back() == 3);
}

namespace {
bool Readable(int fd) {
    pollfd p{fd, POLLIN, 0};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}
}  // namespace

BOOST_AUTO_TEST_CASE(the_wakeup_fd_is_readable_exactly_while_callbacks_wait) {
    platformpp::RunCallbacks();
    const int fd = platformpp::CallbackWakeupFd();
    BOOST_TEST(fd >= 0);
    BOOST_TEST(!Readable(fd));
    std::thread producer([] { CallbackQueue::Global().Post([] {}); });
    producer.join();
    BOOST_TEST(Readable(fd));
    CallbackQueue::Global().Post([] {});
    BOOST_TEST(Readable(fd));
    platformpp::RunCallbacks();
    BOOST_TEST(!Readable(fd));
}

BOOST_AUTO_TEST_SUITE_END()
