#pragma once
// Runs platformpp::RunCallbacks() like a game's frame loop until a condition holds or time runs out.

#include <chrono>
#include <functional>
#include <thread>

#include "platformpp/callbacks.hpp"

namespace platformpp::testing {

inline bool PumpUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        platformpp::RunCallbacks();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

}  // namespace platformpp::testing
