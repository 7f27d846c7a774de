// Group state per epoch: creation, Welcome, proposals, Commit creation and processing (RFC 9420
// sections 11-12) for the DAVE subset. Every state change is computed on a copy and swapped in only
// when the whole message checked out, so a refused message leaves the group as it was.
#include "voice/e2ee/group.hpp"

#include <algorithm>
#include <limits>
#include <set>

#include "voice/e2ee/framing.hpp"
#include "voice/e2ee/key_schedule.hpp"
#include "voice/e2ee/tree.hpp"

namespace platformpp::voice::e2ee {

namespace {

[[noreturn]] void protocol_error(const std::string& what) { throw Error(ErrorKind::Protocol, what); }
[[noreturn]] void unsupported(const std::string& what) { throw Error(ErrorKind::Unsupported, what); }
[[noreturn]] void state_error(const std::string& what) { throw Error(ErrorKind::State, what); }

constexpr std::uint16_t kExternalSendersExtension = static_cast<std::uint16_t>(ExtensionType::external_senders);
constexpr std::uint16_t kRatchetTreeExtension = static_cast<std::uint16_t>(ExtensionType::ratchet_tree);
constexpr std::size_t kResumptionPskHistory = 16;

const Extension* find_extension(const std::vector<Extension>& list, std::uint16_t type) {
  for (const auto& e : list) {
    if (e.type == type) return &e;
  }
  return nullptr;
}

Bytes proposal_ref(WireFormat wire_format, const FramedContent& content, const FramedContentAuthData& auth) {
  Writer w;
  w.u16(static_cast<std::uint16_t>(wire_format));
  encode(w, content);
  encode(w, auth, content.content_type);
  return ref_hash("MLS 1.0 Proposal Reference", w.bytes());
}

bool verify_leaf_signature(const LeafNode& leaf, BytesView group_id, std::uint32_t index) {
  Writer tbs;
  encode_leaf_node_tbs(tbs, leaf, group_id, index);
  return verify_with_label(leaf.signature_key, "LeafNodeTBS", tbs.bytes(), leaf.signature);
}

void sign_leaf(LeafNode& leaf, BytesView signature_private_key, BytesView group_id, std::uint32_t index) {
  Writer tbs;
  encode_leaf_node_tbs(tbs, leaf, group_id, index);
  leaf.signature = sign_with_label(signature_private_key, "LeafNodeTBS", tbs.bytes());
}

// RFC 9420 section 10.1 checks of a KeyPackage, plus the subset's: suite 2, basic credential.
void validate_key_package(const KeyPackage& kp, bool dave_rules) {
  if (kp.version != kProtocolVersionMls10) unsupported("key_package.version: only mls10 is supported");
  if (kp.cipher_suite != kCipherSuite) unsupported("key_package.cipher_suite: only suite 2 is supported");
  if (kp.leaf_node.source != LeafNodeSource::key_package) {
    protocol_error("key_package.leaf_node: leaf_node_source must be key_package");
  }
  if (kp.leaf_node.credential.type != CredentialType::basic) unsupported("key_package: only basic credentials");
  if (dave_rules && kp.leaf_node.credential.identity.size() != 8) {
    protocol_error("key_package: the basic credential identity must be an 8-byte user id");
  }
  if (kp.init_key == kp.leaf_node.encryption_key) {
    protocol_error("key_package: init_key must differ from the leaf encryption_key");
  }
  Writer tbs;
  encode_key_package_tbs(tbs, kp);
  if (!verify_with_label(kp.leaf_node.signature_key, "KeyPackageTBS", tbs.bytes(), kp.signature)) {
    throw Error(ErrorKind::Crypto, "key_package: signature does not verify");
  }
  if (!verify_leaf_signature(kp.leaf_node, BytesView(), 0)) {
    throw Error(ErrorKind::Crypto, "key_package.leaf_node: signature does not verify");
  }
}

Bytes serialized_tree_extension(const RatchetTree& tree) { return serialize(tree.to_nodes()); }

}  // namespace

Bytes user_id_identity(std::uint64_t user_id) {
  Writer w;
  w.u64(user_id);
  return w.take();
}

std::uint64_t user_id_of(const Credential& credential) {
  if (credential.type != CredentialType::basic || credential.identity.size() != 8) {
    protocol_error("credential: a member's identity must be a basic credential of 8 bytes");
  }
  Reader r(credential.identity);
  return r.u64("credential.identity");
}

Bytes key_package_ref(const KeyPackage& key_package) {
  return ref_hash("MLS 1.0 KeyPackage Reference", serialize(key_package));
}

KeyPackageBundle create_key_package(std::uint64_t user_id, const SignatureKeyPair& signature_key) {
  KeyPackageBundle b;
  HpkeKeyPair init = hpke_generate_key_pair();
  HpkeKeyPair enc = hpke_generate_key_pair();
  KeyPackage& kp = b.key_package;
  kp.cipher_suite = kCipherSuite;
  kp.init_key = init.public_key;
  LeafNode& leaf = kp.leaf_node;
  leaf.encryption_key = enc.public_key;
  leaf.signature_key = signature_key.public_key;
  leaf.credential.type = CredentialType::basic;
  leaf.credential.identity = user_id_identity(user_id);
  leaf.capabilities.versions = {kProtocolVersionMls10};
  leaf.capabilities.cipher_suites = {kCipherSuite};
  leaf.capabilities.credentials = {static_cast<std::uint16_t>(CredentialType::basic)};
  leaf.source = LeafNodeSource::key_package;
  leaf.lifetime = Lifetime{0, std::numeric_limits<std::uint64_t>::max()};
  sign_leaf(leaf, signature_key.private_key, BytesView(), 0);
  Writer tbs;
  encode_key_package_tbs(tbs, kp);
  kp.signature = sign_with_label(signature_key.private_key, "KeyPackageTBS", tbs.bytes());
  MlsMessage m;
  m.wire_format = WireFormat::key_package;
  m.key_package = kp;
  b.key_package_message = serialize(m);
  b.init_private_key = std::move(init.private_key);
  b.encryption_private_key = std::move(enc.private_key);
  b.signature_private_key = signature_key.private_key;
  return b;
}

// --- state -----------------------------------------------------------------------------------------------

struct CachedProposal {
  Proposal proposal;
  Sender sender;
  Bytes ref;
};

class GroupState {
 public:
  GroupOptions options;
  GroupContext context;
  RatchetTree tree;
  std::uint32_t own_leaf = 0;
  bool member = true;
  Bytes signature_private_key;
  std::map<NodeIndex, Bytes> private_keys;
  EpochSecrets secrets;
  SecretTree secret_tree;
  Bytes interim_transcript_hash;
  std::vector<CachedProposal> proposals;
  std::map<std::uint64_t, Bytes> resumption_psks;  // recent epochs, for resumption PSK proposals

