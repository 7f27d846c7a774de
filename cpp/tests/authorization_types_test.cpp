#include <boost/test/unit_test.hpp>

#include <type_traits>
#include <utility>

#include "platformpp/authorization.hpp"
#include "platformpp/errors.hpp"

using namespace platformpp;

static_assert(std::is_nothrow_move_constructible_v<AuthorizationArgs>);
static_assert(std::is_nothrow_move_assignable_v<AuthorizationArgs>);
static_assert(std::is_copy_constructible_v<AuthorizationArgs> && std::is_copy_assignable_v<AuthorizationArgs>);
static_assert(std::is_same_v<decltype(std::declval<AuthorizationArgs>().ClientId()), uint64_t>);
static_assert(std::is_same_v<decltype(std::declval<AuthorizationArgs>().Scopes()), std::string>);
static_assert(std::is_same_v<decltype(std::declval<AuthorizationArgs>().State()), std::optional<std::string>>);
static_assert(std::is_same_v<decltype(std::declval<AuthorizationArgs>().CodeChallenge()),
                             std::optional<AuthorizationCodeChallenge>>);
static_assert(std::is_same_v<decltype(std::declval<AuthorizationArgs>().IntegrationType()),
                             std::optional<IntegrationType>>);
static_assert(std::is_same_v<decltype(std::declval<AuthorizationArgs&>().SetScopes(std::string{})), void>);
static_assert(!std::is_convertible_v<AuthorizationArgs, bool>, "operator bool must be explicit");
static_assert(static_cast<int>(IntegrationType::GuildInstall) == 0 && static_cast<int>(IntegrationType::UserInstall) == 1);

BOOST_AUTO_TEST_SUITE(authorization_args)

BOOST_AUTO_TEST_CASE(defaults_leave_every_optional_unset) {
    const AuthorizationArgs args;
    BOOST_TEST(static_cast<bool>(args));
    BOOST_TEST(args.ClientId() == 0u);
    BOOST_TEST(args.Scopes().empty());
    BOOST_TEST(!args.State().has_value());
    BOOST_TEST(!args.Nonce().has_value());
    BOOST_TEST(!args.CodeChallenge().has_value());
    BOOST_TEST(!args.IntegrationType().has_value());
    BOOST_TEST(!args.CustomSchemeParam().has_value());
}

BOOST_AUTO_TEST_CASE(setters_round_trip_and_reset) {
    AuthorizationArgs args;
    args.SetClientId(1234567890123456789ull);
    args.SetScopes("openid sdk.social_layer");
    args.SetState("s");
    args.SetNonce("n");
    AuthorizationCodeChallenge challenge;
    challenge.SetChallenge("abc");
    args.SetCodeChallenge(challenge);
    args.SetIntegrationType(IntegrationType::UserInstall);
    args.SetCustomSchemeParam("mygame");
    BOOST_TEST(args.ClientId() == 1234567890123456789ull);
    BOOST_TEST(args.Scopes() == "openid sdk.social_layer");
    BOOST_TEST(*args.State() == "s");
    BOOST_TEST(*args.Nonce() == "n");
    BOOST_TEST(args.CodeChallenge()->Challenge() == "abc");
    BOOST_TEST((args.CodeChallenge()->Method() == AuthenticationCodeChallengeMethod::S256));
    BOOST_TEST((*args.IntegrationType() == IntegrationType::UserInstall));
    BOOST_TEST(*args.CustomSchemeParam() == "mygame");
    args.SetState(std::nullopt);
    args.SetIntegrationType(std::nullopt);
    BOOST_TEST(!args.State().has_value());
    BOOST_TEST(!args.IntegrationType().has_value());
}

BOOST_AUTO_TEST_CASE(nullobj_is_invalid_and_refuses_use) {
    BOOST_TEST(!static_cast<bool>(AuthorizationArgs::nullobj));
    BOOST_CHECK_THROW(AuthorizationArgs::nullobj.Scopes(), NullHandleError);
    AuthorizationArgs copy = AuthorizationArgs::nullobj;
    BOOST_TEST(!static_cast<bool>(copy));
    BOOST_CHECK_THROW(copy.SetScopes("x"), NullHandleError);
}

BOOST_AUTO_TEST_CASE(move_leaves_source_invalid_and_target_whole) {
    AuthorizationArgs source;
    source.SetScopes("openid");
    source.SetNonce("n");
    AuthorizationArgs target(std::move(source));
    BOOST_TEST(!static_cast<bool>(source));
    BOOST_TEST(static_cast<bool>(target));
    BOOST_TEST(target.Scopes() == "openid");
    BOOST_TEST(*target.Nonce() == "n");

    AuthorizationArgs assigned;
    assigned = std::move(target);
    BOOST_TEST(!static_cast<bool>(target));
    BOOST_TEST(assigned.Scopes() == "openid");

    // Assigning a valid instance to a moved-from one makes it valid again.
    target = AuthorizationArgs{};
    BOOST_TEST(static_cast<bool>(target));
}

BOOST_AUTO_TEST_CASE(copies_are_independent) {
    AuthorizationArgs original;
    original.SetScopes("a");
    original.SetState("s1");
    AuthorizationArgs copy(original);
    copy.SetScopes("b");
    copy.SetState("s2");
    BOOST_TEST(original.Scopes() == "a");
    BOOST_TEST(*original.State() == "s1");
    AuthorizationArgs assigned;
    assigned = original;
    original.SetScopes("c");
    BOOST_TEST(assigned.Scopes() == "a");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(code_challenge_and_verifier)

BOOST_AUTO_TEST_CASE(object_members) {
    static_assert(std::is_nothrow_move_constructible_v<AuthorizationCodeVerifier>);
    static_assert(std::is_nothrow_move_assignable_v<AuthorizationCodeChallenge>);
    BOOST_TEST(!static_cast<bool>(AuthorizationCodeChallenge::nullobj));
    BOOST_TEST(!static_cast<bool>(AuthorizationCodeVerifier::nullobj));
    BOOST_CHECK_THROW(AuthorizationCodeVerifier::nullobj.Verifier(), NullHandleError);
    BOOST_CHECK_THROW(AuthorizationCodeChallenge::nullobj.Challenge(), NullHandleError);

    AuthorizationCodeVerifier verifier;
    verifier.SetVerifier("v");
    AuthorizationCodeChallenge challenge;
    challenge.SetChallenge("c");
    verifier.SetChallenge(challenge);
    AuthorizationCodeVerifier copy = verifier;
    copy.SetVerifier("w");
    BOOST_TEST(verifier.Verifier() == "v");
    AuthorizationCodeVerifier moved = std::move(verifier);
    BOOST_TEST(!static_cast<bool>(verifier));
    BOOST_TEST(moved.Challenge().Challenge() == "c");
}

BOOST_AUTO_TEST_SUITE_END()
