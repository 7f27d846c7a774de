#include <boost/test/unit_test.hpp>

#include "net/url.hpp"

using namespace platformpp::net;

BOOST_AUTO_TEST_SUITE(urls)

BOOST_AUTO_TEST_CASE(parses_what_the_sdk_is_given) {
    const auto api = ParseUrl("http://127.0.0.1:5123/api/v10");
    BOOST_REQUIRE(api);
    BOOST_TEST(api->scheme == "http");
    BOOST_TEST(api->host == "127.0.0.1");
    BOOST_TEST(api->port == 5123);
    BOOST_TEST(api->target == "/api/v10");
    BOOST_TEST(!api->Secure());
    const auto gw = ParseUrl("WSS://gateway.example/?v=10&encoding=json");
    BOOST_REQUIRE(gw);
    BOOST_TEST(gw->scheme == "wss");
    BOOST_TEST(gw->port == 443);
    BOOST_TEST(gw->target == "/?v=10&encoding=json");
    BOOST_TEST(gw->Secure());
    const auto v6 = ParseUrl("http://[::1]:8080");
    BOOST_REQUIRE(v6);
    BOOST_TEST(v6->host == "::1");
    BOOST_TEST(v6->target == "/");
    BOOST_TEST(v6->Authority() == "[::1]:8080");
    BOOST_TEST(v6->HostHeader() == "[::1]:8080");
    BOOST_TEST(api->HostHeader() == "127.0.0.1:5123");
    BOOST_TEST(gw->HostHeader() == "gateway.example");
    BOOST_TEST(ParseUrl("https://h?x=1")->target == "/?x=1");
}

BOOST_AUTO_TEST_CASE(rejects_what_it_cannot_use) {
    for (const char* bad : {"", "127.0.0.1:80", "ftp://h/", "http://", "http://:80/", "http://h:0/", "http://h:70000/",
                            "http://h:8x/", "http://user@h/", "http://[::1/"}) {
        BOOST_TEST(!ParseUrl(bad).has_value(), bad);
    }
}

BOOST_AUTO_TEST_CASE(query_parameters_and_encoding) {
    const std::string url = "demogame:/authorize/callback?code=a%2Bb&state=x+y&empty=&flag#frag";
    BOOST_TEST(*QueryParameter(url, "code") == "a+b");
    BOOST_TEST(*QueryParameter(url, "state") == "x y");
    BOOST_TEST(*QueryParameter(url, "empty") == "");
    BOOST_TEST(*QueryParameter(url, "flag") == "");
    BOOST_TEST(!QueryParameter(url, "missing").has_value());
    BOOST_TEST(PercentEncode("openid sdk.social_layer") == "openid%20sdk.social_layer");
    BOOST_TEST(PercentEncode("a:/b?c=d") == "a%3A%2Fb%3Fc%3Dd");
    BOOST_TEST(PercentDecode(PercentEncode("ü & =")) == "ü & =");
    BOOST_TEST(PercentDecode("%zz%4") == "%zz%4");
}

BOOST_AUTO_TEST_SUITE_END()