  struct Pending {
    Bytes commit_message;
    std::shared_ptr<GroupState> next;
  };
  std::optional<Pending> pending;

  GroupState() = default;
  GroupState(const GroupState&) = default;
  GroupState& operator=(GroupState&&) = default;
  ~GroupState() {
    wipe(signature_private_key);
    for (auto& [node, key] : private_keys) wipe(key);
    for (auto& [epoch, psk] : resumption_psks) wipe(psk);
  }

  void require_member() const {
    if (!member) state_error("group: we are no longer a member");
  }

  // Enters the epoch described by `context` with `joiner_secret`; checks the confirmation tag.
  void enter_epoch(const Bytes& joiner_secret, const Bytes& psk_secret, const Bytes& confirmation_tag) {
    const Bytes ctx = serialize(context);
    secrets = derive_epoch_secrets(joiner_secret, psk_secret, ctx);
    if (!constant_time_equal(hmac_sha256(secrets.confirmation_key, context.confirmed_transcript_hash),
                             confirmation_tag)) {
      throw Error(ErrorKind::Crypto, "confirmation_tag does not verify");
    }
    interim_transcript_hash = e2ee::interim_transcript_hash(context.confirmed_transcript_hash, confirmation_tag);
    secret_tree = SecretTree(secrets.encryption_secret, tree.n_leaves());
    resumption_psks[context.epoch] = secrets.resumption_psk;
    while (resumption_psks.size() > kResumptionPskHistory) resumption_psks.erase(resumption_psks.begin());
    proposals.clear();
    pending.reset();
  }

  std::vector<ExternalSender> external_senders() const {
    std::vector<ExternalSender> out;
    if (const Extension* e = find_extension(context.extensions, kExternalSendersExtension)) {
      Reader r(e->data);
      Reader list = r.sub_vec("external_senders");
      r.expect_end("external_senders extension");
      while (!list.empty()) out.push_back(decode_external_sender(list));
    }
    return out;
  }

