#include "client/api.hpp"

#include <boost/asio/error.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "core/json_fields.hpp"
#include "net/url.hpp"

namespace platformpp::client {
namespace {

// The first field error of a 50035 body, as "path.to.field: message".
std::string FirstFieldError(const boost::json::value& errors, const std::string& path) {
    const auto* object = json_fields::Object(errors);
    if (object == nullptr) return {};
    if (const auto* list = json_fields::Array(*object, "_errors"); list && !list->empty()) {
        if (const auto* first = json_fields::Object(list->front())) {
            if (const auto message = json_fields::OptionalString(*first, "message")) return path + ": " + *message;
        }
    }
    for (const auto& [key, value] : *object) {
        auto found = FirstFieldError(value, path.empty() ? std::string(key) : path + "." + std::string(key));
        if (!found.empty()) return found;
    }
    return {};
}

}  // namespace

std::string FormEncode(const std::vector<std::pair<std::string, std::string>>& fields) {
    std::string out;
    for (const auto& [name, value] : fields) {
        if (!out.empty()) out += '&';
        out += net::PercentEncode(name) + '=' + net::PercentEncode(value);
    }
    return out;
}

ApiRequest Request(std::string method, std::string path, boost::json::value body, std::string route) {
    ApiRequest request;
    request.method = std::move(method);
    request.path = std::move(path);
    request.route = std::move(route);
    if (!body.is_null()) {
        request.bodyKind = Body::Json;
        request.json = std::move(body);
    }
    return request;
}

ApiRequest OAuthForm(std::string path, Form form, std::string route) {
    ApiRequest request;
    request.method = "POST";
    request.path = std::move(path);
    request.route = std::move(route);
    request.bodyKind = Body::Form;
    request.form = std::move(form);
    request.oauthEndpoint = true;
    return request;
}

net::HttpRequest ToHttpRequest(const std::string& apiBase, const ApiRequest& api) {
    net::HttpRequest request;
    request.method = api.method;
    request.url = apiBase + api.path;
    request.route = api.route;
    // The platform's user tokens are OAuth2 access tokens, whatever AuthorizationTokenType the game
    // names them with: they always go as Bearer credentials.
    if (!api.token.empty()) request.headers.emplace_back("Authorization", "Bearer " + api.token);
    if (api.bodyKind == Body::Json) {
        request.body = boost::json::serialize(api.json);
        request.contentType = "application/json";
    } else if (api.bodyKind == Body::Form) {
        request.body = FormEncode(api.form);
        request.contentType = "application/x-www-form-urlencoded";
    }
    return request;
}

ClientResult ToClientResult(const net::HttpResponse& response, bool oauthEndpoint, bool shuttingDown,
                            boost::json::value& json) {
    if (response.error) {
        if (response.error == boost::asio::error::operation_aborted && shuttingDown)
            return ClientResult::Failure(ErrorType::ClientDestroyed, "the Client was destroyed");
        if (response.error == boost::asio::error::operation_aborted)
            return ClientResult::Failure(ErrorType::Aborted, response.errorDetail);
        return ClientResult::Failure(ErrorType::NetworkError, response.errorDetail);
    }
    boost::system::error_code parseError;
    json = response.body.empty() ? boost::json::value() : boost::json::parse(response.body, parseError);
    if (parseError) json = nullptr;
    if (response.status >= 200 && response.status < 300) {
        ClientResult ok = ClientResult::Success();
        ok.SetStatus(response.status);
        return ok;
    }
    ClientResult failure = ClientResult::Failure(ErrorType::HTTPError, "HTTP " + std::to_string(response.status));
    failure.SetStatus(response.status);
    failure.SetResponseBody(response.body);
    if (const auto* object = json_fields::Object(json)) {
        if (const auto code = json_fields::OptionalInteger(*object, "code")) failure.SetErrorCode(static_cast<int32_t>(*code));
        std::string message = json_fields::String(*object, "message");
        if (const auto* errors = object->if_contains("errors")) {
            const std::string field = FirstFieldError(*errors, "");
            if (!field.empty()) message += message.empty() ? field : " (" + field + ")";
        }
        if (!message.empty()) failure.SetError(message);
        if (oauthEndpoint) {
            const std::string error = json_fields::String(*object, "error");
            if (!error.empty()) {
                failure.SetType(ErrorType::AuthorizationFailed);
                const std::string description = json_fields::String(*object, "error_description");
                failure.SetError(description.empty() ? error : error + ": " + description);
            }
        }
    }
    if (response.status == 429 || response.status >= 500) {
        failure.SetRetryable(true);
        failure.SetRetryAfter(static_cast<float>(response.retryAfterSeconds));
    }
    return failure;
}

}  // namespace platformpp::client
