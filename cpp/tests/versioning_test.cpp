#include <boost/test/unit_test.hpp>

#include "platformpp/errors.hpp"
#include "platformpp/versioning.hpp"

using namespace platformpp::versioning;

namespace {
std::vector<int32_t> Minors(const std::vector<MinorVersion>& versions) {
    std::vector<int32_t> out;
    for (const auto& v : versions) out.push_back(v.minor);
    return out;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(versioning)

BOOST_AUTO_TEST_CASE(three_minors_a_year_anchored_on_1_10_in_july_2026) {
    const Date d110 = ReleaseDate(1, 10);
    BOOST_TEST(d110.year == 2026);
    BOOST_TEST(d110.month == 7);
    BOOST_TEST(ReleaseDate(1, 11).month == 11);
    BOOST_TEST(ReleaseDate(1, 9).month == 4);
    BOOST_TEST(ReleaseDate(1, 12).year == 2027);
    BOOST_TEST(ReleaseDate(1, 12).month == 4);
    BOOST_TEST(ReleaseDate(1, 8).year == 2025);
    BOOST_TEST(ReleaseDate(1, 8).month == 11);
    BOOST_TEST(ReleaseDate(1, 0).year == 2023);
    BOOST_TEST(ReleaseDate(1, 0).month == 4);
}

BOOST_AUTO_TEST_CASE(supported_window_is_the_five_most_recent) {
    BOOST_TEST(Minors(SupportedMinors({2026, 7, 15})) == (std::vector<int32_t>{6, 7, 8, 9, 10}));
    BOOST_TEST(Minors(SupportedMinors({2026, 11, 21})) == (std::vector<int32_t>{7, 8, 9, 10, 11}));
    BOOST_TEST(Minors(SupportedMinors({2026, 6, 30})) == (std::vector<int32_t>{5, 6, 7, 8, 9}));
    BOOST_TEST(Minors(SupportedMinors({2023, 7, 1})) == (std::vector<int32_t>{0, 1}));
}

BOOST_AUTO_TEST_CASE(one_five_and_earlier_are_end_of_life_from_july_2026) {
    BOOST_TEST(IsSupported({1, 5}, {2026, 6, 30}));
    BOOST_TEST(!IsSupported({1, 5}, {2026, 7, 1}));
    BOOST_TEST(!IsSupported({1, 4}, {2026, 7, 15}));
    BOOST_TEST(IsSupported({1, 6}, {2026, 7, 15}));
    BOOST_TEST(!IsSupported({1, 12}, {2026, 11, 21}));  // not released yet
    BOOST_TEST(EndOfLife(1, 5).year == 2026);
    BOOST_TEST(EndOfLife(1, 5).month == 7);
}

BOOST_AUTO_TEST_CASE(unknown_versions_are_validation_errors) {
    BOOST_CHECK_THROW(ReleaseDate(2, 0), platformpp::ValidationError);
    BOOST_CHECK_THROW(ReleaseDate(1, -1), platformpp::ValidationError);
    BOOST_CHECK_THROW(SupportedMinors({2026, 13, 1}), platformpp::ValidationError);
}

BOOST_AUTO_TEST_SUITE_END()
