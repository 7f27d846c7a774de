#pragma once
// Requests to the platform's HTTP API and how their answers become ClientResults. Private.

#include <boost/json/value.hpp>

#include <string>
#include <utility>
#include <vector>

#include "net/http_client.hpp"
#include "platformpp/client_result.hpp"

namespace platformpp::client {

enum class Body { None, Json, Form };

struct ApiRequest {
    std::string method = "GET";
    std::string path;        // under the API base, e.g. "/users/@me"
    std::string route;       // rate-limit route, e.g. "GET /users/@me" (defaults to method + path)
    Body bodyKind = Body::None;
    boost::json::value json;                                  // Body::Json
    std::vector<std::pair<std::string, std::string>> form;  // Body::Form
    // The OAuth2 access token to send, as "Authorization: Bearer <token>" (ToHttpRequest writes the
    // header, and only there); empty for a call without credentials.
    std::string token;
    bool oauthEndpoint = false;  // errors are OAuth2 bodies ({"error": ...}): AuthorizationFailed
};

using Form = std::vector<std::pair<std::string, std::string>>;

// A request under the API base with a JSON body, or none when `body` is null. `route` defaults to
// method + path.
ApiRequest Request(std::string method, std::string path, boost::json::value body = nullptr, std::string route = {});
// A POST of `form` to an OAuth2 endpoint (its errors are OAuth2 bodies).
ApiRequest OAuthForm(std::string path, Form form, std::string route = {});

// The HTTP request for `api` against `apiBase`.
net::HttpRequest ToHttpRequest(const std::string& apiBase, const ApiRequest& api);

// Maps an HTTP answer (or its absence) to a ClientResult; `json` receives the parsed body.
ClientResult ToClientResult(const net::HttpResponse& response, bool oauthEndpoint, bool shuttingDown,
                            boost::json::value& json);

// application/x-www-form-urlencoded
std::string FormEncode(const std::vector<std::pair<std::string, std::string>>& fields);

}  // namespace platformpp::client
