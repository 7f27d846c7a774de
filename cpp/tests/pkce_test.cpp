#include <boost/test/unit_test.hpp>

#include <set>

#include "auth/pkce.hpp"
#include "platformpp/client.hpp"

using namespace platformpp;

BOOST_AUTO_TEST_SUITE(pkce_rfc7636)

// RFC 7636, appendix B: the 32 octets, their base64url encoding (the verifier) and its S256 challenge.
BOOST_AUTO_TEST_CASE(appendix_b_vector) {
    const uint8_t octets[32] = {116, 24,  223, 180, 151, 153, 224, 37,  79,  250, 96, 125, 216, 173, 187, 186,
                                22,  212, 37,  77,  105, 214, 191, 240, 91,  88,  5,  88,  83,  132, 141, 121};
    const std::string verifier = pkce::Base64UrlNoPadding(octets, sizeof octets);
    BOOST_TEST(verifier == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
    BOOST_TEST(pkce::S256Challenge(verifier) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

BOOST_AUTO_TEST_CASE(base64url_without_padding_on_every_tail_length) {
    const uint8_t bytes[] = {0xfb, 0xff, 0xbf};
    BOOST_TEST(pkce::Base64UrlNoPadding(bytes, 0) == "");
    BOOST_TEST(pkce::Base64UrlNoPadding(bytes, 1) == "-w");
    BOOST_TEST(pkce::Base64UrlNoPadding(bytes, 2) == "-_8");
    BOOST_TEST(pkce::Base64UrlNoPadding(bytes, 3) == "-_-_");
}

BOOST_AUTO_TEST_CASE(client_creates_fresh_s256_pairs) {
    const Client client;
    std::set<std::string> seen;
    for (int i = 0; i < 64; ++i) {
        const AuthorizationCodeVerifier pair = client.CreateAuthorizationCodeVerifier();
        const std::string verifier = pair.Verifier();
        BOOST_TEST(verifier.size() == 43u);
        BOOST_TEST(verifier.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
                   std::string::npos);
        BOOST_TEST((pair.Challenge().Method() == AuthenticationCodeChallengeMethod::S256));
        BOOST_TEST(pair.Challenge().Challenge() == pkce::S256Challenge(verifier));
        seen.insert(verifier);
    }
    BOOST_TEST(seen.size() == 64u);
}

BOOST_AUTO_TEST_SUITE_END()
