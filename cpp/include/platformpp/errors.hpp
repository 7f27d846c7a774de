#pragma once
// Exceptions the SDK throws for programming errors (a null handle, an invalid argument). Failures of
// remote calls never throw: they arrive as a ClientResult in the callback.

#include <stdexcept>
#include <string>

namespace platformpp {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A handle that holds no object (its class's nullobj, or moved from) was used.
class NullHandleError : public Error {
public:
    using Error::Error;
};

// An argument breaks a rule. Field() names the field (as the C++ API spells it); what() names the
// field and the rule, never the offending value when that value may be a secret.
class ValidationError : public Error {
public:
    ValidationError(std::string field, const std::string& rule)
      : Error(field + ": " + rule), field_(std::move(field)) {}
    const std::string& Field() const noexcept { return field_; }

private:
    std::string field_;
};

}  // namespace platformpp
