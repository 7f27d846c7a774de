// libFuzzer target: ResolveMarkup on arbitrary message content. Every user and channel id has a name
// (so every well-formed mention is replaced); the result never grows beyond what the names add, and
// text without '<' comes back unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "social/markup.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string raw(reinterpret_cast<const char*>(data), size);
    platformpp::social::MarkupNames names;
    names.user = [](uint64_t) -> std::optional<std::string> { return std::string("user"); };
    names.channel = [](uint64_t id) -> std::optional<std::string> {
        if (id % 2) return std::nullopt;  // some channels are unknown: left as written
        return std::string("chan");
    };
    const std::string shown = platformpp::social::ResolveMarkup(raw, names);
    if (raw.find('<') == std::string::npos && shown != raw) std::abort();
    // Each replacement ("@user", "#chan", ":name:") is no longer than the markup it replaces ("<@1>" ≥ 4).
    if (shown.size() > raw.size() + raw.size() / 4 + 8) std::abort();
    return 0;
}