  // Unwraps a handshake message of this epoch into content and auth data, checking the signature and
  // (for a public member message) the membership tag.
  struct Verified {
    FramedContent content;
    FramedContentAuthData auth;
    WireFormat wire_format;
  };
  Verified verify_handshake(BytesView bytes) {
    const MlsMessage m = decode_mls_message(bytes);
    Verified v;
    v.wire_format = m.wire_format;
    if (m.public_message) {
      v.content = m.public_message->content;
      v.auth = m.public_message->auth;
    } else if (m.private_message) {
      if (options.dave_rules) protocol_error("handshake: DAVE sends handshake messages as PublicMessage");
      if (m.private_message->group_id != context.group_id || m.private_message->epoch != context.epoch) {
        protocol_error("handshake: message is for another group or epoch");
      }
      if (m.private_message->content_type == ContentType::application) {
        protocol_error("handshake: application data is not a handshake message");
      }
      DecryptedContent d = unprotect_private(*m.private_message, secret_tree, secrets.sender_data_secret);
      v.content = std::move(d.content);
      v.auth = std::move(d.auth);
    } else {
      protocol_error("handshake: wire format must be PublicMessage or PrivateMessage");
    }
    const FramedContent& c = v.content;
    if (c.group_id != context.group_id) protocol_error("handshake: group_id is not this group's");
    if (c.epoch != context.epoch) {
      protocol_error("handshake: epoch " + std::to_string(c.epoch) + " is not the current " +
                     std::to_string(context.epoch));
    }
    if (c.content_type == ContentType::application) protocol_error("handshake: content is application data");
    switch (c.sender.type) {
      case SenderType::member: {
        const LeafNode* leaf = tree.leaf(c.sender.index);
        if (!leaf) protocol_error("handshake: sender leaf " + std::to_string(c.sender.index) + " is not a member");
        if (!verify_framed_content(leaf->signature_key, v.wire_format, c, &context, v.auth.signature)) {
          throw Error(ErrorKind::Crypto, "handshake: member signature does not verify");
        }
        if (m.public_message &&
            !constant_time_equal(membership_tag(secrets.membership_key, c, v.auth, context),
                                 m.public_message->membership_tag)) {
          throw Error(ErrorKind::Crypto, "handshake: membership_tag does not verify");
        }
        break;
      }
      case SenderType::external: {
        if (!m.public_message) protocol_error("handshake: an external sender must use PublicMessage");
        const auto senders = external_senders();
        if (c.sender.index >= senders.size()) protocol_error("handshake: unknown external sender index");
        if (c.content_type != ContentType::proposal) protocol_error("handshake: an external sender may only propose");
        if (!verify_framed_content(senders[c.sender.index].signature_key, v.wire_format, c, nullptr,
                                   v.auth.signature)) {
          throw Error(ErrorKind::Crypto, "handshake: external sender signature does not verify");
        }
        break;
      }
      default:
        unsupported("handshake: new member senders (external joins) are not supported");
    }
    return v;
  }

  void check_proposal_allowed(const Proposal& p, const Sender& sender) const {
    switch (p.type) {
      case ProposalType::add:
        validate_key_package(*p.add, options.dave_rules);
        return;
      case ProposalType::remove:
        if (!tree.leaf(p.removed)) protocol_error("remove: leaf " + std::to_string(p.removed) + " is not a member");
        return;
      case ProposalType::update:
      case ProposalType::psk:
      case ProposalType::group_context_extensions:
        if (options.dave_rules) unsupported("proposal: DAVE allows only Add and Remove");
        if (p.type == ProposalType::update && sender.type != SenderType::member) {
          protocol_error("update: only a member may propose an update");
        }
        return;
      default:
        unsupported("proposal type " + std::to_string(static_cast<int>(p.type)) + " is outside the supported subset");
    }
  }

  ProposalInfo info_of(const CachedProposal& c) const {
    ProposalInfo info;
    info.ref = c.ref;
    info.type = c.proposal.type;
    if (c.proposal.type == ProposalType::add && options.dave_rules) {
      info.user_id = user_id_of(c.proposal.add->leaf_node.credential);
    }
    if (c.proposal.type == ProposalType::remove) {
      info.removed_leaf = c.proposal.removed;
      if (options.dave_rules) info.user_id = user_id_of(tree.leaf(c.proposal.removed)->credential);
    }
    return info;
  }

  // --- applying a commit's proposals -------------------------------------------------------------------

  struct Applied {
    RatchetTree tree;
    std::vector<std::uint32_t> joiners;
    std::vector<KeyPackage> joiner_packages;
    std::vector<std::pair<PreSharedKeyId, Bytes>> psks;
    std::vector<Extension> extensions;
    bool path_required = false;
    bool removed_self = false;
  };

  std::vector<CachedProposal> resolve(const Commit& commit, std::uint32_t committer) const {
    std::vector<CachedProposal> out;
    for (const auto& por : commit.proposals) {
      if (por.proposal) {
        if (options.dave_rules) protocol_error("commit: DAVE commits carry proposals only by reference");
        const Sender self_sender{SenderType::member, committer};
        check_proposal_allowed(*por.proposal, self_sender);
        out.push_back(CachedProposal{*por.proposal, self_sender, {}});
        continue;
      }
      auto it = std::find_if(proposals.begin(), proposals.end(),
                             [&](const CachedProposal& c) { return c.ref == por.reference; });
      if (it == proposals.end()) protocol_error("commit: references a proposal we have not received");
      out.push_back(*it);
    }
    return out;
  }

