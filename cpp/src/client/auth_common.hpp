#pragma once
// What the authorization flows share (auth_flows.cpp, device_auth.cpp). Private.

#include <boost/json/value.hpp>

#include <memory>
#include <string>
#include <tuple>

#include "client/begin.hpp"
#include "client/client_impl.hpp"

namespace platformpp::client {

// The platform's name of an external auth type (the external_auth_type field).
const char* ExternalAuthTypeWire(AuthenticationExternalAuthType type);

void RequireNonEmpty(const std::string& value, const char* field);
void RequireApplicationId(uint64_t applicationId, const char* field = "applicationId");

// What a TokenExchangeCallback is given after its result.
using TokenValues = std::tuple<std::string, std::string, AuthorizationTokenType, int32_t, std::string>;

// Reads a token answer and remembers the access token's expiry (for the expiration callback). A
// refresh refused with invalid_grant is marked Deauthorized; an answer without an access token fails.
TokenValues ReadTokenExchange(Client::Impl& impl, ClientResult& result, const boost::json::value& json, bool refresh);

// POST /oauth2/token with `form`, answered through ReadTokenExchange.
void ExchangeTokens(const Started<Client::TokenExchangeCallback>& call, Form form, bool refresh);

}  // namespace platformpp::client
