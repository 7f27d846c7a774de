// The one translation unit that compiles Boost.Test's header-only runner for the e2ee tests.
#define BOOST_TEST_MODULE e2ee
#include <boost/test/included/unit_test.hpp>
