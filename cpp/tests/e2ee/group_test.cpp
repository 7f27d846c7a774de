// welcome, passive-client-welcome and passive-client-handling-commit vectors (suite 2), and the group
// lifecycle DAVE drives: an external sender proposes Add and Remove, members commit, joiners use Welcome.
#include <boost/test/unit_test.hpp>

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

}  // namespace

BOOST_AUTO_TEST_SUITE(group)

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
