// The one translation unit that compiles Boost.Test's header-only runner.
#define BOOST_TEST_MODULE platformpp
#include <boost/test/included/unit_test.hpp>
