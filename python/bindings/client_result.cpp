#include "platformpp/client_result.hpp"

#include <pybind11/native_enum.h>

#include "bindings.hpp"
#include "fast_property.hpp"
#include "handle_members.hpp"

namespace py = pybind11;

namespace platformpp::python {

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
    DefFastProperty<&ClientResult::Status, &ClientResult::SetStatus>(
        cls, "status", "The HTTP status, or 0 when there was no HTTP answer.");
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
