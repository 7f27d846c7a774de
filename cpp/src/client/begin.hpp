#pragma once
// How every Client call that answers through a callback begins, whatever its area, and how a REST
// call ends. Private.
//
// Begin is the one path of invalid arguments: an empty callback throws ValidationError to the caller
// (there is nobody to answer), any other broken rule is a ValidationError result delivered to the
// callback, as is a call on the user's behalf made before UpdateToken (ClientNotReady). A failure
// carries Unanswered values for the callback's other parameters, and the call ends there.
//
// A REST call is then one statement:
//     if (call) call->Rest(client::Request("DELETE", path), [&impl](const boost::json::value& json) { ... });

#include <boost/json/value.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "client/api.hpp"
#include "client/client_impl.hpp"
#include "platformpp/errors.hpp"

namespace platformpp::client {

// What a callback is given, for a failure, in place of each value after its ClientResult.
template <typename T>
T Unanswered() {
    return T{};
}
template <>
inline AuthorizationTokenType Unanswered<AuthorizationTokenType>() {
    return AuthorizationTokenType::Bearer;  // the only kind of token the platform issues the SDK
}
template <>
inline VoiceSettings Unanswered<VoiceSettings>() {
    return VoiceSettings::nullobj;
}

// The values a callback takes after its ClientResult, as a tuple.
template <typename Callback>
struct AnswerOf {
    using Values = std::tuple<>;
    static Values Failure() { return {}; }
};
template <typename... Params>
struct AnswerOf<std::function<void(ClientResult, Params...)>> {
    using Values = std::tuple<std::decay_t<Params>...>;
    static Values Failure() { return Values{Unanswered<std::decay_t<Params>>()...}; }
};

// Queues `callback(result, values...)` for RunCallbacks().
template <typename Callback, typename Values>
void Answer(Client::Impl& impl, const std::shared_ptr<Callback>& callback, ClientResult result, Values values) {
    impl.Deliver([callback, result = std::move(result), values = std::move(values)] {
        std::apply([&](const auto&... value) { (*callback)(result, value...); }, values);
    });
}

// The callback, shared between the threads; an empty one throws (nobody could hear the answer).
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

namespace read_answer {

template <typename T>
struct IsTuple : std::false_type {};
template <typename... T>
struct IsTuple<std::tuple<T...>> : std::true_type {};

// A reader's answer as a tuple: nothing, one value, or already a tuple.
template <typename Read, typename... Args>
auto ReadAsTuple(Read& read, Args&&... args) {
    using Result = std::invoke_result_t<Read&, Args...>;
    if constexpr (std::is_void_v<Result>) {
        read(std::forward<Args>(args)...);
        return std::tuple<>();
    } else if constexpr (IsTuple<std::decay_t<Result>>::value) {
        return read(std::forward<Args>(args)...);
    } else {
        return std::make_tuple(read(std::forward<Args>(args)...));
    }
}

}  // namespace read_answer

// A call that has begun: its shared callback and, for Needs::Token, the token to act with.
template <typename Callback>
struct Started {
    Client::Impl& impl;
    std::shared_ptr<Callback> callback;
    std::string token;

    // Sends `request` (with this call's token, if it has one) and answers the callback with the
    // ClientResult and what `read` makes of the body, on the network thread:
    //   read(const json&)               runs on success only; a failure answers Unanswered values;
    //   read(ClientResult&, const json&) runs always and may change the result.
    // `read` returns nothing, the one value after the result, or a tuple of them.
    template <typename Read>
    void Rest(ApiRequest request, Read read) const {
        if (request.token.empty()) request.token = token;
        impl.Call(std::move(request), [&impl = impl, callback = callback, read = std::move(read)](
                                          ClientResult result, boost::json::value json) mutable {
            using Values = typename AnswerOf<Callback>::Values;
            auto values = [&]() -> Values {
                if constexpr (std::is_invocable_v<Read&, ClientResult&, const boost::json::value&>) {
                    return read_answer::ReadAsTuple(read, result, std::as_const(json));
                } else {
                    if (result.Successful()) return read_answer::ReadAsTuple(read, std::as_const(json));
                    return AnswerOf<Callback>::Failure();
                }
            }();
            Answer(impl, callback, std::move(result), std::move(values));
        });
    }
    // A REST call whose callback takes the result alone and whose answer changes nothing here.
    void Rest(ApiRequest request) const {
        Rest(std::move(request), [](const boost::json::value&) {});
    }
};

// Runs `validate` (which throws ValidationError) and, for Needs::Token, checks that the Client has a
// token. Returns the started call, or nullopt after delivering the failure to `callback`.
template <typename Callback, typename Validate>
std::optional<Started<Callback>> Begin(Client::Impl& impl, Needs needs, Callback callback, Validate&& validate) {
    auto shared = Share(std::move(callback));
    ClientResult failure = ClientResult::Success();
    try {
        validate();
        if (needs == Needs::ValidArguments) return Started<Callback>{impl, std::move(shared), std::string()};
        if (auto token = impl.CurrentToken()) return Started<Callback>{impl, std::move(shared), std::move(*token)};
        failure = ClientResult::Failure(ErrorType::ClientNotReady, "the Client has no token: call UpdateToken first");
    } catch (const ValidationError& error) {
        failure = ClientResult::Failure(ErrorType::ValidationError, error.what());
    }
    Answer(impl, shared, std::move(failure), AnswerOf<Callback>::Failure());
    return std::nullopt;
}

// Begin for a call with nothing to validate.
template <typename Callback>
std::optional<Started<Callback>> Begin(Client::Impl& impl, Needs needs, Callback callback) {
    return Begin(impl, needs, std::move(callback), [] {});
}

}  // namespace platformpp::client
