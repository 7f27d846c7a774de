// A message's markup as a game shows it (markup.hpp).
#include "social/markup.hpp"

#include <string_view>

namespace platformpp::social {
namespace {

// A snowflake written in decimal (1–20 digits that fit 64 bits), else 0.
uint64_t IdOf(std::string_view digits) {
    if (digits.empty() || digits.size() > 20) return 0;
    uint64_t id = 0;
    for (const char c : digits) {
        if (c < '0' || c > '9') return 0;
        const uint64_t digit = static_cast<uint64_t>(c - '0');
        if (id > (UINT64_MAX - digit) / 10) return 0;
        id = id * 10 + digit;
    }
    return id;
}

std::optional<std::string> Resolve(std::string_view inner, const MarkupNames& names) {
    if (inner.substr(0, 2) == "@!" || inner.substr(0, 1) == "@") {
        const uint64_t id = IdOf(inner.substr(inner.substr(0, 2) == "@!" ? 2 : 1));
        if (id == 0 || !names.user) return std::nullopt;
        if (auto name = names.user(id)) return "@" + *name;
        return std::nullopt;
    }
    if (inner.substr(0, 1) == "#") {
        const uint64_t id = IdOf(inner.substr(1));
        if (id == 0 || !names.channel) return std::nullopt;
        if (auto name = names.channel(id)) return "#" + *name;
        return std::nullopt;
    }
    const std::size_t start = inner.substr(0, 1) == ":" ? 1 : inner.substr(0, 2) == "a:" ? 2 : std::string_view::npos;
    if (start == std::string_view::npos) return std::nullopt;
    const std::size_t end = inner.find(':', start);
    if (end == std::string_view::npos || end == start || IdOf(inner.substr(end + 1)) == 0) return std::nullopt;
    return ":" + std::string(inner.substr(start, end - start)) + ":";
}

}  // namespace

std::string ResolveMarkup(const std::string& raw, const MarkupNames& names) {
    std::string shown;
    shown.reserve(raw.size());
    std::size_t at = 0;
    while (at < raw.size()) {
        const std::size_t open = raw.find('<', at);
        if (open == std::string::npos) break;
        const std::size_t close = raw.find('>', open + 1);
        if (close == std::string::npos) break;
        // A '<' inside the candidate starts a new one: "<<@1>" keeps the first '<'.
        const std::size_t inner = raw.rfind('<', close);
        shown.append(raw, at, inner - at);
        const std::string_view candidate(raw.data() + inner + 1, close - inner - 1);
        if (auto replacement = Resolve(candidate, names)) {
            shown += *replacement;
        } else {
            shown.append(raw, inner, close - inner + 1);
        }
        at = close + 1;
    }
    shown.append(raw, at, std::string::npos);
    return shown;
}

}  // namespace platformpp::social
