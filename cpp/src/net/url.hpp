#pragma once
// Absolute http(s) and ws(s) URLs, as the SDK is given them (API base, Gateway URL). Private.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::net {

struct Url {
    std::string scheme;  // http, https, ws or wss (lower case)
    std::string host;    // without brackets for IPv6
    uint16_t port = 0;   // explicit, or the scheme's default
    std::string target;  // path and query, at least "/"

    bool Secure() const { return scheme == "https" || scheme == "wss"; }
    // host:port, as a connection-pool key.
    std::string Authority() const;
    // The Host header: the host, with the port only when it is not the scheme's default (RFC 9110).
    std::string HostHeader() const;
};

std::optional<Url> ParseUrl(std::string_view text);

// RFC 3986 percent-encoding of a query component (unreserved characters kept).
std::string PercentEncode(std::string_view text);
std::string PercentDecode(std::string_view text);

// The value of `name` in a URL's query (after '?', before '#'), decoded; nullopt when absent.
std::optional<std::string> QueryParameter(std::string_view url, std::string_view name);

}  // namespace platformpp::net
