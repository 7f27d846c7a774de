// Message protection (RFC 9420 section 6): content signatures, membership tags, and PrivateMessage
// encryption with the secret tree and sender data.
#pragma once

#include "voice/e2ee/key_schedule.hpp"

namespace platformpp::voice::e2ee {

// FramedContentTBS; group_context is required for member and new_member_commit senders.
Bytes framed_content_tbs(WireFormat wire_format, const FramedContent& content, const GroupContext* group_context);

// SignWithLabel(..., "FramedContentTBS", FramedContentTBS).
Bytes sign_framed_content(BytesView signature_private_key, WireFormat wire_format, const FramedContent& content,
                          const GroupContext* group_context);
bool verify_framed_content(BytesView signature_public_key, WireFormat wire_format, const FramedContent& content,
                           const GroupContext* group_context, BytesView signature);

// membership_tag = MAC(membership_key, FramedContentTBS || FramedContentAuthData), for member senders.
Bytes membership_tag(BytesView membership_key, const FramedContent& content, const FramedContentAuthData& auth,
                     const GroupContext& group_context);

// The content, authentication data and sender of a decrypted PrivateMessage.
struct DecryptedContent {
  FramedContent content;
  FramedContentAuthData auth;
};

// Encrypts signed member content into a PrivateMessage with the sender's next ratchet generation.
PrivateMessage protect_private(const FramedContent& content, const FramedContentAuthData& auth, SecretTree& tree,
                               BytesView sender_data_secret, std::size_t padding = 0);
// Decrypts a PrivateMessage. Throws Error(Crypto) when a tag fails, Error(Decode) for a malformed
// plaintext or non-zero padding, Error(Protocol) for a bad sender or generation. The signature is
// not checked here: the caller knows the sender's key.
DecryptedContent unprotect_private(const PrivateMessage& message, SecretTree& tree, BytesView sender_data_secret);

}  // namespace platformpp::voice::e2ee
