// Boost.Test's runner for the integration tests, which talk to a live emulator child process.
#define BOOST_TEST_MODULE platformpp_integration
#include <boost/test/included/unit_test.hpp>
