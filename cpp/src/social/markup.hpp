#pragma once
// A message's markup as a game shows it (MessageHandle::Content): user mentions <@id> / <@!id>,
// channel mentions <#id> and custom emojis <:name:id> / <a:name:id>. Pure and dependency-free (the
// content is untrusted bytes: cpp/fuzz/message_markup_fuzz.cpp). Private to the core.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace platformpp::social {

struct MarkupNames {
    // The name to show for a user / channel id, or nullopt to leave the mention as written.
    std::function<std::optional<std::string>(uint64_t)> user, channel;
};

// `raw` with each mention the callbacks name replaced by "@name" / "#name", and each custom emoji by
// ":name:". Anything else, malformed markup included, stays as it is.
std::string ResolveMarkup(const std::string& raw, const MarkupNames& names);

}  // namespace platformpp::social