  Applied apply_proposals(const std::vector<CachedProposal>& list, std::uint32_t committer) const {
    Applied a;
    a.tree = tree;
    a.extensions = context.extensions;
    a.path_required = list.empty();
    std::set<std::uint32_t> removed;
    // RFC 9420 section 12.3 order: GroupContextExtensions, Update, Remove, Add; PSKs feed the key schedule.
    for (const auto& c : list) {
      if (c.proposal.type != ProposalType::group_context_extensions) continue;
      Reader r(c.proposal.opaque_body);
      a.extensions = decode_extensions(r);
      a.path_required = true;
    }
    for (const auto& c : list) {
      if (c.proposal.type != ProposalType::update) continue;
      if (c.sender.index == committer) protocol_error("commit: includes an update from the committer");
      const LeafNode& ln = *c.proposal.update;
      if (ln.source != LeafNodeSource::update) protocol_error("update: leaf_node_source must be update");
      if (!verify_leaf_signature(ln, context.group_id, c.sender.index)) {
        throw Error(ErrorKind::Crypto, "update: leaf signature does not verify");
      }
      *a.tree.leaf(c.sender.index) = ln;
      a.tree.blank_direct_path(c.sender.index);
      a.path_required = true;
    }
    for (const auto& c : list) {
      if (c.proposal.type != ProposalType::remove) continue;
      if (!removed.insert(c.proposal.removed).second) protocol_error("commit: removes a leaf twice");
      if (c.proposal.removed == committer) protocol_error("commit: the committer removes itself");
      if (c.proposal.removed == own_leaf) a.removed_self = true;
      a.tree.remove_leaf(c.proposal.removed);
      a.path_required = true;
    }
    for (const auto& c : list) {
      if (c.proposal.type != ProposalType::add) continue;
      a.joiners.push_back(a.tree.add_leaf(c.proposal.add->leaf_node));
      a.joiner_packages.push_back(*c.proposal.add);
    }
    for (const auto& c : list) {
      if (c.proposal.type != ProposalType::psk) continue;
      a.psks.emplace_back(*c.proposal.psk, psk_value(*c.proposal.psk));
    }
    check_leaves(a.tree);
    return a;
  }

  Bytes psk_value(const PreSharedKeyId& id) const {
    if (id.psk_type == 1) {
      auto it = options.external_psks.find(id.psk_id);
      if (it == options.external_psks.end()) protocol_error("psk: unknown external psk_id");
      return it->second;
    }
    if (id.usage != 1) unsupported("psk: only application resumption PSKs are supported");
    if (id.psk_group_id != context.group_id) unsupported("psk: resumption from another group");
    auto it = resumption_psks.find(id.psk_epoch);
    if (it == resumption_psks.end()) protocol_error("psk: resumption epoch is not retained");
    return it->second;
  }

  void check_leaves(const RatchetTree& t) const {
    std::set<Bytes> keys, identities;
    for (std::uint32_t i = 0; i < t.n_leaves(); ++i) {
      const LeafNode* ln = t.leaf(i);
      if (!ln) continue;
      if (!keys.insert(ln->encryption_key).second || !keys.insert(ln->signature_key).second) {
        protocol_error("group: leaf " + std::to_string(i) + " repeats another leaf's key");
      }
      if (options.dave_rules) (void)user_id_of(ln->credential);  // basic, 8 bytes
      if (options.dave_rules && !identities.insert(ln->credential.identity).second) {
        protocol_error("group: user id of leaf " + std::to_string(i) + " is already a member");
      }
    }
  }

  // The group context for the next epoch, before the confirmed transcript hash is known.
  GroupContext provisional_context(const Applied& a) const {
    GroupContext next = context;
    next.epoch = context.epoch + 1;
    next.tree_hash = a.tree.tree_hash();
    next.extensions = a.extensions;
    return next;
  }

  // Forgets private keys of nodes that are now blank or that the committer's path replaced.
  void drop_stale_keys(const RatchetTree& t, std::uint32_t committer) {
    const NodeIndex committer_leaf = tree_math::leaf_to_node(committer);
    for (auto it = private_keys.begin(); it != private_keys.end();) {
      const NodeIndex x = it->first;
      const bool replaced = !tree_math::is_leaf(x) && tree_math::in_subtree(x, committer_leaf);
      if (x >= t.n_nodes() || t.is_blank(x) || replaced) {
        it = private_keys.erase(it);
      } else {
        ++it;
      }
    }
  }

