// The MLS key schedule (RFC 9420 section 8), pre-shared key combination (8.4), transcript hashes (8.2)
// and the secret tree with its per-sender ratchets (section 9).
#pragma once

#include <map>
#include <utility>

#include "voice/e2ee/messages.hpp"

namespace platformpp::voice::e2ee {

// The secrets of one epoch. Never logged; the struct has no printer on purpose.
struct EpochSecrets {
  Bytes joiner_secret;
  Bytes welcome_secret;
  Bytes sender_data_secret;
  Bytes encryption_secret;
  Bytes exporter_secret;
  Bytes epoch_authenticator;
  Bytes external_secret;
  Bytes confirmation_key;
  Bytes membership_key;
  Bytes resumption_psk;
  Bytes init_secret;  // the next epoch's init_secret

  EpochSecrets() = default;
  EpochSecrets(const EpochSecrets&) = default;
  EpochSecrets(EpochSecrets&&) = default;
  EpochSecrets& operator=(const EpochSecrets&) = default;
  EpochSecrets& operator=(EpochSecrets&&) = default;
  ~EpochSecrets();
};

// joiner_secret = ExpandWithLabel(Extract(init_secret, commit_secret), "joiner", GroupContext, Nh).
Bytes derive_joiner_secret(BytesView previous_init_secret, BytesView commit_secret, BytesView group_context);
// Every epoch secret from the joiner secret (how a new member starts), psk_secret and the GroupContext.
EpochSecrets derive_epoch_secrets(BytesView joiner_secret, BytesView psk_secret, BytesView group_context);
// welcome_secret alone (a joiner needs it before it can read the GroupContext).
Bytes derive_welcome_secret(BytesView joiner_secret, BytesView psk_secret);
// MLS-Exporter(label, context, length).
Bytes mls_exporter(BytesView exporter_secret, const std::string& label, BytesView context, std::size_t length);
// The Welcome's AEAD key and nonce from welcome_secret.
Bytes welcome_key(BytesView welcome_secret);
Bytes welcome_nonce(BytesView welcome_secret);

// psk_secret from an ordered list of (PreSharedKeyID, psk value); Nh zeros when the list is empty.
Bytes derive_psk_secret(const std::vector<std::pair<PreSharedKeyId, Bytes>>& psks);

// confirmed_transcript_hash = Hash(interim_before || wire_format || FramedContent || signature).
Bytes confirmed_transcript_hash(BytesView interim_before, WireFormat wire_format, const FramedContent& content,
                                BytesView signature);
// interim_transcript_hash = Hash(confirmed || confirmation_tag<V>).
Bytes interim_transcript_hash(BytesView confirmed, BytesView confirmation_tag);

enum class RatchetType { handshake, application };

struct KeyAndNonce {
  Bytes key;
  Bytes nonce;
};

// The secret tree of one epoch. Secrets are derived on demand and erased once their children or
// keys exist (RFC 9420 section 9.2); a consumed generation cannot be derived again.
class SecretTree {
 public:
  // Keys up to this many generations ahead of the current one may be derived (and the skipped ones kept).
  static constexpr std::uint32_t kMaxForwardGenerations = 1024;

  SecretTree() = default;
  SecretTree(BytesView encryption_secret, std::uint32_t n_leaves);
  SecretTree(const SecretTree&) = default;
  SecretTree(SecretTree&&) = default;
  SecretTree& operator=(const SecretTree&) = default;
  SecretTree& operator=(SecretTree&&) = default;
  ~SecretTree();

  // The key and nonce of `leaf` for `generation`, for decryption. Throws Error(Protocol) for a leaf
  // outside the tree, a generation already consumed, or one too far ahead.
  KeyAndNonce get(std::uint32_t leaf, RatchetType type, std::uint32_t generation);
  // The next generation of `leaf` for encryption, and its key and nonce.
  std::pair<std::uint32_t, KeyAndNonce> next(std::uint32_t leaf, RatchetType type);

 private:
  struct Ratchet {
    Bytes secret;
    std::uint32_t generation = 0;
    std::map<std::uint32_t, KeyAndNonce> skipped;
  };
  Ratchet& ratchet(std::uint32_t leaf, RatchetType type);
  static KeyAndNonce advance(Ratchet& r);

  std::uint32_t n_leaves_ = 0;
  std::map<std::uint32_t, Bytes> node_secrets_;
  std::map<std::uint32_t, std::pair<Ratchet, Ratchet>> ratchets_;  // leaf -> (handshake, application)
};

// The sender data key and nonce for a PrivateMessage ciphertext (sample = its first Nh bytes).
KeyAndNonce sender_data_key_nonce(BytesView sender_data_secret, BytesView ciphertext);

}  // namespace platformpp::voice::e2ee
