// TLS encoding of the RFC 9420 structures in messages.hpp. Every decoder bounds-checks through Reader
// and validates enum values, so no input reaches undefined behaviour.
#include "voice/e2ee/messages.hpp"

namespace platformpp::voice::e2ee {

namespace {

void encode_u16s(Writer& w, const std::vector<std::uint16_t>& v) {
  const auto start = w.begin_vec();
  for (auto x : v) w.u16(x);
  w.end_vec(start);
}

std::vector<std::uint16_t> decode_u16s(Reader& r, const char* field) {
  Reader body = r.sub_vec(field);
  if (body.remaining() % 2 != 0) decode_error(field, "uint16 vector has an odd byte length");
  std::vector<std::uint16_t> out;
  while (!body.empty()) out.push_back(body.u16(field));
  return out;
}

template <typename T, typename F>
void encode_list(Writer& w, const std::vector<T>& v, F&& each) {
  const auto start = w.begin_vec();
  for (const auto& x : v) each(x);
  w.end_vec(start);
}

template <typename T>
std::vector<T> decode_list(Reader& r, const char* field, T (*decoder)(Reader&)) {
  Reader body = r.sub_vec(field);
  std::vector<T> out;
  while (!body.empty()) out.push_back(decoder(body));
  return out;
}

void unsupported(const std::string& what) { throw Error(ErrorKind::Unsupported, what); }

}  // namespace

// --- Extension, Credential, Capabilities, LeafNode ---------------------------------------------------

void encode(Writer& w, const Extension& v) {
  w.u16(v.type);
  w.vec(v.data);
}

void encode(Writer& w, const std::vector<Extension>& v) {
  encode_list(w, v, [&](const Extension& e) { encode(w, e); });
}

Extension decode_extension(Reader& r) {
  Extension e;
  e.type = r.u16("extension.extension_type");
  e.data = r.vec("extension.extension_data");
  return e;
}

std::vector<Extension> decode_extensions(Reader& r) {
  auto list = decode_list(r, "extensions", decode_extension);
  for (std::size_t i = 0; i < list.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (list[i].type == list[j].type) decode_error("extensions", "an extension type appears twice");
    }
  }
  return list;
}

void encode(Writer& w, const Credential& v) {
  w.u16(static_cast<std::uint16_t>(v.type));
  if (v.type == CredentialType::basic) {
    w.vec(v.identity);
  } else {
    encode_list(w, v.certificates, [&](const Bytes& c) { w.vec(c); });
  }
}

Credential decode_credential(Reader& r) {
  Credential c;
  const std::uint16_t type = r.u16("credential.credential_type");
  if (type == 1) {
    c.type = CredentialType::basic;
    c.identity = r.vec("credential.identity");
  } else if (type == 2) {
    c.type = CredentialType::x509;
    Reader body = r.sub_vec("credential.certificates");
    while (!body.empty()) c.certificates.push_back(body.vec("credential.certificates.cert_data"));
  } else {
    unsupported("credential.credential_type: only basic (1) and x509 (2) are known, got " + std::to_string(type));
  }
  return c;
}

void encode(Writer& w, const Capabilities& v) {
  encode_u16s(w, v.versions);
  encode_u16s(w, v.cipher_suites);
  encode_u16s(w, v.extensions);
  encode_u16s(w, v.proposals);
  encode_u16s(w, v.credentials);
}

Capabilities decode_capabilities(Reader& r) {
  Capabilities c;
  c.versions = decode_u16s(r, "capabilities.versions");
  c.cipher_suites = decode_u16s(r, "capabilities.cipher_suites");
  c.extensions = decode_u16s(r, "capabilities.extensions");
  c.proposals = decode_u16s(r, "capabilities.proposals");
  c.credentials = decode_u16s(r, "capabilities.credentials");
  return c;
}

namespace {
void encode_leaf_body(Writer& w, const LeafNode& v) {
  w.vec(v.encryption_key);
  w.vec(v.signature_key);
  encode(w, v.credential);
  encode(w, v.capabilities);
  w.u8(static_cast<std::uint8_t>(v.source));
  if (v.source == LeafNodeSource::key_package) {
    w.u64(v.lifetime.not_before);
    w.u64(v.lifetime.not_after);
  } else if (v.source == LeafNodeSource::commit) {
    w.vec(v.parent_hash);
  }
  encode(w, v.extensions);
}
}  // namespace

void encode(Writer& w, const LeafNode& v) {
  encode_leaf_body(w, v);
  w.vec(v.signature);
}

