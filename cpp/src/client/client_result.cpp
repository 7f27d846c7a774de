#include "platformpp/client_result.hpp"


#include <ostream>
#include <type_traits>
#include <utility>

#include "platformpp/errors.hpp"

namespace platformpp {

static_assert(std::is_nothrow_move_constructible_v<ClientResult>);
static_assert(std::is_nothrow_move_assignable_v<ClientResult>);

const ClientResult ClientResult::nullobj{NullTag{}};

ClientResult::ClientResult(ClientResult&& other) noexcept
  : valid_(std::exchange(other.valid_, false)),
    type_(other.type_),
    error_(std::move(other.error_)),
    errorCode_(other.errorCode_),
    status_(other.status_),
    responseBody_(std::move(other.responseBody_)),
    successful_(other.successful_),
    retryable_(other.retryable_),
    retryAfter_(other.retryAfter_),
    deauthorized_(other.deauthorized_) {}

ClientResult& ClientResult::operator=(ClientResult&& other) noexcept {
    if (this != &other) {
        valid_ = std::exchange(other.valid_, false);
        type_ = other.type_;
        error_ = std::move(other.error_);
        errorCode_ = other.errorCode_;
        status_ = other.status_;
        responseBody_ = std::move(other.responseBody_);
        successful_ = other.successful_;
        retryable_ = other.retryable_;
        retryAfter_ = other.retryAfter_;
        deauthorized_ = other.deauthorized_;
    }
    return *this;
}

ClientResult ClientResult::Success() { return ClientResult{}; }

ClientResult ClientResult::Failure(ErrorType type, std::string error) {
    ClientResult result;
    result.type_ = type;
    result.error_ = std::move(error);
    result.successful_ = false;
    result.retryable_ = type == ErrorType::NetworkError;
    return result;
}

void ClientResult::RequireValid() const {
    if (!valid_) throw NullHandleError("ClientResult: the instance is null (nullobj or moved from)");
}

ErrorType ClientResult::Type() const { RequireValid(); return type_; }
void ClientResult::SetType(ErrorType Type) { RequireValid(); type_ = Type; }
std::string ClientResult::Error() const { RequireValid(); return error_; }
void ClientResult::SetError(std::string Error) { RequireValid(); error_ = std::move(Error); }
int32_t ClientResult::ErrorCode() const { RequireValid(); return errorCode_; }
void ClientResult::SetErrorCode(int32_t ErrorCode) { RequireValid(); errorCode_ = ErrorCode; }
std::ostream& operator<<(std::ostream& out, HttpStatusCode code) { return out << static_cast<int32_t>(code); }

HttpStatusCode ClientResult::Status() const { RequireValid(); return static_cast<HttpStatusCode>(status_); }
void ClientResult::SetStatus(HttpStatusCode Status) { RequireValid(); status_ = static_cast<int32_t>(Status); }
void ClientResult::SetStatus(int32_t Status) { RequireValid(); status_ = Status; }
std::string ClientResult::ResponseBody() const { RequireValid(); return responseBody_; }
void ClientResult::SetResponseBody(std::string ResponseBody) { RequireValid(); responseBody_ = std::move(ResponseBody); }
bool ClientResult::Successful() const { RequireValid(); return successful_; }
void ClientResult::SetSuccessful(bool Successful) { RequireValid(); successful_ = Successful; }
bool ClientResult::Retryable() const { RequireValid(); return retryable_; }
void ClientResult::SetRetryable(bool Retryable) { RequireValid(); retryable_ = Retryable; }
float ClientResult::RetryAfter() const { RequireValid(); return retryAfter_; }
void ClientResult::SetRetryAfter(float RetryAfter) { RequireValid(); retryAfter_ = RetryAfter; }
bool ClientResult::Deauthorized() const { RequireValid(); return deauthorized_; }
void ClientResult::SetDeauthorized(bool Deauthorized) { RequireValid(); deauthorized_ = Deauthorized; }

std::string ClientResult::ToString() const {
    RequireValid();
    static constexpr const char* kNames[] = {"None",         "NetworkError", "HTTPError",  "ClientNotReady",
                                             "Disabled",     "ClientDestroyed", "ValidationError", "Aborted",
                                             "AuthorizationFailed", "RPCError"};
    if (successful_) return "Success";
    std::string text = kNames[static_cast<int>(type_)];
    if (status_ != 0) text += " " + std::to_string(status_);
    if (errorCode_ != 0) text += " (" + std::to_string(errorCode_) + ")";
    if (!error_.empty()) text += ": " + error_;
    if (retryable_) text += retryAfter_ > 0 ? " [retry after " + std::to_string(retryAfter_) + " s]" : " [retryable]";
    return text;
}

}  // namespace platformpp
