#include "platformpp/client_result.hpp"

#include <pybind11/native_enum.h>

#include "bindings.hpp"
#include "fast_property.hpp"
#include "handle_members.hpp"

namespace py = pybind11;

namespace platformpp::python {

namespace {

bool IsListedHttpStatus(int32_t number) {
    static constexpr int32_t kListed[] = {0, 100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 300, 301, 302, 303, 304, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 423, 424, 425, 426, 428, 429, 431, 500, 501, 502, 503, 504, 505, 506, 507, 508, 510, 511};
    for (const int32_t listed : kListed) {
        if (listed == number) return true;
    }
    return false;
}

}  // namespace

void BindClientResult(py::module_& m) {
    py::native_enum<ErrorType>(m, "ErrorType", "enum.IntEnum", "What kind of failure a ClientResult reports.")
        .value("None_", ErrorType::None, "Success (spelt None_ in Python: None is a keyword).")
        .value("NetworkError", ErrorType::NetworkError, "No HTTP answer: connect, TLS, timeout, dropped connection.")
        .value("HTTPError", ErrorType::HTTPError, "The platform answered with an error status.")
        .value("ClientNotReady", ErrorType::ClientNotReady, "The call needs a connected or authenticated Client.")
        .value("Disabled", ErrorType::Disabled, "The feature is turned off.")
        .value("ClientDestroyed", ErrorType::ClientDestroyed, "The Client was destroyed before the call completed.")
        .value("ValidationError", ErrorType::ValidationError, "An argument breaks a rule; error names the field.")
        .value("Aborted", ErrorType::Aborted, "Cancelled, e.g. by abort_authorize().")
        .value("AuthorizationFailed", ErrorType::AuthorizationFailed, "OAuth2 refused (state mismatch, denied, invalid_grant...).")
        .value("RPCError", ErrorType::RPCError, "A client entry point request failed.")
        .finalize();

    py::native_enum<HttpStatusCode>(m, "HttpStatusCode", "enum.IntEnum",
                                    "The HTTP status of the platform's answer; None_ when there was no HTTP answer. "
                                    "An IntEnum: it compares equal to the number (status == 404).")
        .value("None_", HttpStatusCode::None)
        .value("Continue", HttpStatusCode::Continue)
        .value("SwitchingProtocols", HttpStatusCode::SwitchingProtocols)
        .value("Processing", HttpStatusCode::Processing)
        .value("EarlyHints", HttpStatusCode::EarlyHints)
        .value("Ok", HttpStatusCode::Ok)
        .value("Created", HttpStatusCode::Created)
        .value("Accepted", HttpStatusCode::Accepted)
        .value("NonAuthoritativeInfo", HttpStatusCode::NonAuthoritativeInfo)
        .value("NoContent", HttpStatusCode::NoContent)
        .value("ResetContent", HttpStatusCode::ResetContent)
        .value("PartialContent", HttpStatusCode::PartialContent)
        .value("MultiStatus", HttpStatusCode::MultiStatus)
        .value("AlreadyReported", HttpStatusCode::AlreadyReported)
        .value("ImUsed", HttpStatusCode::ImUsed)
        .value("MultipleChoices", HttpStatusCode::MultipleChoices)
        .value("MovedPermanently", HttpStatusCode::MovedPermanently)
        .value("Found", HttpStatusCode::Found)
        .value("SeeOther", HttpStatusCode::SeeOther)
        .value("NotModified", HttpStatusCode::NotModified)
        .value("TemporaryRedirect", HttpStatusCode::TemporaryRedirect)
        .value("PermanentRedirect", HttpStatusCode::PermanentRedirect)
        .value("BadRequest", HttpStatusCode::BadRequest)
        .value("Unauthorized", HttpStatusCode::Unauthorized)
        .value("PaymentRequired", HttpStatusCode::PaymentRequired)
        .value("Forbidden", HttpStatusCode::Forbidden)
        .value("NotFound", HttpStatusCode::NotFound)
        .value("MethodNotAllowed", HttpStatusCode::MethodNotAllowed)
        .value("NotAcceptable", HttpStatusCode::NotAcceptable)
        .value("ProxyAuthRequired", HttpStatusCode::ProxyAuthRequired)
        .value("RequestTimeout", HttpStatusCode::RequestTimeout)
        .value("Conflict", HttpStatusCode::Conflict)
        .value("Gone", HttpStatusCode::Gone)
        .value("LengthRequired", HttpStatusCode::LengthRequired)
        .value("PreconditionFailed", HttpStatusCode::PreconditionFailed)
        .value("PayloadTooLarge", HttpStatusCode::PayloadTooLarge)
        .value("UriTooLong", HttpStatusCode::UriTooLong)
        .value("UnsupportedMediaType", HttpStatusCode::UnsupportedMediaType)
        .value("RangeNotSatisfiable", HttpStatusCode::RangeNotSatisfiable)
        .value("ExpectationFailed", HttpStatusCode::ExpectationFailed)
        .value("MisdirectedRequest", HttpStatusCode::MisdirectedRequest)
        .value("UnprocessableEntity", HttpStatusCode::UnprocessableEntity)
        .value("Locked", HttpStatusCode::Locked)
        .value("FailedDependency", HttpStatusCode::FailedDependency)
        .value("TooEarly", HttpStatusCode::TooEarly)
        .value("UpgradeRequired", HttpStatusCode::UpgradeRequired)
        .value("PreconditionRequired", HttpStatusCode::PreconditionRequired)
        .value("TooManyRequests", HttpStatusCode::TooManyRequests)
        .value("RequestHeaderFieldsTooLarge", HttpStatusCode::RequestHeaderFieldsTooLarge)
        .value("InternalServerError", HttpStatusCode::InternalServerError)
        .value("NotImplemented", HttpStatusCode::NotImplemented)
        .value("BadGateway", HttpStatusCode::BadGateway)
        .value("ServiceUnavailable", HttpStatusCode::ServiceUnavailable)
        .value("GatewayTimeout", HttpStatusCode::GatewayTimeout)
        .value("HttpVersionNotSupported", HttpStatusCode::HttpVersionNotSupported)
        .value("VariantAlsoNegotiates", HttpStatusCode::VariantAlsoNegotiates)
        .value("InsufficientStorage", HttpStatusCode::InsufficientStorage)
        .value("LoopDetected", HttpStatusCode::LoopDetected)
        .value("NotExtended", HttpStatusCode::NotExtended)
        .value("NetworkAuthorizationRequired", HttpStatusCode::NetworkAuthorizationRequired)
        .finalize();

    py::class_<ClientResult> cls(m, "ClientResult", py::is_final(),
                                 "The outcome of an asynchronous Client call, handed to its callback.");
    cls.def(py::init<>(), "A successful result.")
        .def_property("type", &ClientResult::Type, &ClientResult::SetType, "The kind of failure (ErrorType.None_ on success).")
        .def("to_string", &ClientResult::ToString, "e.g. 'HTTPError 404 (10031): Unknown Lobby'.")
        .def("__str__", &ClientResult::ToString)
        .def("__repr__", [](const ClientResult& r) {
            return r ? "<ClientResult " + r.ToString() + ">" : std::string("<ClientResult: null>");
        });
    DefFastProperty<&ClientResult::Successful, &ClientResult::SetSuccessful>(cls, "successful", "Whether the call succeeded.");
    DefFastProperty<&ClientResult::Error, &ClientResult::SetError>(
        cls, "error", "Readable description of the failure (empty on success); never contains a secret.");
    DefFastProperty<&ClientResult::ErrorCode, &ClientResult::SetErrorCode>(
        cls, "error_code", "The platform's error code (e.g. 50035, 10031), or 0.");
    // An HttpStatusCode member when the number is listed, else the plain int (a status the platform may
    // add): both compare equal to the number.
    cls.def_property(
        "status",
        [](const ClientResult& r) -> py::object {
            const auto code = r.Status();
            const auto number = static_cast<int32_t>(code);
            if (IsListedHttpStatus(number)) return py::cast(code);
            return py::int_(number);
        },
        [](ClientResult& r, int32_t value) { r.SetStatus(value); },
        "The HTTP status (HttpStatusCode; a plain int for a status the enum does not list), HttpStatusCode.None_ "
        "(0) when there was no HTTP answer.");
    DefFastProperty<&ClientResult::ResponseBody, &ClientResult::SetResponseBody>(
        cls, "response_body", "The platform's response body, for HTTP errors.");
    DefFastProperty<&ClientResult::Retryable, &ClientResult::SetRetryable>(
        cls, "retryable", "Whether trying again later can succeed (network errors, 429, 5xx).");
    DefFastProperty<&ClientResult::RetryAfter, &ClientResult::SetRetryAfter>(
        cls, "retry_after", "Seconds to wait before retrying, when known.");
    DefFastProperty<&ClientResult::Deauthorized, &ClientResult::SetDeauthorized>(
        cls, "deauthorized",
        "True when a token refresh answered invalid_grant: the user's authorization is gone. Treat it like the "
        "APPLICATION_DEAUTHORIZED webhook and unlink the user locally.");
    DefHandleMembers(cls);
}

}  // namespace platformpp::python
