// MLS (RFC 9420) structures and their TLS encoding. Decoding accepts every well-formed structure of
// RFC 9420 so that signatures and hashes can be checked over exact bytes; what lies outside our subset
// (x509 credentials, Update/PSK/ReInit/ExternalInit/GroupContextExtensions proposals, other wire
// formats' semantics) is refused later, where it would be processed, with Error(Unsupported).
#pragma once

#include <optional>
#include <variant>

#include "voice/e2ee/tls_codec.hpp"

namespace platformpp::voice::e2ee {

constexpr std::uint16_t kProtocolVersionMls10 = 1;

enum class CredentialType : std::uint16_t { basic = 1, x509 = 2 };
enum class LeafNodeSource : std::uint8_t { key_package = 1, update = 2, commit = 3 };
enum class ProposalType : std::uint16_t {
  add = 1,
  update = 2,
  remove = 3,
  psk = 4,
  reinit = 5,
  external_init = 6,
  group_context_extensions = 7,
};
enum class ExtensionType : std::uint16_t {
  application_id = 1,
  ratchet_tree = 2,
  required_capabilities = 3,
  external_pub = 4,
  external_senders = 5,
};
enum class WireFormat : std::uint16_t {
  public_message = 1,
  private_message = 2,
  welcome = 3,
  group_info = 4,
  key_package = 5,
};
enum class SenderType : std::uint8_t { member = 1, external = 2, new_member_proposal = 3, new_member_commit = 4 };
enum class ContentType : std::uint8_t { application = 1, proposal = 2, commit = 3 };

struct Extension {
  std::uint16_t type = 0;
  Bytes data;
  bool operator==(const Extension& o) const { return type == o.type && data == o.data; }
};

struct Credential {
  CredentialType type = CredentialType::basic;
  Bytes identity;                  // basic
  std::vector<Bytes> certificates;  // x509 (decoded, never accepted)
  bool operator==(const Credential& o) const {
    return type == o.type && identity == o.identity && certificates == o.certificates;
  }
};

struct Capabilities {
  std::vector<std::uint16_t> versions;
  std::vector<std::uint16_t> cipher_suites;
  std::vector<std::uint16_t> extensions;
  std::vector<std::uint16_t> proposals;
  std::vector<std::uint16_t> credentials;
};

struct Lifetime {
  std::uint64_t not_before = 0;
  std::uint64_t not_after = 0;
};

struct LeafNode {
  Bytes encryption_key;
  Bytes signature_key;
  Credential credential;
  Capabilities capabilities;
  LeafNodeSource source = LeafNodeSource::key_package;
  Lifetime lifetime;  // source key_package
  Bytes parent_hash;  // source commit
  std::vector<Extension> extensions;
  Bytes signature;
};

struct ParentNode {
  Bytes encryption_key;
  Bytes parent_hash;
  std::vector<std::uint32_t> unmerged_leaves;
};

struct KeyPackage {
  std::uint16_t version = kProtocolVersionMls10;
  std::uint16_t cipher_suite = 0;
  Bytes init_key;
  LeafNode leaf_node;
  std::vector<Extension> extensions;
  Bytes signature;
};

struct PreSharedKeyId {
  std::uint8_t psk_type = 1;  // 1 external, 2 resumption
  Bytes psk_id;               // external
  std::uint8_t usage = 0;     // resumption
  Bytes psk_group_id;         // resumption
  std::uint64_t psk_epoch = 0;
  Bytes psk_nonce;
};

struct Proposal {
  ProposalType type = ProposalType::add;
  std::optional<KeyPackage> add;   // add
  std::optional<LeafNode> update;  // update
  std::uint32_t removed = 0;       // remove
  std::optional<PreSharedKeyId> psk;
  Bytes opaque_body;  // reinit / external_init / group_context_extensions: kept as bytes, refused on use
};

struct ProposalOrRef {
  std::optional<Proposal> proposal;  // type proposal(1)
  Bytes reference;                   // type reference(2)
};

struct HpkeCiphertextWire {
  Bytes kem_output;
  Bytes ciphertext;
};

struct UpdatePathNode {
  Bytes encryption_key;
  std::vector<HpkeCiphertextWire> encrypted_path_secret;
};

struct UpdatePath {
  LeafNode leaf_node;
  std::vector<UpdatePathNode> nodes;
};

struct Commit {
  std::vector<ProposalOrRef> proposals;
  std::optional<UpdatePath> path;
};

struct Sender {
  SenderType type = SenderType::member;
  std::uint32_t index = 0;  // leaf_index (member) or sender_index (external)
};

struct FramedContent {
  Bytes group_id;
  std::uint64_t epoch = 0;
  Sender sender;
  Bytes authenticated_data;
  ContentType content_type = ContentType::application;
  Bytes application_data;
  std::optional<Proposal> proposal;
  std::optional<Commit> commit;
};

struct FramedContentAuthData {
  Bytes signature;
  Bytes confirmation_tag;  // commits only
};

struct PublicMessage {
  FramedContent content;
  FramedContentAuthData auth;
  Bytes membership_tag;  // member senders only
};

struct PrivateMessage {
  Bytes group_id;
  std::uint64_t epoch = 0;
  ContentType content_type = ContentType::application;
  Bytes authenticated_data;
  Bytes encrypted_sender_data;
  Bytes ciphertext;
};

struct GroupContext {
  std::uint16_t version = kProtocolVersionMls10;
  std::uint16_t cipher_suite = 0;
  Bytes group_id;
  std::uint64_t epoch = 0;
  Bytes tree_hash;
  Bytes confirmed_transcript_hash;
  std::vector<Extension> extensions;
};

struct GroupInfo {
  GroupContext group_context;
  std::vector<Extension> extensions;
  Bytes confirmation_tag;
  std::uint32_t signer = 0;
  Bytes signature;
};

struct GroupSecrets {
  Bytes joiner_secret;
  std::optional<Bytes> path_secret;
  std::vector<PreSharedKeyId> psks;
};

struct EncryptedGroupSecrets {
  Bytes new_member;  // KeyPackageRef
  HpkeCiphertextWire encrypted_group_secrets;
};

struct Welcome {
  std::uint16_t cipher_suite = 0;
  std::vector<EncryptedGroupSecrets> secrets;
  Bytes encrypted_group_info;
};

struct ExternalSender {
  Bytes signature_key;
  Credential credential;
};

// The top-level MLSMessage: exactly one body matches wire_format.
struct MlsMessage {
  std::uint16_t version = kProtocolVersionMls10;
  WireFormat wire_format = WireFormat::public_message;
  std::optional<PublicMessage> public_message;
  std::optional<PrivateMessage> private_message;
  std::optional<Welcome> welcome;
  std::optional<GroupInfo> group_info;
  std::optional<KeyPackage> key_package;
};

// A ratchet tree as the ratchet_tree extension carries it: node i is blank when empty.
struct TreeNode {
  std::optional<LeafNode> leaf;
  std::optional<ParentNode> parent;
};
using RatchetTreeNodes = std::vector<std::optional<TreeNode>>;

// --- encoding -------------------------------------------------------------------------------------
void encode(Writer& w, const Extension& v);
void encode(Writer& w, const std::vector<Extension>& v);
void encode(Writer& w, const Credential& v);
void encode(Writer& w, const Capabilities& v);
void encode(Writer& w, const LeafNode& v);
// LeafNodeTBS: the leaf without its signature, plus group_id and leaf_index for update/commit sources.
void encode_leaf_node_tbs(Writer& w, const LeafNode& v, BytesView group_id, std::uint32_t leaf_index);
void encode(Writer& w, const ParentNode& v);
void encode(Writer& w, const KeyPackage& v);
void encode_key_package_tbs(Writer& w, const KeyPackage& v);
void encode(Writer& w, const PreSharedKeyId& v);
void encode(Writer& w, const Proposal& v);
void encode(Writer& w, const ProposalOrRef& v);
void encode(Writer& w, const HpkeCiphertextWire& v);
void encode(Writer& w, const UpdatePath& v);
void encode(Writer& w, const Commit& v);
void encode(Writer& w, const Sender& v);
void encode(Writer& w, const FramedContent& v);
void encode(Writer& w, const FramedContentAuthData& v, ContentType content_type);
void encode(Writer& w, const PublicMessage& v);
void encode(Writer& w, const PrivateMessage& v);
void encode(Writer& w, const GroupContext& v);
void encode(Writer& w, const GroupInfo& v);
void encode_group_info_tbs(Writer& w, const GroupInfo& v);
void encode(Writer& w, const GroupSecrets& v);
void encode(Writer& w, const Welcome& v);
void encode(Writer& w, const ExternalSender& v);
void encode(Writer& w, const MlsMessage& v);
void encode(Writer& w, const RatchetTreeNodes& v);

template <typename T>
Bytes serialize(const T& v) {
  Writer w;
  encode(w, v);
  return w.take();
}

// --- decoding: each throws Error(Decode) naming the field -----------------------------------------
Extension decode_extension(Reader& r);
std::vector<Extension> decode_extensions(Reader& r);
Credential decode_credential(Reader& r);
Capabilities decode_capabilities(Reader& r);
LeafNode decode_leaf_node(Reader& r);
ParentNode decode_parent_node(Reader& r);
KeyPackage decode_key_package(Reader& r);
PreSharedKeyId decode_psk_id(Reader& r);
Proposal decode_proposal(Reader& r);
UpdatePath decode_update_path(Reader& r);
Commit decode_commit(Reader& r);
FramedContent decode_framed_content(Reader& r);
FramedContentAuthData decode_auth_data(Reader& r, ContentType content_type);
PublicMessage decode_public_message(Reader& r);
PrivateMessage decode_private_message(Reader& r);
GroupContext decode_group_context(Reader& r);
GroupInfo decode_group_info(Reader& r);
GroupSecrets decode_group_secrets(Reader& r);
Welcome decode_welcome(Reader& r);
ExternalSender decode_external_sender(Reader& r);
RatchetTreeNodes decode_ratchet_tree(Reader& r);

// A whole MLSMessage; trailing bytes are an error.
MlsMessage decode_mls_message(BytesView bytes);
// A whole structure of type T from bytes, refusing trailing data.
template <typename T>
T decode_all(BytesView bytes, T (*decoder)(Reader&), const char* what) {
  Reader r(bytes);
  T v = decoder(r);
  r.expect_end(what);
  return v;
}

}  // namespace platformpp::voice::e2ee
