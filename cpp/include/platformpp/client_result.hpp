#pragma once
// The outcome of every asynchronous Client call, handed to its callback. Remote failures never
// throw: they arrive here.

#include <cstdint>
#include <string>

namespace platformpp {

enum class ErrorType : int32_t {
    None = 0,
    NetworkError = 1,         // no HTTP answer: connect, TLS, timeout, dropped connection
    HTTPError = 2,            // the platform answered with an error status (Status(), ErrorCode())
    ClientNotReady = 3,       // the call needs a connected or authenticated Client
    Disabled = 4,             // the feature is turned off
    ClientDestroyed = 5,      // the Client was destroyed before the call completed
    ValidationError = 6,      // an argument breaks a rule; Error() names the field
    Aborted = 7,              // cancelled (e.g. AbortAuthorize)
    AuthorizationFailed = 8,  // OAuth2 refused: state mismatch, consent denied, invalid_grant...
    RPCError = 9,             // a client entry point (RPC) request failed
};

class ClientResult {
public:
    static const ClientResult nullobj;

    ClientResult() = default;
    ClientResult(const ClientResult&) = default;
    ClientResult& operator=(const ClientResult&) = default;
    ClientResult(ClientResult&& other) noexcept;
    ClientResult& operator=(ClientResult&& other) noexcept;
    ~ClientResult() = default;

    explicit operator bool() const noexcept { return valid_; }

    // A success, or a failure of the given type with a readable message.
    static ClientResult Success();
    static ClientResult Failure(ErrorType type, std::string error);

    ErrorType Type() const;
    void SetType(ErrorType Type);
    // Readable description of the failure (empty on success). Never contains a secret.
    std::string Error() const;
    void SetError(std::string Error);
    // The platform's error code (WIRE.md: 50035, 10031, ...), or 0.
    int32_t ErrorCode() const;
    void SetErrorCode(int32_t ErrorCode);
    // The HTTP status, or 0 when there was no HTTP answer.
    int32_t Status() const;
    void SetStatus(int32_t Status);
    // The platform's response body, for HTTP errors.
    std::string ResponseBody() const;
    void SetResponseBody(std::string ResponseBody);
    bool Successful() const;
    void SetSuccessful(bool Successful);
    // Whether trying again later can succeed (network errors, 429, 5xx), and after how many seconds.
    bool Retryable() const;
    void SetRetryable(bool Retryable);
    float RetryAfter() const;
    void SetRetryAfter(float RetryAfter);
    // True when the platform answered a token refresh with `invalid_grant`: the user's authorization
    // is gone (revoked, application removed, account banned). Treat it like the
    // APPLICATION_DEAUTHORIZED webhook and unlink the user locally. Type() is AuthorizationFailed.
    bool Deauthorized() const;
    void SetDeauthorized(bool Deauthorized);
    // e.g. "HTTPError 404 (10031): Unknown Lobby".
    std::string ToString() const;

private:
    struct NullTag {};
    explicit ClientResult(NullTag) noexcept : valid_(false) {}
    void RequireValid() const;

    bool valid_ = true;
    ErrorType type_ = ErrorType::None;
    std::string error_;
    int32_t errorCode_ = 0;
    int32_t status_ = 0;
    std::string responseBody_;
    bool successful_ = true;
    bool retryable_ = false;
    float retryAfter_ = 0;
    bool deauthorized_ = false;
};

}  // namespace platformpp
