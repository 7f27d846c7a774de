#include <boost/test/unit_test.hpp>

#include "support/emulator_process.hpp"

using platformpp::testing::EmulatorProcess;
using platformpp::testing::TestRequest;

BOOST_AUTO_TEST_SUITE(emulator_process)

BOOST_AUTO_TEST_CASE(starts_serves_and_stops) {
    EmulatorProcess emulator;
    BOOST_TEST(emulator.BaseUrl().rfind("http://127.0.0.1:", 0) == 0u);
    const auto gateway = TestRequest(emulator, "GET", "/api/v10/gateway");
    BOOST_TEST(gateway.status == 200);
    BOOST_TEST(gateway.body.find("\"url\"") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
