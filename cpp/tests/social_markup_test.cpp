// ResolveMarkup: a message's mentions and custom emojis as a game shows them (MessageHandle::Content).
#include <boost/test/unit_test.hpp>

#include "social/markup.hpp"

using platformpp::social::MarkupNames;
using platformpp::social::ResolveMarkup;

namespace {

MarkupNames Names() {
    MarkupNames names;
    names.user = [](uint64_t id) -> std::optional<std::string> {
        if (id == 42) return std::string("Bob");
        return std::nullopt;
    };
    names.channel = [](uint64_t id) -> std::optional<std::string> {
        if (id == 7) return std::string("general");
        return std::nullopt;
    };
    return names;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(message_markup)

BOOST_AUTO_TEST_CASE(known_mentions_and_custom_emojis_are_resolved) {
    BOOST_TEST(ResolveMarkup("hi <@42> and <@!42>", Names()) == "hi @Bob and @Bob");
    BOOST_TEST(ResolveMarkup("see <#7>", Names()) == "see #general");
    BOOST_TEST(ResolveMarkup("<:blob:123> <a:wave:456>!", Names()) == ":blob: :wave:!");
}

BOOST_AUTO_TEST_CASE(unknown_or_malformed_markup_stays_as_written) {
    BOOST_TEST(ResolveMarkup("hi <@43> in <#8>", Names()) == "hi <@43> in <#8>");
    BOOST_TEST(ResolveMarkup("<@> <@x> <#> <:a:> <::1> <b:c:1>", Names()) == "<@> <@x> <#> <:a:> <::1> <b:c:1>");
    BOOST_TEST(ResolveMarkup("<@18446744073709551616>", Names()) == "<@18446744073709551616>");  // > 64 bits
    BOOST_TEST(ResolveMarkup("a < b > c", Names()) == "a < b > c");
    BOOST_TEST(ResolveMarkup("<<@42>", Names()) == "<@Bob");
    BOOST_TEST(ResolveMarkup("trailing <@42", Names()) == "trailing <@42");
    BOOST_TEST(ResolveMarkup("", Names()).empty());
    BOOST_TEST(ResolveMarkup("<@42>", MarkupNames{}) == "<@42>");  // no names at all
}

BOOST_AUTO_TEST_SUITE_END()