void encode_leaf_node_tbs(Writer& w, const LeafNode& v, BytesView group_id, std::uint32_t leaf_index) {
  encode_leaf_body(w, v);
  if (v.source != LeafNodeSource::key_package) {
    w.vec(group_id);
    w.u32(leaf_index);
  }
}

LeafNode decode_leaf_node(Reader& r) {
  LeafNode n;
  n.encryption_key = r.vec("leaf_node.encryption_key");
  n.signature_key = r.vec("leaf_node.signature_key");
  n.credential = decode_credential(r);
  n.capabilities = decode_capabilities(r);
  const std::uint8_t source = r.u8("leaf_node.leaf_node_source");
  if (source < 1 || source > 3) decode_error("leaf_node.leaf_node_source", "must be 1, 2 or 3");
  n.source = static_cast<LeafNodeSource>(source);
  if (n.source == LeafNodeSource::key_package) {
    n.lifetime.not_before = r.u64("leaf_node.lifetime.not_before");
    n.lifetime.not_after = r.u64("leaf_node.lifetime.not_after");
  } else if (n.source == LeafNodeSource::commit) {
    n.parent_hash = r.vec("leaf_node.parent_hash");
  }
  n.extensions = decode_extensions(r);
  n.signature = r.vec("leaf_node.signature");
  return n;
}

void encode(Writer& w, const ParentNode& v) {
  w.vec(v.encryption_key);
  w.vec(v.parent_hash);
  encode_list(w, v.unmerged_leaves, [&](std::uint32_t x) { w.u32(x); });
}

ParentNode decode_parent_node(Reader& r) {
  ParentNode p;
  p.encryption_key = r.vec("parent_node.encryption_key");
  p.parent_hash = r.vec("parent_node.parent_hash");
  Reader body = r.sub_vec("parent_node.unmerged_leaves");
  if (body.remaining() % 4 != 0) decode_error("parent_node.unmerged_leaves", "byte length is not a multiple of 4");
  while (!body.empty()) p.unmerged_leaves.push_back(body.u32("parent_node.unmerged_leaves"));
  return p;
}

// --- KeyPackage, proposals, commit ------------------------------------------------------------------

void encode_key_package_tbs(Writer& w, const KeyPackage& v) {
  w.u16(v.version);
  w.u16(v.cipher_suite);
  w.vec(v.init_key);
  encode(w, v.leaf_node);
  encode(w, v.extensions);
}

void encode(Writer& w, const KeyPackage& v) {
  encode_key_package_tbs(w, v);
  w.vec(v.signature);
}

KeyPackage decode_key_package(Reader& r) {
  KeyPackage k;
  k.version = r.u16("key_package.version");
  k.cipher_suite = r.u16("key_package.cipher_suite");
  k.init_key = r.vec("key_package.init_key");
  k.leaf_node = decode_leaf_node(r);
  k.extensions = decode_extensions(r);
  k.signature = r.vec("key_package.signature");
  return k;
}

void encode(Writer& w, const PreSharedKeyId& v) {
  w.u8(v.psk_type);
  if (v.psk_type == 1) {
    w.vec(v.psk_id);
  } else {
    w.u8(v.usage);
    w.vec(v.psk_group_id);
    w.u64(v.psk_epoch);
  }
  w.vec(v.psk_nonce);
}

PreSharedKeyId decode_psk_id(Reader& r) {
  PreSharedKeyId p;
  p.psk_type = r.u8("psk_id.psktype");
  if (p.psk_type == 1) {
    p.psk_id = r.vec("psk_id.psk_id");
  } else if (p.psk_type == 2) {
    p.usage = r.u8("psk_id.usage");
    if (p.usage < 1 || p.usage > 3) decode_error("psk_id.usage", "must be 1, 2 or 3");
    p.psk_group_id = r.vec("psk_id.psk_group_id");
    p.psk_epoch = r.u64("psk_id.psk_epoch");
  } else {
    decode_error("psk_id.psktype", "must be external (1) or resumption (2)");
  }
  p.psk_nonce = r.vec("psk_id.psk_nonce");
  return p;
}

void encode(Writer& w, const Proposal& v) {
  w.u16(static_cast<std::uint16_t>(v.type));
  switch (v.type) {
    case ProposalType::add:
      encode(w, *v.add);
      break;
    case ProposalType::update:
      encode(w, *v.update);
      break;
    case ProposalType::remove:
      w.u32(v.removed);
      break;
    case ProposalType::psk:
      encode(w, *v.psk);
      break;
    default:
      w.raw(v.opaque_body);
  }
}

