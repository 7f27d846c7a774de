#include "voice/e2ee/key_schedule.hpp"

#include <openssl/crypto.h>

#include "voice/e2ee/crypto.hpp"
#include "voice/e2ee/tree_math.hpp"

namespace platformpp::voice::e2ee {

EpochSecrets::~EpochSecrets() {
  for (Bytes* b : {&joiner_secret, &welcome_secret, &sender_data_secret, &encryption_secret, &exporter_secret,
                   &epoch_authenticator, &external_secret, &confirmation_key, &membership_key, &resumption_psk,
                   &init_secret}) {
    wipe(*b);
  }
}

Bytes derive_joiner_secret(BytesView previous_init_secret, BytesView commit_secret, BytesView group_context) {
  const Bytes prk = hkdf_extract(previous_init_secret, commit_secret);
  return expand_with_label(prk, "joiner", group_context, kHashSize);
}

EpochSecrets derive_epoch_secrets(BytesView joiner_secret, BytesView psk_secret, BytesView group_context) {
  EpochSecrets s;
  s.joiner_secret = joiner_secret.to_bytes();
  const Bytes member_secret = hkdf_extract(joiner_secret, psk_secret);
  s.welcome_secret = derive_secret(member_secret, "welcome");
  Bytes epoch_secret = expand_with_label(member_secret, "epoch", group_context, kHashSize);
  s.sender_data_secret = derive_secret(epoch_secret, "sender data");
  s.encryption_secret = derive_secret(epoch_secret, "encryption");
  s.exporter_secret = derive_secret(epoch_secret, "exporter");
  s.epoch_authenticator = derive_secret(epoch_secret, "authentication");
  s.external_secret = derive_secret(epoch_secret, "external");
  s.confirmation_key = derive_secret(epoch_secret, "confirm");
  s.membership_key = derive_secret(epoch_secret, "membership");
  s.resumption_psk = derive_secret(epoch_secret, "resumption");
  s.init_secret = derive_secret(epoch_secret, "init");
  OPENSSL_cleanse(epoch_secret.data(), epoch_secret.size());
  return s;
}

Bytes derive_welcome_secret(BytesView joiner_secret, BytesView psk_secret) {
  return derive_secret(hkdf_extract(joiner_secret, psk_secret), "welcome");
}

Bytes mls_exporter(BytesView exporter_secret, const std::string& label, BytesView context, std::size_t length) {
  const Bytes derived = derive_secret(exporter_secret, label);
  return expand_with_label(derived, "exported", sha256(context), length);
}

Bytes welcome_key(BytesView welcome_secret) { return expand_with_label(welcome_secret, "key", BytesView(), kAeadKeySize); }
Bytes welcome_nonce(BytesView welcome_secret) {
  return expand_with_label(welcome_secret, "nonce", BytesView(), kAeadNonceSize);
}

Bytes derive_psk_secret(const std::vector<std::pair<PreSharedKeyId, Bytes>>& psks) {
  Bytes secret(kHashSize, 0);
  const auto count = static_cast<std::uint16_t>(psks.size());
  for (std::uint16_t i = 0; i < count; ++i) {
    const Bytes extracted = hkdf_extract(BytesView(), psks[i].second);
    Writer label;
    encode(label, psks[i].first);
    label.u16(i);
    label.u16(count);
    const Bytes input = expand_with_label(extracted, "derived psk", label.bytes(), kHashSize);
    secret = hkdf_extract(input, secret);
  }
  return secret;
}

Bytes confirmed_transcript_hash(BytesView interim_before, WireFormat wire_format, const FramedContent& content,
                                BytesView signature) {
  Writer w;
  w.raw(interim_before);
  w.u16(static_cast<std::uint16_t>(wire_format));
  encode(w, content);
  w.vec(signature);
  return sha256(w.bytes());
}

Bytes interim_transcript_hash(BytesView confirmed, BytesView confirmation_tag) {
  Writer w;
  w.raw(confirmed);
  w.vec(confirmation_tag);
  return sha256(w.bytes());
}

// --- Secret tree -------------------------------------------------------------------------------------

SecretTree::SecretTree(BytesView encryption_secret, std::uint32_t n_leaves) : n_leaves_(n_leaves) {
  node_secrets_[tree_math::root(n_leaves)] = encryption_secret.to_bytes();
}

SecretTree::~SecretTree() {
  for (auto& [node, secret] : node_secrets_) wipe(secret);
  for (auto& [leaf, pair] : ratchets_) {
    for (Ratchet* r : {&pair.first, &pair.second}) {
      wipe(r->secret);
      for (auto& [g, kn] : r->skipped) wipe(kn.key);
    }
  }
}

SecretTree::Ratchet& SecretTree::ratchet(std::uint32_t leaf, RatchetType type) {
  if (leaf >= n_leaves_) throw Error(ErrorKind::Protocol, "sender leaf index is outside the secret tree");
  auto found = ratchets_.find(leaf);
  if (found == ratchets_.end()) {
    // Walk down from the lowest ancestor that still holds a secret, erasing each consumed parent.
    const tree_math::Node target = tree_math::leaf_to_node(leaf);
    std::vector<tree_math::Node> path{target};
    while (node_secrets_.find(path.back()) == node_secrets_.end()) {
      if (path.back() == tree_math::root(n_leaves_)) {
        throw Error(ErrorKind::Protocol, "secret tree: the leaf's secret was already consumed");
      }
      path.push_back(tree_math::parent(path.back()));
    }
    for (std::size_t i = path.size() - 1; i > 0; --i) {
      const tree_math::Node node = path[i];
      Bytes secret = std::move(node_secrets_[node]);
      node_secrets_.erase(node);
      node_secrets_[tree_math::left(node)] = expand_with_label(secret, "tree", std::string("left"), kHashSize);
      node_secrets_[tree_math::right(node)] = expand_with_label(secret, "tree", std::string("right"), kHashSize);
      OPENSSL_cleanse(secret.data(), secret.size());
    }
    Bytes leaf_secret = std::move(node_secrets_[target]);
    node_secrets_.erase(target);
    Ratchet hs, app;
    hs.secret = expand_with_label(leaf_secret, "handshake", BytesView(), kHashSize);
    app.secret = expand_with_label(leaf_secret, "application", BytesView(), kHashSize);
    OPENSSL_cleanse(leaf_secret.data(), leaf_secret.size());
    found = ratchets_.emplace(leaf, std::make_pair(std::move(hs), std::move(app))).first;
  }
  return type == RatchetType::handshake ? found->second.first : found->second.second;
}

KeyAndNonce SecretTree::advance(Ratchet& r) {
  KeyAndNonce kn{derive_tree_secret(r.secret, "key", r.generation, kAeadKeySize),
                 derive_tree_secret(r.secret, "nonce", r.generation, kAeadNonceSize)};
  Bytes next = derive_tree_secret(r.secret, "secret", r.generation, kHashSize);
  OPENSSL_cleanse(r.secret.data(), r.secret.size());
  r.secret = std::move(next);
  ++r.generation;
  return kn;
}

KeyAndNonce SecretTree::get(std::uint32_t leaf, RatchetType type, std::uint32_t generation) {
  Ratchet& r = ratchet(leaf, type);
  if (generation < r.generation) {
    auto kept = r.skipped.find(generation);
    if (kept == r.skipped.end()) {
      throw Error(ErrorKind::Protocol, "secret tree: generation " + std::to_string(generation) + " was already used");
    }
    KeyAndNonce kn = std::move(kept->second);
    r.skipped.erase(kept);
    return kn;
  }
  if (generation - r.generation > kMaxForwardGenerations) {
    throw Error(ErrorKind::Protocol, "secret tree: generation is too far ahead of the ratchet");
  }
  while (r.generation < generation) {
    const std::uint32_t g = r.generation;
    r.skipped[g] = advance(r);
  }
  return advance(r);
}

std::pair<std::uint32_t, KeyAndNonce> SecretTree::next(std::uint32_t leaf, RatchetType type) {
  Ratchet& r = ratchet(leaf, type);
  const std::uint32_t g = r.generation;
  return {g, advance(r)};
}

KeyAndNonce sender_data_key_nonce(BytesView sender_data_secret, BytesView ciphertext) {
  const BytesView sample(ciphertext.data, std::min(ciphertext.size, kHashSize));
  return KeyAndNonce{expand_with_label(sender_data_secret, "key", sample, kAeadKeySize),
                     expand_with_label(sender_data_secret, "nonce", sample, kAeadNonceSize)};
}

}  // namespace platformpp::voice::e2ee
