#include <boost/test/unit_test.hpp>

#include "platformpp/authorization.hpp"
#include "platformpp/errors.hpp"

using namespace platformpp;

BOOST_AUTO_TEST_SUITE(authorize_rules)

BOOST_AUTO_TEST_CASE(client_id_defaults_to_the_application_id) {
    AuthorizationArgs args;
    BOOST_TEST(authorize::ResolveClientId(args, 42) == 42u);
    args.SetClientId(7);
    BOOST_TEST(authorize::ResolveClientId(args, 42) == 7u);
    args.SetClientId(0);
    try {
        authorize::ResolveClientId(args, 0);
        BOOST_FAIL("expected ValidationError");
    } catch (const ValidationError& e) {
        BOOST_TEST(e.Field() == "ClientId");
    }
}

BOOST_AUTO_TEST_CASE(redirect_uri_standard_form_when_no_custom_scheme) {
    AuthorizationArgs args;
    BOOST_TEST(authorize::ResolveRedirectUri(args, 1234) == "platform-1234:/authorize/callback");
    args.SetClientId(99);
    BOOST_TEST(authorize::ResolveRedirectUri(args, 1234) == "platform-99:/authorize/callback");
}

BOOST_AUTO_TEST_CASE(redirect_uri_uses_the_custom_scheme) {
    AuthorizationArgs args;
    args.SetCustomSchemeParam("my-game.v2+beta");
    BOOST_TEST(authorize::ResolveRedirectUri(args, 0) == "my-game.v2+beta:/authorize/callback");
}

BOOST_AUTO_TEST_CASE(invalid_schemes_name_the_field) {
    for (const char* bad : {"", "1game", "my game", "game:", "-x", "g\xc3\xa9", "a/b"}) {
        AuthorizationArgs args;
        args.SetCustomSchemeParam(std::string(bad));
        try {
            authorize::ResolveRedirectUri(args, 1);
            BOOST_FAIL("expected ValidationError for scheme '" << bad << "'");
        } catch (const ValidationError& e) {
            BOOST_TEST(e.Field() == "CustomSchemeParam");
            BOOST_TEST(std::string(e.what()).rfind("CustomSchemeParam: ", 0) == 0u);
        }
    }
}

BOOST_AUTO_TEST_CASE(state_is_kept_or_generated) {
    AuthorizationArgs args;
    args.SetState("given");
    BOOST_TEST(authorize::ResolveState(args) == "given");
    args.SetState(std::nullopt);
    const std::string a = authorize::ResolveState(args);
    const std::string b = authorize::ResolveState(args);
    BOOST_TEST(a.size() == 43u);  // 32 bytes, base64url without padding
    BOOST_TEST(a != b);
    BOOST_TEST(a.find_first_of("+/=") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