Proposal decode_proposal(Reader& r) {
  Proposal p;
  const std::uint16_t type = r.u16("proposal.proposal_type");
  const std::uint8_t* body_start = r.position();
  switch (type) {
    case 1:
      p.add = decode_key_package(r);
      break;
    case 2:
      p.update = decode_leaf_node(r);
      break;
    case 3:
      p.removed = r.u32("remove.removed");
      break;
    case 4:
      p.psk = decode_psk_id(r);
      break;
    case 5:  // ReInit
      r.vec("reinit.group_id");
      r.u16("reinit.version");
      r.u16("reinit.cipher_suite");
      decode_extensions(r);
      break;
    case 6:  // ExternalInit
      r.vec("external_init.kem_output");
      break;
    case 7:  // GroupContextExtensions
      decode_extensions(r);
      break;
    default:
      unsupported("proposal.proposal_type " + std::to_string(type) + " is not an RFC 9420 proposal");
  }
  p.type = static_cast<ProposalType>(type);
  if (type >= 5) p.opaque_body.assign(body_start, r.position());
  return p;
}

void encode(Writer& w, const ProposalOrRef& v) {
  if (v.proposal) {
    w.u8(1);
    encode(w, *v.proposal);
  } else {
    w.u8(2);
    w.vec(v.reference);
  }
}

namespace {
ProposalOrRef decode_proposal_or_ref(Reader& r) {
  ProposalOrRef p;
  const std::uint8_t type = r.u8("proposal_or_ref.type");
  if (type == 1) {
    p.proposal = decode_proposal(r);
  } else if (type == 2) {
    p.reference = r.vec("proposal_or_ref.reference");
  } else {
    decode_error("proposal_or_ref.type", "must be proposal (1) or reference (2)");
  }
  return p;
}

HpkeCiphertextWire decode_hpke_ciphertext(Reader& r) {
  HpkeCiphertextWire c;
  c.kem_output = r.vec("hpke_ciphertext.kem_output");
  c.ciphertext = r.vec("hpke_ciphertext.ciphertext");
  return c;
}

UpdatePathNode decode_update_path_node(Reader& r) {
  UpdatePathNode n;
  n.encryption_key = r.vec("update_path_node.encryption_key");
  n.encrypted_path_secret = decode_list(r, "update_path_node.encrypted_path_secret", decode_hpke_ciphertext);
  return n;
}
}  // namespace

void encode(Writer& w, const HpkeCiphertextWire& v) {
  w.vec(v.kem_output);
  w.vec(v.ciphertext);
}

void encode(Writer& w, const UpdatePath& v) {
  encode(w, v.leaf_node);
  encode_list(w, v.nodes, [&](const UpdatePathNode& n) {
    w.vec(n.encryption_key);
    encode_list(w, n.encrypted_path_secret, [&](const HpkeCiphertextWire& c) { encode(w, c); });
  });
}

UpdatePath decode_update_path(Reader& r) {
  UpdatePath p;
  p.leaf_node = decode_leaf_node(r);
  p.nodes = decode_list(r, "update_path.nodes", decode_update_path_node);
  return p;
}

void encode(Writer& w, const Commit& v) {
  encode_list(w, v.proposals, [&](const ProposalOrRef& p) { encode(w, p); });
  w.u8(v.path ? 1 : 0);
  if (v.path) encode(w, *v.path);
}

Commit decode_commit(Reader& r) {
  Commit c;
  c.proposals = decode_list(r, "commit.proposals", decode_proposal_or_ref);
  if (r.presence("commit.path")) c.path = decode_update_path(r);
  return c;
}

// --- Framing -------------------------------------------------------------------------------------------

void encode(Writer& w, const Sender& v) {
  w.u8(static_cast<std::uint8_t>(v.type));
  if (v.type == SenderType::member || v.type == SenderType::external) w.u32(v.index);
}

namespace {
Sender decode_sender(Reader& r) {
  Sender s;
  const std::uint8_t type = r.u8("sender.sender_type");
  if (type < 1 || type > 4) decode_error("sender.sender_type", "must be 1..4");
  s.type = static_cast<SenderType>(type);
  if (s.type == SenderType::member) s.index = r.u32("sender.leaf_index");
  if (s.type == SenderType::external) s.index = r.u32("sender.sender_index");
  return s;
}

ContentType decode_content_type(Reader& r, const char* field) {
  const std::uint8_t t = r.u8(field);
  if (t < 1 || t > 3) decode_error(field, "must be application (1), proposal (2) or commit (3)");
  return static_cast<ContentType>(t);
}
}  // namespace

