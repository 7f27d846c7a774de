#pragma once
// The outcome of every asynchronous Client call, handed to its callback. Remote failures never
// throw: they arrive here.

#include <cstdint>
#include <iosfwd>
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

// The HTTP status of the platform's answer (ClientResult::Status()); None when there was no HTTP answer.
// A status the platform may send that is not listed keeps its number (static_cast from int32_t).
enum class HttpStatusCode : int32_t {
    None = 0,
    Continue = 100,
    SwitchingProtocols = 101,
    Processing = 102,
    EarlyHints = 103,
    Ok = 200,
    Created = 201,
    Accepted = 202,
    NonAuthoritativeInfo = 203,
    NoContent = 204,
    ResetContent = 205,
    PartialContent = 206,
    MultiStatus = 207,
    AlreadyReported = 208,
    ImUsed = 209,
    MultipleChoices = 300,
    MovedPermanently = 301,
    Found = 302,
    SeeOther = 303,
    NotModified = 304,
    TemporaryRedirect = 307,
    PermanentRedirect = 308,
    BadRequest = 400,
    Unauthorized = 401,
    PaymentRequired = 402,
    Forbidden = 403,
    NotFound = 404,
    MethodNotAllowed = 405,
    NotAcceptable = 406,
    ProxyAuthRequired = 407,
    RequestTimeout = 408,
    Conflict = 409,
    Gone = 410,
    LengthRequired = 411,
    PreconditionFailed = 412,
    PayloadTooLarge = 413,
    UriTooLong = 414,
    UnsupportedMediaType = 415,
    RangeNotSatisfiable = 416,
    ExpectationFailed = 417,
    MisdirectedRequest = 421,
    UnprocessableEntity = 422,
    Locked = 423,
    FailedDependency = 424,
    TooEarly = 425,
    UpgradeRequired = 426,
    PreconditionRequired = 428,
    TooManyRequests = 429,
    RequestHeaderFieldsTooLarge = 431,
    InternalServerError = 500,
    NotImplemented = 501,
    BadGateway = 502,
    ServiceUnavailable = 503,
    GatewayTimeout = 504,
    HttpVersionNotSupported = 505,
    VariantAlsoNegotiates = 506,
    InsufficientStorage = 507,
    LoopDetected = 508,
    NotExtended = 510,
    NetworkAuthorizationRequired = 511,
};

// Comparisons with plain numbers (`result.Status() == 404`), as code written for the int status reads.
constexpr bool operator==(HttpStatusCode code, int32_t number) { return static_cast<int32_t>(code) == number; }
constexpr bool operator==(int32_t number, HttpStatusCode code) { return code == number; }
constexpr bool operator!=(HttpStatusCode code, int32_t number) { return !(code == number); }
constexpr bool operator!=(int32_t number, HttpStatusCode code) { return !(code == number); }
// Prints the number ("404"), as the int status printed.
std::ostream& operator<<(std::ostream& out, HttpStatusCode code);

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
    // The platform's error code (docs/wire.md: 50035, 10031, ...), or 0.
    int32_t ErrorCode() const;
    void SetErrorCode(int32_t ErrorCode);
    // The HTTP status, or HttpStatusCode::None when there was no HTTP answer.
    HttpStatusCode Status() const;
    void SetStatus(HttpStatusCode Status);
    // The same from the number the HTTP layer read (any status, listed in HttpStatusCode or not).
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
