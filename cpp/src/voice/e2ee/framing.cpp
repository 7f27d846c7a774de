#include "voice/e2ee/framing.hpp"

#include "voice/e2ee/crypto.hpp"

namespace platformpp::voice::e2ee {

namespace {

const char* kFramedContentLabel = "FramedContentTBS";

bool needs_group_context(SenderType t) { return t == SenderType::member || t == SenderType::new_member_commit; }

RatchetType ratchet_for(ContentType t) {
  return t == ContentType::application ? RatchetType::application : RatchetType::handshake;
}

Bytes content_aad(const Bytes& group_id, std::uint64_t epoch, ContentType type, const Bytes& authenticated_data) {
  Writer w;
  w.vec(group_id);
  w.u64(epoch);
  w.u8(static_cast<std::uint8_t>(type));
  w.vec(authenticated_data);
  return w.take();
}

Bytes sender_data_aad(const Bytes& group_id, std::uint64_t epoch, ContentType type) {
  Writer w;
  w.vec(group_id);
  w.u64(epoch);
  w.u8(static_cast<std::uint8_t>(type));
  return w.take();
}

void apply_reuse_guard(Bytes& nonce, BytesView guard) {
  for (std::size_t i = 0; i < 4; ++i) nonce[i] ^= guard.data[i];
}

}  // namespace

Bytes framed_content_tbs(WireFormat wire_format, const FramedContent& content, const GroupContext* group_context) {
  Writer w;
  w.u16(kProtocolVersionMls10);
  w.u16(static_cast<std::uint16_t>(wire_format));
  encode(w, content);
  if (needs_group_context(content.sender.type)) {
    if (!group_context) throw Error(ErrorKind::State, "framed content: a member sender needs the group context");
    encode(w, *group_context);
  }
  return w.take();
}

Bytes sign_framed_content(BytesView signature_private_key, WireFormat wire_format, const FramedContent& content,
                          const GroupContext* group_context) {
  return sign_with_label(signature_private_key, kFramedContentLabel,
                         framed_content_tbs(wire_format, content, group_context));
}

bool verify_framed_content(BytesView signature_public_key, WireFormat wire_format, const FramedContent& content,
                           const GroupContext* group_context, BytesView signature) {
  return verify_with_label(signature_public_key, kFramedContentLabel,
                           framed_content_tbs(wire_format, content, group_context), signature);
}

Bytes membership_tag(BytesView membership_key, const FramedContent& content, const FramedContentAuthData& auth,
                     const GroupContext& group_context) {
  Writer w;
  w.raw(framed_content_tbs(WireFormat::public_message, content, &group_context));
  encode(w, auth, content.content_type);
  return hmac_sha256(membership_key, w.bytes());
}

PrivateMessage protect_private(const FramedContent& content, const FramedContentAuthData& auth, SecretTree& tree,
                               BytesView sender_data_secret, std::size_t padding) {
  if (content.sender.type != SenderType::member) {
    throw Error(ErrorKind::State, "private message: only members send encrypted content");
  }
  Writer plain;
  switch (content.content_type) {
    case ContentType::application:
      plain.vec(content.application_data);
      break;
    case ContentType::proposal:
      encode(plain, *content.proposal);
      break;
    case ContentType::commit:
      encode(plain, *content.commit);
      break;
  }
  encode(plain, auth, content.content_type);
  for (std::size_t i = 0; i < padding; ++i) plain.u8(0);

  PrivateMessage m;
  m.group_id = content.group_id;
  m.epoch = content.epoch;
  m.content_type = content.content_type;
  m.authenticated_data = content.authenticated_data;

  auto [generation, kn] = tree.next(content.sender.index, ratchet_for(content.content_type));
  const Bytes reuse_guard = random_bytes(4);
  apply_reuse_guard(kn.nonce, reuse_guard);
  m.ciphertext = aead_seal(kn.key, kn.nonce,
                           content_aad(m.group_id, m.epoch, m.content_type, m.authenticated_data), plain.bytes());

  Writer sender_data;
  sender_data.u32(content.sender.index);
  sender_data.u32(generation);
  sender_data.raw(reuse_guard);
  const KeyAndNonce sd = sender_data_key_nonce(sender_data_secret, m.ciphertext);
  m.encrypted_sender_data =
      aead_seal(sd.key, sd.nonce, sender_data_aad(m.group_id, m.epoch, m.content_type), sender_data.bytes());
  return m;
}

DecryptedContent unprotect_private(const PrivateMessage& message, SecretTree& tree, BytesView sender_data_secret) {
  const KeyAndNonce sd = sender_data_key_nonce(sender_data_secret, message.ciphertext);
  const Bytes sender_data = aead_open(sd.key, sd.nonce,
                                      sender_data_aad(message.group_id, message.epoch, message.content_type),
                                      message.encrypted_sender_data);
  Reader sdr(sender_data);
  const std::uint32_t leaf = sdr.u32("sender_data.leaf_index");
  const std::uint32_t generation = sdr.u32("sender_data.generation");
  const BytesView reuse_guard = sdr.raw(4, "sender_data.reuse_guard");
  sdr.expect_end("sender_data");

  KeyAndNonce kn = tree.get(leaf, ratchet_for(message.content_type), generation);
  apply_reuse_guard(kn.nonce, reuse_guard);
  const Bytes plain = aead_open(kn.key, kn.nonce,
                                content_aad(message.group_id, message.epoch, message.content_type,
                                            message.authenticated_data),
                                message.ciphertext);

  DecryptedContent out;
  FramedContent& c = out.content;
  c.group_id = message.group_id;
  c.epoch = message.epoch;
  c.sender = Sender{SenderType::member, leaf};
  c.authenticated_data = message.authenticated_data;
  c.content_type = message.content_type;
  Reader r(plain);
  switch (c.content_type) {
    case ContentType::application:
      c.application_data = r.vec("private_message_content.application_data");
      break;
    case ContentType::proposal:
      c.proposal = decode_proposal(r);
      break;
    case ContentType::commit:
      c.commit = decode_commit(r);
      break;
  }
  out.auth = decode_auth_data(r, c.content_type);
  while (!r.empty()) {
    if (r.u8("private_message_content.padding") != 0) {
      decode_error("private_message_content.padding", "padding bytes must be zero");
    }
  }
  return out;
}

}  // namespace platformpp::voice::e2ee