void encode(Writer& w, const FramedContent& v) {
  w.vec(v.group_id);
  w.u64(v.epoch);
  encode(w, v.sender);
  w.vec(v.authenticated_data);
  w.u8(static_cast<std::uint8_t>(v.content_type));
  switch (v.content_type) {
    case ContentType::application:
      w.vec(v.application_data);
      break;
    case ContentType::proposal:
      encode(w, *v.proposal);
      break;
    case ContentType::commit:
      encode(w, *v.commit);
      break;
  }
}

FramedContent decode_framed_content(Reader& r) {
  FramedContent c;
  c.group_id = r.vec("framed_content.group_id");
  c.epoch = r.u64("framed_content.epoch");
  c.sender = decode_sender(r);
  c.authenticated_data = r.vec("framed_content.authenticated_data");
  c.content_type = decode_content_type(r, "framed_content.content_type");
  switch (c.content_type) {
    case ContentType::application:
      c.application_data = r.vec("framed_content.application_data");
      break;
    case ContentType::proposal:
      c.proposal = decode_proposal(r);
      break;
    case ContentType::commit:
      c.commit = decode_commit(r);
      break;
  }
  return c;
}

void encode(Writer& w, const FramedContentAuthData& v, ContentType content_type) {
  w.vec(v.signature);
  if (content_type == ContentType::commit) w.vec(v.confirmation_tag);
}

FramedContentAuthData decode_auth_data(Reader& r, ContentType content_type) {
  FramedContentAuthData a;
  a.signature = r.vec("auth.signature");
  if (content_type == ContentType::commit) a.confirmation_tag = r.vec("auth.confirmation_tag");
  return a;
}

void encode(Writer& w, const PublicMessage& v) {
  encode(w, v.content);
  encode(w, v.auth, v.content.content_type);
  if (v.content.sender.type == SenderType::member) w.vec(v.membership_tag);
}

PublicMessage decode_public_message(Reader& r) {
  PublicMessage m;
  m.content = decode_framed_content(r);
  m.auth = decode_auth_data(r, m.content.content_type);
  if (m.content.sender.type == SenderType::member) m.membership_tag = r.vec("public_message.membership_tag");
  return m;
}

void encode(Writer& w, const PrivateMessage& v) {
  w.vec(v.group_id);
  w.u64(v.epoch);
  w.u8(static_cast<std::uint8_t>(v.content_type));
  w.vec(v.authenticated_data);
  w.vec(v.encrypted_sender_data);
  w.vec(v.ciphertext);
}

PrivateMessage decode_private_message(Reader& r) {
  PrivateMessage m;
  m.group_id = r.vec("private_message.group_id");
  m.epoch = r.u64("private_message.epoch");
  m.content_type = decode_content_type(r, "private_message.content_type");
  m.authenticated_data = r.vec("private_message.authenticated_data");
  m.encrypted_sender_data = r.vec("private_message.encrypted_sender_data");
  m.ciphertext = r.vec("private_message.ciphertext");
  return m;
}

// --- Group context, group info, welcome -------------------------------------------------------------

void encode(Writer& w, const GroupContext& v) {
  w.u16(v.version);
  w.u16(v.cipher_suite);
  w.vec(v.group_id);
  w.u64(v.epoch);
  w.vec(v.tree_hash);
  w.vec(v.confirmed_transcript_hash);
  encode(w, v.extensions);
}

GroupContext decode_group_context(Reader& r) {
  GroupContext g;
  g.version = r.u16("group_context.version");
  g.cipher_suite = r.u16("group_context.cipher_suite");
  g.group_id = r.vec("group_context.group_id");
  g.epoch = r.u64("group_context.epoch");
  g.tree_hash = r.vec("group_context.tree_hash");
  g.confirmed_transcript_hash = r.vec("group_context.confirmed_transcript_hash");
  g.extensions = decode_extensions(r);
  return g;
}

void encode_group_info_tbs(Writer& w, const GroupInfo& v) {
  encode(w, v.group_context);
  encode(w, v.extensions);
  w.vec(v.confirmation_tag);
  w.u32(v.signer);
}

void encode(Writer& w, const GroupInfo& v) {
  encode_group_info_tbs(w, v);
  w.vec(v.signature);
}

GroupInfo decode_group_info(Reader& r) {
  GroupInfo g;
  g.group_context = decode_group_context(r);
  g.extensions = decode_extensions(r);
  g.confirmation_tag = r.vec("group_info.confirmation_tag");
  g.signer = r.u32("group_info.signer");
  g.signature = r.vec("group_info.signature");
  return g;
}

