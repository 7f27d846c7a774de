// One member's view of an MLS group, shaped for DAVE: the group has one external sender (the voice
// gateway) that proposes Add and Remove; members commit those proposals by reference, with an update
// path, as PublicMessages; new members join from a Welcome whose GroupInfo carries the ratchet tree.
// Any other MLS feature is refused with Error(Unsupported). A method that throws leaves the group as
// it was. A Group has one owner at a time: it is not safe to call from two threads at once. Its keys
// and epoch secrets are wiped when it is destroyed.
#pragma once

#include <map>
#include <memory>

#include "voice/e2ee/crypto.hpp"
#include "voice/e2ee/messages.hpp"

namespace platformpp::voice::e2ee {

// The basic credential identity of a user: the 64-bit user id, big-endian.
Bytes user_id_identity(std::uint64_t user_id);
// The user id in a basic credential; Error(Protocol) when it is not basic with 8 bytes.
std::uint64_t user_id_of(const Credential& credential);

// A KeyPackage of ours with the private keys that go with it.
struct KeyPackageBundle {
  KeyPackage key_package;
  Bytes key_package_message;  // the MLSMessage(KeyPackage) bytes DAVE's opcode 26 carries
  Bytes init_private_key;
  Bytes encryption_private_key;
  Bytes signature_private_key;
};

// A fresh KeyPackage for (user id, signature key): suite 2, basic credential, capabilities
// {versions [mls10], cipher_suites [2], credentials [basic]}, lifetime [0, 2^64-1], no extensions.
KeyPackageBundle create_key_package(std::uint64_t user_id, const SignatureKeyPair& signature_key);

// KeyPackageRef = RefHash("MLS 1.0 KeyPackage Reference", KeyPackage).
Bytes key_package_ref(const KeyPackage& key_package);

struct Member {
  std::uint32_t leaf_index = 0;
  std::uint64_t user_id = 0;
  Bytes signature_key;
};

// What a received proposal asks for, so the caller can check it against who is in the call.
struct ProposalInfo {
  Bytes ref;  // ProposalRef
  ProposalType type = ProposalType::add;
  std::uint64_t user_id = 0;     // add: the user to add; remove: the user at the removed leaf
  std::uint32_t removed_leaf = 0;  // remove only
};

struct CommitOutput {
  Bytes commit_message;         // MLSMessage(PublicMessage(Commit)), for DAVE opcode 28
  std::optional<Bytes> welcome;  // the Welcome struct (not wrapped in MLSMessage); set when members are added
};

// How strictly the group follows DAVE. The defaults are DAVE's rules; the MLS interop vectors run with
// dave_rules off (member proposals, proposals by value, Update/PSK/GroupContextExtensions).
struct GroupOptions {
  // Only Add/Remove from the external sender, commits only by reference, one leaf per user id,
  // basic credentials of 8 bytes, a committer keeps its credential and signature key.
  bool dave_rules = true;
  // External pre-shared keys by psk_id (only used with dave_rules off).
  std::map<Bytes, Bytes> external_psks;
};

// A Welcome decrypted for our key package: its GroupSecrets and GroupInfo (signature not yet checked).
struct OpenedWelcome {
  GroupSecrets group_secrets;
  GroupInfo group_info;
  Bytes psk_secret;
};
// Accepts the Welcome struct or an MLSMessage holding one.
OpenedWelcome open_welcome(BytesView welcome, const KeyPackageBundle& self, const GroupOptions& options = {});

class GroupState;  // defined in group.cpp

class Group {
 public:
  // A new group at epoch 0 whose only member is `self`, with the external_senders extension
  // holding `external_sender`.
  static Group create(BytesView group_id, const KeyPackageBundle& self, const ExternalSender& external_sender,
                      const GroupOptions& options = {});
  // Joins from a Welcome (the Welcome struct, or an MLSMessage holding one) sent for `self`. The ratchet
  // tree comes from the GroupInfo's ratchet_tree extension, or from `ratchet_tree` when given.
  static Group join(BytesView welcome, const KeyPackageBundle& self,
                    const std::optional<RatchetTreeNodes>& ratchet_tree = std::nullopt,
                    const GroupOptions& options = {});

  Group(Group&&) noexcept;
  Group& operator=(Group&&) noexcept;
  ~Group();

  // Verifies and caches one proposal (MLSMessage) from a member; only with dave_rules off.
  ProposalInfo receive_member_proposal(BytesView mls_message);
  // Verifies and caches proposals sent by the external sender: MLSMessages (PublicMessage, sender
  // external) concatenated as DAVE's opcode 27 carries them. Only Add and Remove are accepted. All
  // are checked before any is cached.
  std::vector<ProposalInfo> receive_proposals(BytesView concatenated_mls_messages);
  // Drops cached proposals by reference (DAVE revoke); unknown references are ignored.
  void revoke_proposals(const std::vector<Bytes>& proposal_refs);
  bool has_pending_proposals() const;

  // Commits every cached proposal by reference, with an update path. The group does not move: the
  // commit waits until process_commit() sees it come back (DAVE opcode 29). Error(State) when nothing
  // is cached.
  CommitOutput commit_pending_proposals();
  // Applies a Commit (MLSMessage bytes) from another member, or our own pending one, moving to the
  // next epoch. Refuses proposals by value, unknown references, and a result with one user id twice.
  // In a local epoch-0 group only our own pending commit can apply: another member's commit for its
  // own epoch-0 group throws Error(Protocol), and DAVE then expects us to wait for its Welcome.
  // When the commit removes us, is_member() turns false.
  void process_commit(BytesView commit_message);
  // Forgets our pending commit (another member's won, or the caller resets).
  void discard_pending_commit();

  // False once a commit removed us; the accessors below then throw Error(State).
  bool is_member() const;
  std::uint64_t epoch() const;
  const Bytes& group_id() const;
  Bytes epoch_authenticator() const;
  // MLS-Exporter(label, context, length) of the current epoch.
  Bytes export_secret(const std::string& label, BytesView context, std::size_t length) const;
  std::uint32_t own_leaf_index() const;
  std::vector<Member> members() const;
  std::optional<std::uint32_t> leaf_of_user(std::uint64_t user_id) const;
  std::optional<std::uint64_t> user_at_leaf(std::uint32_t leaf_index) const;
  // The external senders of the group context's external_senders extension.
  std::vector<ExternalSender> external_senders() const;
  // The group's ratchet tree as the ratchet_tree extension carries it.
  RatchetTreeNodes ratchet_tree() const;

 private:
  explicit Group(std::unique_ptr<GroupState> state);
  std::unique_ptr<GroupState> state_;
};

}  // namespace platformpp::voice::e2ee
