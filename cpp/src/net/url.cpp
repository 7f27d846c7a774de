#include "net/url.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace platformpp::net {

std::string Url::Authority() const {
    const bool ipv6 = host.find(':') != std::string::npos;
    return (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::string Url::HostHeader() const {
    const bool defaultPort = port == (Secure() ? 443 : 80);
    if (defaultPort) return host.find(':') != std::string::npos ? "[" + host + "]" : host;
    return Authority();
}

std::optional<Url> ParseUrl(std::string_view text) {
    const auto schemeEnd = text.find("://");
    if (schemeEnd == std::string_view::npos) return std::nullopt;
    Url url;
    url.scheme.assign(text.substr(0, schemeEnd));
    std::transform(url.scheme.begin(), url.scheme.end(), url.scheme.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    uint16_t defaultPort = 0;
    if (url.scheme == "http" || url.scheme == "ws") defaultPort = 80;
    else if (url.scheme == "https" || url.scheme == "wss") defaultPort = 443;
    else return std::nullopt;

    std::string_view rest = text.substr(schemeEnd + 3);
    const auto pathStart = rest.find_first_of("/?#");
    std::string_view authority = rest.substr(0, pathStart);
    std::string_view target = pathStart == std::string_view::npos ? std::string_view{} : rest.substr(pathStart);
    if (const auto fragment = target.find('#'); fragment != std::string_view::npos) target = target.substr(0, fragment);
    if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;

    std::string_view portText;
    if (authority.front() == '[') {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        url.host.assign(authority.substr(1, close - 1));
        const auto after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') return std::nullopt;
            portText = after.substr(1);
        }
    } else {
        const auto colon = authority.rfind(':');
        url.host.assign(authority.substr(0, colon));
        if (colon != std::string_view::npos) portText = authority.substr(colon + 1);
    }
    if (url.host.empty()) return std::nullopt;
    url.port = defaultPort;
    if (!portText.empty()) {
        unsigned value = 0;
        const auto [end, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), value);
        if (ec != std::errc{} || end != portText.data() + portText.size() || value == 0 || value > 65535)
            return std::nullopt;
        url.port = static_cast<uint16_t>(value);
    }
    url.target = target.empty() ? "/" : std::string(target.front() == '?' ? "/" : "") + std::string(target);
    return url;
}

std::string PercentEncode(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~') {
            out += c;
        } else {
            out += '%';
            out += kHex[u >> 4];
            out += kHex[u & 15];
        }
    }
    return out;
}

std::string PercentDecode(std::string_view text) {
    auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
            out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
            i += 2;
        } else {
            out += text[i] == '+' ? ' ' : text[i];
        }
    }
    return out;
}

std::optional<std::string> QueryParameter(std::string_view url, std::string_view name) {
    auto query = url.substr(std::min(url.find('?'), url.size()));
    if (query.empty()) return std::nullopt;
    query.remove_prefix(1);
    query = query.substr(0, query.find('#'));
    while (!query.empty()) {
        const auto amp = query.find('&');
        const auto pair = query.substr(0, amp);
        const auto eq = pair.find('=');
        if (PercentDecode(pair.substr(0, eq)) == name) {
            return eq == std::string_view::npos ? std::string() : PercentDecode(pair.substr(eq + 1));
        }
        if (amp == std::string_view::npos) break;
        query.remove_prefix(amp + 1);
    }
    return std::nullopt;
}

}  // namespace platformpp::net