void encode(Writer& w, const GroupSecrets& v) {
  w.vec(v.joiner_secret);
  w.u8(v.path_secret ? 1 : 0);
  if (v.path_secret) w.vec(*v.path_secret);
  encode_list(w, v.psks, [&](const PreSharedKeyId& p) { encode(w, p); });
}

GroupSecrets decode_group_secrets(Reader& r) {
  GroupSecrets g;
  g.joiner_secret = r.vec("group_secrets.joiner_secret");
  if (r.presence("group_secrets.path_secret")) g.path_secret = r.vec("group_secrets.path_secret");
  g.psks = decode_list(r, "group_secrets.psks", decode_psk_id);
  return g;
}

void encode(Writer& w, const Welcome& v) {
  w.u16(v.cipher_suite);
  encode_list(w, v.secrets, [&](const EncryptedGroupSecrets& s) {
    w.vec(s.new_member);
    encode(w, s.encrypted_group_secrets);
  });
  w.vec(v.encrypted_group_info);
}

namespace {
EncryptedGroupSecrets decode_encrypted_group_secrets(Reader& r) {
  EncryptedGroupSecrets s;
  s.new_member = r.vec("encrypted_group_secrets.new_member");
  s.encrypted_group_secrets = decode_hpke_ciphertext(r);
  return s;
}
}  // namespace

Welcome decode_welcome(Reader& r) {
  Welcome w;
  w.cipher_suite = r.u16("welcome.cipher_suite");
  w.secrets = decode_list(r, "welcome.secrets", decode_encrypted_group_secrets);
  w.encrypted_group_info = r.vec("welcome.encrypted_group_info");
  return w;
}

void encode(Writer& w, const ExternalSender& v) {
  w.vec(v.signature_key);
  encode(w, v.credential);
}

ExternalSender decode_external_sender(Reader& r) {
  ExternalSender s;
  s.signature_key = r.vec("external_sender.signature_key");
  s.credential = decode_credential(r);
  return s;
}

void encode(Writer& w, const RatchetTreeNodes& v) {
  encode_list(w, v, [&](const std::optional<TreeNode>& n) {
    w.u8(n ? 1 : 0);
    if (!n) return;
    if (n->leaf) {
      w.u8(1);
      encode(w, *n->leaf);
    } else {
      w.u8(2);
      encode(w, *n->parent);
    }
  });
}

namespace {
std::optional<TreeNode> decode_optional_node(Reader& r) {
  if (!r.presence("ratchet_tree.node")) return std::nullopt;
  TreeNode n;
  const std::uint8_t type = r.u8("ratchet_tree.node_type");
  if (type == 1) {
    n.leaf = decode_leaf_node(r);
  } else if (type == 2) {
    n.parent = decode_parent_node(r);
  } else {
    decode_error("ratchet_tree.node_type", "must be leaf (1) or parent (2)");
  }
  return n;
}
}  // namespace

RatchetTreeNodes decode_ratchet_tree(Reader& r) { return decode_list(r, "ratchet_tree", decode_optional_node); }

// --- MLSMessage ----------------------------------------------------------------------------------------

void encode(Writer& w, const MlsMessage& v) {
  w.u16(v.version);
  w.u16(static_cast<std::uint16_t>(v.wire_format));
  switch (v.wire_format) {
    case WireFormat::public_message:
      encode(w, *v.public_message);
      break;
    case WireFormat::private_message:
      encode(w, *v.private_message);
      break;
    case WireFormat::welcome:
      encode(w, *v.welcome);
      break;
    case WireFormat::group_info:
      encode(w, *v.group_info);
      break;
    case WireFormat::key_package:
      encode(w, *v.key_package);
      break;
  }
}

MlsMessage decode_mls_message(BytesView bytes) {
  Reader r(bytes);
  MlsMessage m;
  m.version = r.u16("mls_message.version");
  if (m.version != kProtocolVersionMls10) unsupported("mls_message.version: only mls10 (1) is supported");
  const std::uint16_t wf = r.u16("mls_message.wire_format");
  switch (wf) {
    case 1:
      m.public_message = decode_public_message(r);
      break;
    case 2:
      m.private_message = decode_private_message(r);
      break;
    case 3:
      m.welcome = decode_welcome(r);
      break;
    case 4:
      m.group_info = decode_group_info(r);
      break;
    case 5:
      m.key_package = decode_key_package(r);
      break;
    default:
      unsupported("mls_message.wire_format " + std::to_string(wf) + " is not known");
  }
  m.wire_format = static_cast<WireFormat>(wf);
  r.expect_end("mls_message");
  return m;
}

}  // namespace platformpp::voice::e2ee
