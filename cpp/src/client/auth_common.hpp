#pragma once
// What the authorization flows share (auth_flows.cpp, device_auth.cpp). Private.

#include <boost/json/value.hpp>

#include <memory>
#include <string>

#include "client/client_impl.hpp"

namespace platformpp::client {

// The platform's name of an external auth type (the external_auth_type field).
const char* ExternalAuthTypeWire(AuthenticationExternalAuthType type);

void RequireNonEmpty(const std::string& value, const char* field);
void RequireApplicationId(uint64_t applicationId, const char* field = "applicationId");

// Reads a token answer, remembers the access token's expiry (for the expiration callback) and
// delivers it. A refresh refused with invalid_grant is marked Deauthorized.
void CompleteTokenExchange(Client::Impl& impl, const std::shared_ptr<Client::TokenExchangeCallback>& callback,
                           ClientResult result, const boost::json::value& json, bool refresh);

// POST /oauth2/token with `request.form`, answered through CompleteTokenExchange.
void ExchangeTokens(Client::Impl& impl, ApiRequest request, std::shared_ptr<Client::TokenExchangeCallback> callback,
                    bool refresh);

}  // namespace platformpp::client
