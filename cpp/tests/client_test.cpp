#include <boost/test/unit_test.hpp>

#include <utility>

#include "platformpp/client.hpp"
#include "platformpp/errors.hpp"

using namespace platformpp;

BOOST_AUTO_TEST_SUITE(client)

BOOST_AUTO_TEST_CASE(default_scopes) {
    BOOST_TEST(Client::GetDefaultCommunicationScopes() == "openid sdk.social_layer");
    BOOST_TEST(Client::GetDefaultPresenceScopes() == "openid sdk.social_layer_presence");
}

BOOST_AUTO_TEST_CASE(version_is_the_november_2026_minor) {
    BOOST_TEST(Client::GetVersionMajor() == 1);
    BOOST_TEST(Client::GetVersionMinor() == 11);
    BOOST_TEST(Client::GetVersionPatch() == 0);
}

BOOST_AUTO_TEST_CASE(application_id_and_object_members) {
    Client client;
    BOOST_TEST(static_cast<bool>(client));
    BOOST_TEST(client.GetApplicationId() == 0u);
    client.SetApplicationId(1234);
    BOOST_TEST(client.GetApplicationId() == 1234u);
    Client moved(std::move(client));
    BOOST_TEST(!static_cast<bool>(client));
    BOOST_TEST(moved.GetApplicationId() == 1234u);
    BOOST_CHECK_THROW(client.GetApplicationId(), NullHandleError);
    BOOST_TEST(!static_cast<bool>(Client::nullobj));
}

BOOST_AUTO_TEST_SUITE_END()
