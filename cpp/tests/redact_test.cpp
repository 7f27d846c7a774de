#include <boost/test/unit_test.hpp>

#include "core/redact.hpp"

using platformpp::core::RedactSecrets;

BOOST_AUTO_TEST_SUITE(redaction)

BOOST_AUTO_TEST_CASE(authorization_headers) {
    BOOST_TEST(RedactSecrets("Authorization: Bearer abc.def-ghi") == "Authorization: Bearer [redacted]");
    BOOST_TEST(RedactSecrets("Authorization: Bot MTAw.x.y\r\nHost: h") == "Authorization: Bot [redacted]\r\nHost: h");
    BOOST_TEST(RedactSecrets("Basic dXNlcjpwYXNz") == "Basic [redacted]");
}

BOOST_AUTO_TEST_CASE(form_and_query_fields) {
    BOOST_TEST(RedactSecrets("grant_type=authorization_code&code=XYZ&code_verifier=V123&redirect_uri=a") ==
               "grant_type=authorization_code&code=[redacted]&code_verifier=[redacted]&redirect_uri=a");
    BOOST_TEST(RedactSecrets("GET /cb?code=abc&state=s1 HTTP/1.1") == "GET /cb?code=[redacted]&state=[redacted] HTTP/1.1");
    BOOST_TEST(RedactSecrets("client_secret=shh") == "client_secret=[redacted]");
}

BOOST_AUTO_TEST_CASE(json_members) {
    BOOST_TEST(RedactSecrets(R"({"access_token": "a1", "token_type": "Bearer", "refresh_token":"r\"1","expires_in":604800})") ==
               R"({"access_token": "[redacted]", "token_type": "Bearer", "refresh_token":"[redacted]","expires_in":604800})");
    BOOST_TEST(RedactSecrets(R"({"op":2,"d":{"token":"MTAw.a.b","intents":1}})") ==
               R"({"op":2,"d":{"token":"[redacted]","intents":1}})");
}

BOOST_AUTO_TEST_CASE(keeps_what_is_not_secret) {
    const std::string plain = "token_type=Bearer; lobby 123 created; codes=3; statement";
    BOOST_TEST(RedactSecrets(plain) == plain);
    BOOST_TEST(RedactSecrets("") == "");
}

BOOST_AUTO_TEST_SUITE_END()
