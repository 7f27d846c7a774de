#pragma once
// Secrets never reach a log line: every line the SDK logs passes through RedactSecrets first.

#include <string>
#include <string_view>

namespace platformpp::core {

// Replaces with "[redacted]" the values of: Authorization headers (Bot/Bearer/Basic), and fields named
// like a secret (access_token, refresh_token, id_token, token, code, code_verifier, code_challenge, client_secret,
// external_auth_token, subject_token, state, nonce) whether they appear as JSON members, form or
// query parameters. Everything else is kept, so a line stays useful.
std::string RedactSecrets(std::string_view text);

}  // namespace platformpp::core
