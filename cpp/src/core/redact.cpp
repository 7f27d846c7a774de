#include "core/redact.hpp"

#include <array>
#include <cctype>

namespace platformpp::core {
namespace {

constexpr std::string_view kMask = "[redacted]";
constexpr std::array<std::string_view, 12> kSecretFields = {
    "access_token",        "refresh_token", "id_token", "code",  "code_verifier", "code_challenge",
    "client_secret", "external_auth_token", "subject_token", "token", "state", "nonce"};
constexpr std::array<std::string_view, 3> kAuthSchemes = {"Bot ", "Bearer ", "Basic "};

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool IEqualsAt(std::string_view text, std::size_t at, std::string_view word) {
    if (text.size() - at < word.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(text[at + i])) != std::tolower(static_cast<unsigned char>(word[i])))
            return false;
    }
    return true;
}

// If a secret field's name starts at `at` (as a whole word), the offset just past the name.
std::size_t MatchSecretName(std::string_view text, std::size_t at) {
    if (at > 0 && IsNameChar(text[at - 1])) return 0;
    for (const auto field : kSecretFields) {
        if (IEqualsAt(text, at, field) && (at + field.size() == text.size() || !IsNameChar(text[at + field.size()]))) {
            return at + field.size();
        }
    }
    return 0;
}

// The extent of the value after a secret field name: `name=value` (form/query) or `"name": "value"`
// / `"name":value` (JSON). Returns {begin, end} or {0, 0} when the name is not followed by a value.
std::pair<std::size_t, std::size_t> ValueAfter(std::string_view text, std::size_t nameEnd) {
    std::size_t i = nameEnd;
    if (i < text.size() && text[i] == '"') ++i;  // closing quote of a JSON key
    while (i < text.size() && text[i] == ' ') ++i;
    if (i >= text.size() || (text[i] != '=' && text[i] != ':')) return {0, 0};
    const bool json = text[i] == ':';
    ++i;
    while (i < text.size() && text[i] == ' ') ++i;
    if (json && i < text.size() && text[i] == '"') {
        std::size_t end = i + 1;
        while (end < text.size() && text[end] != '"') end += text[end] == '\\' ? 2 : 1;
        return {i + 1, std::min(end, text.size())};
    }
    std::size_t end = i;
    while (end < text.size() && text[end] != '&' && text[end] != ',' && text[end] != ' ' && text[end] != '}' &&
           text[end] != '\n' && text[end] != '"')
        ++end;
    return {i, end};
}

}  // namespace

std::string RedactSecrets(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        bool replaced = false;
        for (const auto scheme : kAuthSchemes) {
            if (IEqualsAt(text, i, scheme) && (i == 0 || !IsNameChar(text[i - 1]))) {
                std::size_t end = i + scheme.size();
                while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) && text[end] != '"' &&
                       text[end] != ',')
                    ++end;
                if (end > i + scheme.size()) {
                    out.append(scheme).append(kMask);
                    i = end;
                    replaced = true;
                }
                break;
            }
        }
        if (replaced) continue;
        if (const std::size_t nameEnd = MatchSecretName(text, i)) {
            const auto [begin, end] = ValueAfter(text, nameEnd);
            if (end > begin) {
                out.append(text.substr(i, begin - i)).append(kMask);
                i = end;
                continue;
            }
        }
        out += text[i++];
    }
    return out;
}

}  // namespace platformpp::core
