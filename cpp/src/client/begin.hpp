#pragma once
// How every Client call that answers through a callback begins, whatever its area: the callback is
// shared (an empty one throws ValidationError to the caller: there is nobody to answer), the
// arguments are validated, and a call made on the user's behalf takes the Client's token. A failure
// goes to the callback, with `defaults` for its other parameters, and the call ends there. Private.

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "client/client_impl.hpp"
#include "platformpp/errors.hpp"

namespace platformpp::client {

template <typename Callback>
std::shared_ptr<Callback> Share(Callback callback) {
    if (!callback) throw ValidationError("callback", "must not be empty");
    return std::make_shared<Callback>(std::move(callback));
}

// What a call needs before it reaches the network.
enum class Needs {
    ValidArguments,  // e.g. the token exchanges, which carry their own credentials
    Token,           // the social calls: valid arguments and a Client with a token (UpdateToken)
};

// Runs `validate` (which throws ValidationError) and, for Needs::Token, checks that the Client has a
// token. Returns the token to act with ("" for Needs::ValidArguments), or nullopt after delivering
// the failure to `callback`.
template <typename Callback, typename Validate, typename... Defaults>
std::optional<std::string> Begin(Client::Impl& impl, Needs needs, const std::shared_ptr<Callback>& callback,
                                 Validate&& validate, Defaults... defaults) {
    ClientResult failure = ClientResult::Success();
    try {
        validate();
        if (needs == Needs::ValidArguments) return std::string();
        if (auto token = impl.CurrentToken()) return token;
        failure = ClientResult::Failure(ErrorType::ClientNotReady, "the Client has no token: call UpdateToken first");
    } catch (const ValidationError& error) {
        failure = ClientResult::Failure(ErrorType::ValidationError, error.what());
    }
    impl.Deliver([callback, failure, defaults...] { (*callback)(failure, defaults...); });
    return std::nullopt;
}

// The token exchanges: Begin for a TokenExchangeCallback with Needs::ValidArguments (a failure
// carries empty tokens). True when the arguments are valid.
template <typename Validate>
bool BeginTokenExchange(Client::Impl& impl, const std::shared_ptr<Client::TokenExchangeCallback>& callback,
                        Validate&& validate) {
    return Begin(impl, Needs::ValidArguments, callback, std::forward<Validate>(validate), std::string(), std::string(),
                 AuthorizationTokenType::Bearer, 0, std::string())
        .has_value();
}

}  // namespace platformpp::client
