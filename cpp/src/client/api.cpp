#include "client/api.hpp"

#include <boost/asio/error.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "net/url.hpp"

namespace platformpp::client {
namespace {

// The first field error of a 50035 body, as "path.to.field: message".
std::string FirstFieldError(const boost::json::value& errors, const std::string& path) {
    if (!errors.is_object()) return {};
    const auto& object = errors.as_object();
    if (const auto* list = object.if_contains("_errors"); list && list->is_array() && !list->as_array().empty()) {
        const auto& first = list->as_array().front();
        if (first.is_object()) {
            if (const auto* message = first.as_object().if_contains("message"); message && message->is_string())
                return path + ": " + std::string(message->as_string());
        }
    }
    for (const auto& [key, value] : object) {
        auto found = FirstFieldError(value, path.empty() ? std::string(key) : path + "." + std::string(key));
        if (!found.empty()) return found;
    }
    return {};
}

std::string StringMember(const boost::json::value& json, const char* name) {
    if (!json.is_object()) return {};
    const auto* value = json.as_object().if_contains(name);
    return value && value->is_string() ? std::string(value->as_string()) : std::string();
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

net::HttpRequest ToHttpRequest(const std::string& apiBase, const ApiRequest& api) {
    net::HttpRequest request;
    request.method = api.method;
    request.url = apiBase + api.path;
    request.route = api.route;
    if (!api.authorization.empty()) request.headers.emplace_back("Authorization", api.authorization);
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
    if (json.is_object()) {
        const auto& object = json.as_object();
        if (const auto* code = object.if_contains("code"); code && code->is_int64())
            failure.SetErrorCode(static_cast<int32_t>(code->as_int64()));
        std::string message = StringMember(json, "message");
        if (const auto* errors = object.if_contains("errors")) {
            const std::string field = FirstFieldError(*errors, "");
            if (!field.empty()) message += message.empty() ? field : " (" + field + ")";
        }
        if (!message.empty()) failure.SetError(message);
        if (oauthEndpoint) {
            const std::string error = StringMember(json, "error");
            if (!error.empty()) {
                failure.SetType(ErrorType::AuthorizationFailed);
                const std::string description = StringMember(json, "error_description");
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
