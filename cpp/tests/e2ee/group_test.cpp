// welcome, passive-client-welcome and passive-client-handling-commit vectors (suite 2), and the group
// lifecycle DAVE drives: an external sender proposes Add and Remove, members commit, joiners use Welcome.
#include <boost/test/unit_test.hpp>

#include <functional>

#include "vectors.hpp"
#include "voice/e2ee/crypto.hpp"
#include "voice/e2ee/framing.hpp"
#include "voice/e2ee/group.hpp"
#include "voice/e2ee/key_schedule.hpp"

using namespace platformpp::voice::e2ee;
using e2ee_test::field;

namespace {

KeyPackageBundle bundle_from(const boost::json::object& o) {
  KeyPackageBundle b;
  const MlsMessage m = decode_mls_message(field(o, "key_package"));
  BOOST_REQUIRE(m.key_package.has_value());
  b.key_package = *m.key_package;
  b.init_private_key = field(o, "init_priv");
  if (o.contains("encryption_priv")) b.encryption_private_key = field(o, "encryption_priv");
  if (o.contains("signature_priv")) b.signature_private_key = field(o, "signature_priv");
  return b;
}

// Joins from the vector's Welcome and follows every epoch; returns the number of epochs checked.
int run_passive(const boost::json::object& o) {
  const KeyPackageBundle self = bundle_from(o);
  BOOST_TEST(hpke_public_key(self.init_private_key) == self.key_package.init_key);
  BOOST_TEST(hpke_public_key(self.encryption_private_key) == self.key_package.leaf_node.encryption_key);
  BOOST_TEST(signature_public_key(self.signature_private_key) == self.key_package.leaf_node.signature_key);
  GroupOptions options;
  options.dave_rules = false;
  for (const auto& p : o.at("external_psks").as_array()) {
    options.external_psks[field(p.as_object(), "psk_id")] = field(p.as_object(), "psk");
  }
  std::optional<RatchetTreeNodes> tree;
  if (!o.at("ratchet_tree").is_null()) tree = decode_all(field(o, "ratchet_tree"), decode_ratchet_tree, "ratchet_tree");
  Group g = Group::join(field(o, "welcome"), self, tree, options);
  BOOST_TEST(g.epoch_authenticator() == field(o, "initial_epoch_authenticator"));
  int epochs = 0;
  for (const auto& e : o.at("epochs").as_array()) {
    const auto& eo = e.as_object();
    for (const auto& p : eo.at("proposals").as_array()) g.receive_member_proposal(e2ee_test::hex(p.as_string()));
    g.process_commit(field(eo, "commit"));
    BOOST_TEST(g.epoch_authenticator() == field(eo, "epoch_authenticator"), "epoch " << g.epoch());
    ++epochs;
  }
  return epochs;
}

// Every vector of the file passes (none needs MLS outside what we implement).
void run_passive_file(const char* name, std::size_t expected_vectors) {
  std::size_t vectors = 0;
  int epochs = 0;
  for (const auto& v : e2ee_test::load_vectors(name)) {
    BOOST_TEST_CONTEXT(name << " vector " << vectors) { epochs += run_passive(v.as_object()); }
    ++vectors;
  }
  BOOST_TEST(vectors == expected_vectors);
  BOOST_TEST_MESSAGE(name << ": " << vectors << " vectors, " << epochs << " epochs followed");
}

// The voice gateway's side in these tests: an external sender that signs Add and Remove proposals.
struct Gateway {
  SignatureKeyPair key = generate_signature_key_pair();
  ExternalSender sender() const {
    ExternalSender s;
    s.signature_key = key.public_key;
    s.credential.identity = {'g', 'w'};
    return s;
  }
  Bytes propose(const Group& g, const Proposal& p, std::uint64_t epoch_offset = 0) const {
    FramedContent c;
    c.group_id = g.group_id();
    c.epoch = g.epoch() + epoch_offset;
    c.sender = Sender{SenderType::external, 0};
    c.content_type = ContentType::proposal;
    c.proposal = p;
    MlsMessage m;
    m.wire_format = WireFormat::public_message;
    m.public_message = PublicMessage{c, {}, {}};
    m.public_message->auth.signature = sign_framed_content(key.private_key, WireFormat::public_message, c, nullptr);
    return serialize(m);
  }
  Bytes add(const Group& g, const KeyPackageBundle& kp) const {
    Proposal p;
    p.type = ProposalType::add;
    p.add = kp.key_package;
    return propose(g, p);
  }
  Bytes remove(const Group& g, std::uint32_t leaf) const {
    Proposal p;
    p.type = ProposalType::remove;
    p.removed = leaf;
    return propose(g, p);
  }
};

KeyPackageBundle member(std::uint64_t user_id) { return create_key_package(user_id, generate_signature_key_pair()); }

void expect_same_epoch(const std::vector<const Group*>& groups) {
  for (const Group* g : groups) {
    BOOST_TEST(g->epoch() == groups[0]->epoch());
    BOOST_TEST(g->epoch_authenticator() == groups[0]->epoch_authenticator());
    BOOST_TEST(g->export_secret("DAVE test", Bytes{1, 2}, 16) == groups[0]->export_secret("DAVE test", Bytes{1, 2}, 16));
    BOOST_TEST(serialize(g->ratchet_tree()) == serialize(groups[0]->ratchet_tree()));
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(group)

BOOST_AUTO_TEST_CASE(key_package_has_the_dave_shape) {
  const KeyPackageBundle kp = member(0x0102030405060708ull);
  const MlsMessage m = decode_mls_message(kp.key_package_message);
  BOOST_REQUIRE(m.key_package.has_value());
  const LeafNode& leaf = m.key_package->leaf_node;
  BOOST_TEST(leaf.credential.identity == e2ee_test::hex("0102030405060708"));
  BOOST_TEST(user_id_of(leaf.credential) == 0x0102030405060708ull);
  BOOST_TEST(leaf.lifetime.not_before == 0u);
  BOOST_TEST(leaf.lifetime.not_after == ~0ull);
  BOOST_TEST(leaf.capabilities.cipher_suites == std::vector<std::uint16_t>{2});
  BOOST_TEST(leaf.capabilities.credentials == std::vector<std::uint16_t>{1});
  BOOST_TEST(leaf.extensions.empty());
  BOOST_TEST(m.key_package->cipher_suite == 2);
  BOOST_TEST(serialize(*m.key_package) == serialize(kp.key_package));
}

BOOST_AUTO_TEST_CASE(external_sender_adds_and_removes_members_through_commits_and_welcomes) {
  const Gateway gw;
  const Bytes group_id = user_id_identity(777);
  const KeyPackageBundle alice_kp = member(1), bob_kp = member(2), carol_kp = member(3);
  Group alice = Group::create(group_id, alice_kp, gw.sender());
  BOOST_TEST(alice.epoch() == 0u);
  BOOST_TEST(alice.external_senders().size() == 1u);

  // Epoch 0 -> 1: the gateway proposes Bob; Alice commits and welcomes him.
  const auto infos = alice.receive_proposals(gw.add(alice, bob_kp));
  BOOST_REQUIRE(infos.size() == 1u);
  BOOST_TEST(infos[0].user_id == 2u);
  const CommitOutput c1 = alice.commit_pending_proposals();
  BOOST_REQUIRE(c1.welcome.has_value());
  BOOST_TEST(alice.epoch() == 0u);  // waits for the gateway to announce the commit
  // Bob, pending, made his own local group meanwhile: Alice's commit is not for it.
  Group bob_local = Group::create(group_id, bob_kp, gw.sender());
  try {
    bob_local.process_commit(c1.commit_message);
    BOOST_FAIL("another member's commit applied to a local epoch-0 group");
  } catch (const Error& e) {
    BOOST_TEST(e.kind() == ErrorKind::Protocol);
  }
  alice.process_commit(c1.commit_message);
  Group bob = Group::join(*c1.welcome, bob_kp);
  expect_same_epoch({&alice, &bob});
  BOOST_TEST(alice.epoch() == 1u);
  BOOST_TEST(bob.own_leaf_index() == 1u);
  BOOST_TEST(*bob.leaf_of_user(1) == 0u);
  BOOST_TEST(*alice.user_at_leaf(1) == 2u);

  // Epoch 1 -> 2: both commit Carol's add; the gateway announces Alice's.
  const Bytes add_carol = gw.add(alice, carol_kp);
  alice.receive_proposals(add_carol);
  bob.receive_proposals(add_carol);
  const CommitOutput c2 = alice.commit_pending_proposals();
  const CommitOutput losing = bob.commit_pending_proposals();
  BOOST_TEST(losing.commit_message != c2.commit_message);
  alice.process_commit(c2.commit_message);
  bob.process_commit(c2.commit_message);
  Group carol = Group::join(*c2.welcome, carol_kp);
  expect_same_epoch({&alice, &bob, &carol});
  BOOST_TEST(alice.members().size() == 3u);
  const Bytes epoch2_key = alice.export_secret("DAVE test", Bytes{}, 16);

  // Epoch 2 -> 3: the gateway removes Bob; Carol commits; Bob can no longer follow.
  const Bytes remove_bob = gw.remove(alice, 1);
  for (Group* g : {&alice, &bob, &carol}) {
    const auto r = g->receive_proposals(remove_bob);
    BOOST_TEST(r.at(0).user_id == 2u);
    BOOST_TEST(r.at(0).removed_leaf == 1u);
  }
  const CommitOutput c3 = carol.commit_pending_proposals();
  BOOST_TEST(!c3.welcome.has_value());
  carol.process_commit(c3.commit_message);
  alice.process_commit(c3.commit_message);
  bob.process_commit(c3.commit_message);
  BOOST_TEST(!bob.is_member());
  BOOST_CHECK_THROW(bob.export_secret("DAVE test", Bytes{}, 16), Error);
  expect_same_epoch({&alice, &carol});
  BOOST_TEST(alice.export_secret("DAVE test", Bytes{}, 16) != epoch2_key);
  BOOST_TEST(alice.members().size() == 2u);
  BOOST_TEST(!alice.leaf_of_user(2).has_value());
}

BOOST_AUTO_TEST_CASE(bad_proposals_and_commits_are_refused_and_leave_the_group_intact) {
  const Gateway gw, impostor;
  const KeyPackageBundle alice_kp = member(1), bob_kp = member(2);
  Group alice = Group::create(user_id_identity(9), alice_kp, gw.sender());
  const auto expect_kind = [](const std::function<void()>& f, ErrorKind kind) {
    try {
      f();
    } catch (const Error& e) {
      BOOST_TEST(e.kind() == kind, e.what());
      return;
    }
    BOOST_FAIL("expected an Error");
  };
  expect_kind([&] { alice.receive_proposals(impostor.add(alice, bob_kp)); }, ErrorKind::Crypto);
  Proposal p;
  p.type = ProposalType::add;
  p.add = bob_kp.key_package;
  expect_kind([&] { alice.receive_proposals(gw.propose(alice, p, 1)); }, ErrorKind::Protocol);
  // One good message followed by a bad one: neither is cached.
  Bytes both = gw.add(alice, bob_kp);
  const Bytes bad = impostor.add(alice, bob_kp);
  both.insert(both.end(), bad.begin(), bad.end());
  expect_kind([&] { alice.receive_proposals(both); }, ErrorKind::Crypto);
  BOOST_TEST(!alice.has_pending_proposals());
  expect_kind([&] { alice.receive_proposals(Bytes{0, 1, 0, 1, 0x40}); }, ErrorKind::Decode);
  Proposal update;
  update.type = ProposalType::update;
  update.update = bob_kp.key_package.leaf_node;
  expect_kind([&] { alice.receive_proposals(gw.propose(alice, update)); }, ErrorKind::Unsupported);
  expect_kind([&] { alice.commit_pending_proposals(); }, ErrorKind::State);

  // A commit with a flipped byte is refused; the untouched one then applies.
  alice.receive_proposals(gw.add(alice, bob_kp));
  const CommitOutput c = alice.commit_pending_proposals();
  Group bob = Group::join(*c.welcome, bob_kp);
  alice.process_commit(c.commit_message);
  const Bytes add_again = gw.add(alice, member(3));
  alice.receive_proposals(add_again);
  bob.receive_proposals(add_again);
  Bytes tampered = alice.commit_pending_proposals().commit_message;
  const Bytes good = tampered;
  tampered[tampered.size() - 40] ^= 1;
  expect_kind([&] { bob.process_commit(tampered); }, ErrorKind::Crypto);
  BOOST_TEST(bob.epoch() == 1u);
  bob.process_commit(good);
  BOOST_TEST(bob.epoch() == 2u);
  // A commit for a past epoch, and a second add of a user already in the group.
  expect_kind([&] { bob.process_commit(good); }, ErrorKind::Protocol);
  alice.process_commit(good);
  alice.receive_proposals(gw.add(alice, member(2)));
  expect_kind([&] { alice.commit_pending_proposals(); }, ErrorKind::Protocol);
}

BOOST_AUTO_TEST_CASE(a_welcome_for_someone_else_is_refused) {
  const Gateway gw;
  const KeyPackageBundle alice_kp = member(1), bob_kp = member(2), eve_kp = member(5);
  Group alice = Group::create(user_id_identity(9), alice_kp, gw.sender());
  alice.receive_proposals(gw.add(alice, bob_kp));
  const CommitOutput c = alice.commit_pending_proposals();
  BOOST_CHECK_THROW(Group::join(*c.welcome, eve_kp), Error);
  Bytes broken = *c.welcome;
  broken.back() ^= 1;
  BOOST_CHECK_THROW(Group::join(broken, bob_kp), Error);
}

BOOST_AUTO_TEST_CASE(welcome_vectors) {
  int checked = 0;
  for (const auto& v : e2ee_test::load_vectors("welcome")) {
    const auto& o = v.as_object();
    const KeyPackageBundle self = bundle_from(o);
    const OpenedWelcome w = open_welcome(field(o, "welcome"), self);
    Writer tbs;
    encode_group_info_tbs(tbs, w.group_info);
    BOOST_TEST(verify_with_label(field(o, "signer_pub"), "GroupInfoTBS", tbs.bytes(), w.group_info.signature));
    const EpochSecrets s = derive_epoch_secrets(w.group_secrets.joiner_secret, w.psk_secret,
                                                serialize(w.group_info.group_context));
    BOOST_TEST(hmac_sha256(s.confirmation_key, w.group_info.group_context.confirmed_transcript_hash) ==
               w.group_info.confirmation_tag);
    ++checked;
  }
  BOOST_TEST(checked == 1);
}

BOOST_AUTO_TEST_CASE(passive_client_welcome_vectors) { run_passive_file("passive-client-welcome", 8); }

BOOST_AUTO_TEST_CASE(passive_client_handling_commit_vectors) { run_passive_file("passive-client-handling-commit", 13); }

BOOST_AUTO_TEST_SUITE_END()