  // Processes another member's commit into the next epoch's state.
  std::shared_ptr<GroupState> next_state_from(const Verified& v) const {
    if (v.content.content_type != ContentType::commit) protocol_error("commit: content is not a commit");
    if (v.content.sender.type != SenderType::member) unsupported("commit: only member commits are supported");
    const std::uint32_t committer = v.content.sender.index;
    if (committer == own_leaf) protocol_error("commit: claims to come from our own leaf but is not our pending commit");
    const Commit& commit = *v.content.commit;
    const std::vector<CachedProposal> list = resolve(commit, committer);
    if (options.dave_rules && list.empty()) protocol_error("commit: DAVE commits reference at least one proposal");
    Applied a = apply_proposals(list, committer);
    if (a.path_required && !commit.path) protocol_error("commit: path is required for these proposals");

    auto next = std::make_shared<GroupState>(*this);
    next->pending.reset();
    Bytes commit_secret(kHashSize, 0);
    if (commit.path) {
      const UpdatePath& path = *commit.path;
      const LeafNode* old_leaf = a.tree.leaf(committer);
      if (options.dave_rules && (path.leaf_node.signature_key != old_leaf->signature_key ||
                                 !(path.leaf_node.credential == old_leaf->credential))) {
        protocol_error("commit: the committer changed its credential or signature key");
      }
      if (!verify_leaf_signature(path.leaf_node, context.group_id, committer)) {
        throw Error(ErrorKind::Crypto, "commit: path leaf signature does not verify");
      }
      a.tree.merge_update_path(committer, path);
      check_leaves(a.tree);
    }
    const GroupContext provisional = provisional_context(a);
    if (a.removed_self) {
      next->member = false;
      next->tree = std::move(a.tree);
      next->context = provisional;
      next->private_keys.clear();
      next->secrets = EpochSecrets{};
      next->proposals.clear();
      return next;
    }
    next->tree = std::move(a.tree);
    next->drop_stale_keys(next->tree, committer);
    if (commit.path) {
      const DecryptedPath d = decrypt_path_secrets(next->tree, committer, own_leaf, *commit.path, private_keys,
                                                   serialize(provisional), a.joiners);
      commit_secret = d.commit_secret;
      for (const auto& [node, key] : d.private_keys) next->private_keys[node] = key;
    }
    next->context = provisional;
    next->context.confirmed_transcript_hash =
        confirmed_transcript_hash(interim_transcript_hash, v.wire_format, v.content, v.auth.signature);
    const Bytes joiner =
        derive_joiner_secret(secrets.init_secret, commit_secret, serialize(next->context));
    next->enter_epoch(joiner, derive_psk_secret(a.psks), v.auth.confirmation_tag);
    return next;
  }
};

// --- Group ----------------------------------------------------------------------------------------------

Group::Group(std::unique_ptr<GroupState> state) : state_(std::move(state)) {}
Group::Group(Group&&) noexcept = default;
Group& Group::operator=(Group&&) noexcept = default;
Group::~Group() = default;

Group Group::create(BytesView group_id, const KeyPackageBundle& self, const ExternalSender& external_sender,
                    const GroupOptions& options) {
  validate_key_package(self.key_package, options.dave_rules);
  auto s = std::make_unique<GroupState>();
  s->options = options;
  s->signature_private_key = self.signature_private_key;
  s->own_leaf = s->tree.add_leaf(self.key_package.leaf_node);
  s->private_keys[tree_math::leaf_to_node(s->own_leaf)] = self.encryption_private_key;
  s->context.cipher_suite = kCipherSuite;
  s->context.group_id = group_id.to_bytes();
  s->context.epoch = 0;
  s->context.tree_hash = s->tree.tree_hash();
  Writer senders;
  const auto start = senders.begin_vec();
  encode(senders, external_sender);
  senders.end_vec(start);
  s->context.extensions.push_back(Extension{kExternalSendersExtension, senders.take()});
  // Epoch 0: a random init secret, zero commit and PSK secrets, and the empty confirmed transcript.
  const Bytes joiner = derive_joiner_secret(random_bytes(kHashSize), Bytes(kHashSize, 0), serialize(s->context));
  const EpochSecrets first = derive_epoch_secrets(joiner, Bytes(kHashSize, 0), serialize(s->context));
  s->enter_epoch(joiner, Bytes(kHashSize, 0), hmac_sha256(first.confirmation_key, Bytes{}));
  return Group(std::move(s));
}

OpenedWelcome open_welcome(BytesView welcome_bytes, const KeyPackageBundle& self, const GroupOptions& options) {
  Welcome welcome;
  if (welcome_bytes.size >= 2 && welcome_bytes.data[0] == 0 && welcome_bytes.data[1] == kProtocolVersionMls10) {
    MlsMessage m = decode_mls_message(welcome_bytes);
    if (!m.welcome) protocol_error("welcome: the MLSMessage does not hold a Welcome");
    welcome = std::move(*m.welcome);
  } else {
    welcome = decode_all(welcome_bytes, decode_welcome, "welcome");
  }
  if (welcome.cipher_suite != kCipherSuite) unsupported("welcome.cipher_suite: only suite 2 is supported");
  const Bytes my_ref = key_package_ref(self.key_package);
  auto mine = std::find_if(welcome.secrets.begin(), welcome.secrets.end(),
                           [&](const EncryptedGroupSecrets& e) { return e.new_member == my_ref; });
  if (mine == welcome.secrets.end()) protocol_error("welcome: holds no secrets for our key package");
  const Bytes gs_bytes = decrypt_with_label(self.init_private_key, "Welcome", welcome.encrypted_group_info,
                                            mine->encrypted_group_secrets.kem_output,
                                            mine->encrypted_group_secrets.ciphertext);
  OpenedWelcome out;
  out.group_secrets = decode_all(gs_bytes, decode_group_secrets, "group_secrets");
  std::vector<std::pair<PreSharedKeyId, Bytes>> psks;
  for (const auto& id : out.group_secrets.psks) {
    if (options.dave_rules) unsupported("welcome: DAVE groups use no pre-shared keys");
    if (id.psk_type != 1) unsupported("welcome: only external PSKs can be used when joining");
    auto it = options.external_psks.find(id.psk_id);
    if (it == options.external_psks.end()) protocol_error("welcome: unknown external psk_id");
    psks.emplace_back(id, it->second);
  }
  out.psk_secret = derive_psk_secret(psks);
  const Bytes welcome_secret = derive_welcome_secret(out.group_secrets.joiner_secret, out.psk_secret);
  const Bytes gi_bytes = aead_open(welcome_key(welcome_secret), welcome_nonce(welcome_secret), BytesView(),
                                   welcome.encrypted_group_info);
  out.group_info = decode_all(gi_bytes, decode_group_info, "group_info");
  const GroupContext& gc = out.group_info.group_context;
  if (gc.version != kProtocolVersionMls10 || gc.cipher_suite != kCipherSuite) {
    unsupported("group_info.group_context: only mls10 with suite 2 is supported");
  }
  return out;
}

Group Group::join(BytesView welcome_bytes, const KeyPackageBundle& self,
                  const std::optional<RatchetTreeNodes>& ratchet_tree, const GroupOptions& options) {
  OpenedWelcome opened = open_welcome(welcome_bytes, self, options);
  const GroupSecrets& gs = opened.group_secrets;
  const GroupInfo& gi = opened.group_info;
  const Bytes& psk_secret = opened.psk_secret;
  auto s = std::make_unique<GroupState>();
  s->options = options;
  if (const Extension* e = find_extension(gi.extensions, kRatchetTreeExtension)) {
    s->tree = RatchetTree::from_nodes(decode_all(e->data, decode_ratchet_tree, "ratchet_tree"));
  } else if (ratchet_tree) {
    s->tree = RatchetTree::from_nodes(*ratchet_tree);
  } else {
    protocol_error("welcome: no ratchet tree in the GroupInfo and none given");
  }
  if (s->tree.tree_hash() != gi.group_context.tree_hash) protocol_error("welcome: ratchet tree hash does not match");
  s->tree.verify_leaves(gi.group_context.group_id);
  if (!s->tree.parent_hashes_valid()) protocol_error("welcome: ratchet tree parent hashes are not valid");
  const LeafNode* signer = s->tree.leaf(gi.signer);
  if (!signer) protocol_error("welcome: group_info.signer is not a member");
  Writer tbs;
  encode_group_info_tbs(tbs, gi);
  if (!verify_with_label(signer->signature_key, "GroupInfoTBS", tbs.bytes(), gi.signature)) {
    throw Error(ErrorKind::Crypto, "welcome: group_info signature does not verify");
  }

  bool found = false;
  for (std::uint32_t i = 0; i < s->tree.n_leaves() && !found; ++i) {
    const LeafNode* ln = s->tree.leaf(i);
    if (ln && ln->encryption_key == self.key_package.leaf_node.encryption_key &&
        ln->signature_key == self.key_package.leaf_node.signature_key) {
      s->own_leaf = i;
      found = true;
    }
  }
  if (!found) protocol_error("welcome: our leaf is not in the ratchet tree");
  s->signature_private_key = self.signature_private_key;
  s->private_keys[tree_math::leaf_to_node(s->own_leaf)] = self.encryption_private_key;
  if (gs.path_secret) {
    for (auto& [node, key] : private_keys_from_path_secret(s->tree, gi.signer, s->own_leaf, *gs.path_secret)) {
      s->private_keys[node] = std::move(key);
    }
  }
  s->context = gi.group_context;
  s->check_leaves(s->tree);
  if (options.dave_rules && s->external_senders().size() != 1) {
    protocol_error("welcome: a DAVE group has exactly one external sender");
  }
  s->enter_epoch(gs.joiner_secret, psk_secret, gi.confirmation_tag);
  return Group(std::move(s));
}

std::vector<ProposalInfo> Group::receive_proposals(BytesView concatenated) {
  state_->require_member();
  std::vector<CachedProposal> staged;
  Reader r(concatenated);
  while (!r.empty()) {
    // Each MLSMessage's end is found by decoding it; then it is verified on its own bytes.
    const std::uint8_t* start = r.position();
    {
      Reader probe = r;
      const std::uint16_t version = probe.u16("mls_message.version");
      if (version != kProtocolVersionMls10) unsupported("mls_message.version: only mls10 is supported");
      if (probe.u16("mls_message.wire_format") != static_cast<std::uint16_t>(WireFormat::public_message)) {
        protocol_error("proposals: the external sender sends PublicMessages");
      }
      decode_public_message(probe);
      r = probe;
    }
    const BytesView one(start, static_cast<std::size_t>(r.position() - start));
    GroupState::Verified v = state_->verify_handshake(one);
    if (v.content.sender.type != SenderType::external) {
      protocol_error("proposals: DAVE proposals come from the external sender");
    }
    if (v.content.content_type != ContentType::proposal) protocol_error("proposals: message is not a proposal");
    state_->check_proposal_allowed(*v.content.proposal, v.content.sender);
    staged.push_back(CachedProposal{*v.content.proposal, v.content.sender,
                                    proposal_ref(v.wire_format, v.content, v.auth)});
  }
  std::vector<ProposalInfo> out;
  for (auto& c : staged) {
    out.push_back(state_->info_of(c));
    state_->proposals.push_back(std::move(c));
  }
  return out;
}

ProposalInfo Group::receive_member_proposal(BytesView mls_message) {
  state_->require_member();
  if (state_->options.dave_rules) protocol_error("proposals: DAVE accepts proposals only from the external sender");
  GroupState::Verified v = state_->verify_handshake(mls_message);
  if (v.content.content_type != ContentType::proposal) protocol_error("proposal: message is not a proposal");
  state_->check_proposal_allowed(*v.content.proposal, v.content.sender);
  CachedProposal c{*v.content.proposal, v.content.sender, proposal_ref(v.wire_format, v.content, v.auth)};
  ProposalInfo info = state_->info_of(c);
  state_->proposals.push_back(std::move(c));
  return info;
}

void Group::revoke_proposals(const std::vector<Bytes>& refs) {
  auto& list = state_->proposals;
  list.erase(std::remove_if(list.begin(), list.end(),
                            [&](const CachedProposal& c) {
                              return std::find(refs.begin(), refs.end(), c.ref) != refs.end();
                            }),
             list.end());
}

bool Group::has_pending_proposals() const { return !state_->proposals.empty(); }

CommitOutput Group::commit_pending_proposals() {
  GroupState& s = *state_;
  s.require_member();
  if (s.proposals.empty()) state_error("commit: there are no pending proposals");
  GroupState::Applied a = s.apply_proposals(s.proposals, s.own_leaf);
  if (a.removed_self) state_error("commit: a pending proposal removes us");

  // The update path: a fresh leaf key, path secrets, keys and parent hashes.
  const HpkeKeyPair leaf_keys = hpke_generate_key_pair();
  LeafNode leaf = *a.tree.leaf(s.own_leaf);
  leaf.encryption_key = leaf_keys.public_key;
  leaf.source = LeafNodeSource::commit;
  const auto fdp = a.tree.filtered_direct_path(s.own_leaf);
  const PathSecrets path_secrets = derive_path_secrets(random_bytes(kHashSize), fdp.size());
  leaf.parent_hash = a.tree.set_path_keys(s.own_leaf, path_secrets.public_keys);
  sign_leaf(leaf, s.signature_private_key, s.context.group_id, s.own_leaf);
  *a.tree.leaf(s.own_leaf) = leaf;
  s.check_leaves(a.tree);
  const GroupContext provisional = s.provisional_context(a);

  Commit commit;
  for (const auto& c : s.proposals) commit.proposals.push_back(ProposalOrRef{std::nullopt, c.ref});
  UpdatePath path;
  path.leaf_node = leaf;
  path.nodes = encrypt_path_secrets(a.tree, s.own_leaf, path_secrets, serialize(provisional), a.joiners);
  commit.path = path;

  FramedContent content;
  content.group_id = s.context.group_id;
  content.epoch = s.context.epoch;
  content.sender = Sender{SenderType::member, s.own_leaf};
  content.content_type = ContentType::commit;
  content.commit = commit;
  FramedContentAuthData auth;
  auth.signature = sign_framed_content(s.signature_private_key, WireFormat::public_message, content, &s.context);

  auto next = std::make_shared<GroupState>(s);
  next->tree = std::move(a.tree);
  next->private_keys.clear();
  next->private_keys[tree_math::leaf_to_node(s.own_leaf)] = leaf_keys.private_key;
  for (std::size_t i = 0; i < fdp.size(); ++i) next->private_keys[fdp[i].node] = path_secrets.private_keys[i];
  next->context = provisional;
  next->context.confirmed_transcript_hash =
      confirmed_transcript_hash(s.interim_transcript_hash, WireFormat::public_message, content, auth.signature);
  const Bytes joiner = derive_joiner_secret(s.secrets.init_secret, path_secrets.commit_secret, serialize(next->context));
  const Bytes psk_secret = derive_psk_secret(a.psks);
  const EpochSecrets epoch = derive_epoch_secrets(joiner, psk_secret, serialize(next->context));
  auth.confirmation_tag = hmac_sha256(epoch.confirmation_key, next->context.confirmed_transcript_hash);
  next->enter_epoch(joiner, psk_secret, auth.confirmation_tag);

  MlsMessage message;
  message.wire_format = WireFormat::public_message;
  message.public_message = PublicMessage{content, auth, membership_tag(s.secrets.membership_key, content, auth, s.context)};
  CommitOutput out;
  out.commit_message = serialize(message);

  if (!a.joiners.empty()) {
    GroupInfo gi;
    gi.group_context = next->context;
    gi.extensions.push_back(Extension{kRatchetTreeExtension, serialized_tree_extension(next->tree)});
    gi.confirmation_tag = auth.confirmation_tag;
    gi.signer = s.own_leaf;
    Writer tbs;
    encode_group_info_tbs(tbs, gi);
    gi.signature = sign_with_label(s.signature_private_key, "GroupInfoTBS", tbs.bytes());
    Welcome welcome;
    welcome.cipher_suite = kCipherSuite;
    welcome.encrypted_group_info =
        aead_seal(welcome_key(epoch.welcome_secret), welcome_nonce(epoch.welcome_secret), BytesView(), serialize(gi));
    for (std::size_t j = 0; j < a.joiners.size(); ++j) {
      GroupSecrets gs;
      gs.joiner_secret = joiner;
      for (std::size_t i = 0; i < fdp.size(); ++i) {
        const auto& step = fdp[i];
        if (tree_math::in_subtree(step.node, tree_math::leaf_to_node(a.joiners[j]))) {
          gs.path_secret = path_secrets.secrets[i];
          break;
        }
      }
      const HpkeCiphertext ct =
          encrypt_with_label(a.joiner_packages[j].init_key, "Welcome", welcome.encrypted_group_info, serialize(gs));
      welcome.secrets.push_back(EncryptedGroupSecrets{key_package_ref(a.joiner_packages[j]),
                                                      HpkeCiphertextWire{ct.kem_output, ct.ciphertext}});
    }
    out.welcome = serialize(welcome);
  }
  s.pending = GroupState::Pending{out.commit_message, std::move(next)};
  return out;
}

void Group::process_commit(BytesView commit_message) {
  GroupState& s = *state_;
  s.require_member();
  if (s.pending && constant_time_equal(s.pending->commit_message, commit_message)) {
    auto next = std::move(s.pending->next);
    *state_ = std::move(*next);
    return;
  }
  if (s.context.epoch == 0) {
    protocol_error("commit: our epoch-0 group has no other member; only our own pending commit applies");
  }
  const GroupState::Verified v = s.verify_handshake(commit_message);
  std::shared_ptr<GroupState> next = s.next_state_from(v);
  *state_ = std::move(*next);
}

void Group::discard_pending_commit() { state_->pending.reset(); }

bool Group::is_member() const { return state_->member; }

std::uint64_t Group::epoch() const {
  state_->require_member();
  return state_->context.epoch;
}

const Bytes& Group::group_id() const { return state_->context.group_id; }

Bytes Group::epoch_authenticator() const {
  state_->require_member();
  return state_->secrets.epoch_authenticator;
}

Bytes Group::export_secret(const std::string& label, BytesView context, std::size_t length) const {
  state_->require_member();
  return mls_exporter(state_->secrets.exporter_secret, label, context, length);
}

std::uint32_t Group::own_leaf_index() const {
  state_->require_member();
  return state_->own_leaf;
}

std::vector<Member> Group::members() const {
  state_->require_member();
  std::vector<Member> out;
  for (std::uint32_t i = 0; i < state_->tree.n_leaves(); ++i) {
    if (const LeafNode* ln = state_->tree.leaf(i)) out.push_back(Member{i, user_id_of(ln->credential), ln->signature_key});
  }
  return out;
}

std::optional<std::uint32_t> Group::leaf_of_user(std::uint64_t user_id) const {
  for (const auto& m : members()) {
    if (m.user_id == user_id) return m.leaf_index;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> Group::user_at_leaf(std::uint32_t leaf_index) const {
  state_->require_member();
  const LeafNode* ln = state_->tree.leaf(leaf_index);
  if (!ln) return std::nullopt;
  return user_id_of(ln->credential);
}

std::vector<ExternalSender> Group::external_senders() const { return state_->external_senders(); }

RatchetTreeNodes Group::ratchet_tree() const { return state_->tree.to_nodes(); }

}  // namespace platformpp::voice::e2ee
