// key-schedule, psk_secret, secret-tree and transcript-hashes vectors (suite 2).
#include <boost/test/unit_test.hpp>

#include "vectors.hpp"
#include "voice/e2ee/crypto.hpp"
#include "voice/e2ee/key_schedule.hpp"

using namespace platformpp::voice::e2ee;
using e2ee_test::field;

BOOST_AUTO_TEST_SUITE(key_schedule)

BOOST_AUTO_TEST_CASE(key_schedule_vectors) {
  int epochs = 0;
  for (const auto& v : e2ee_test::load_vectors("key-schedule")) {
    const auto& o = v.as_object();
    const Bytes group_id = field(o, "group_id");
    Bytes init_secret = field(o, "initial_init_secret");
    std::uint64_t epoch = 0;
    for (const auto& ev : o.at("epochs").as_array()) {
      const auto& e = ev.as_object();
      GroupContext gc;
      gc.cipher_suite = 2;
      gc.group_id = group_id;
      gc.epoch = epoch;
      gc.tree_hash = field(e, "tree_hash");
      gc.confirmed_transcript_hash = field(e, "confirmed_transcript_hash");
      const Bytes context = serialize(gc);
      BOOST_TEST(context == field(e, "group_context"));
      const Bytes joiner = derive_joiner_secret(init_secret, field(e, "commit_secret"), context);
      BOOST_TEST(joiner == field(e, "joiner_secret"));
      const EpochSecrets s = derive_epoch_secrets(joiner, field(e, "psk_secret"), context);
      BOOST_TEST(s.welcome_secret == field(e, "welcome_secret"));
      BOOST_TEST(s.init_secret == field(e, "init_secret"));
      BOOST_TEST(s.sender_data_secret == field(e, "sender_data_secret"));
      BOOST_TEST(s.encryption_secret == field(e, "encryption_secret"));
      BOOST_TEST(s.exporter_secret == field(e, "exporter_secret"));
      BOOST_TEST(s.epoch_authenticator == field(e, "epoch_authenticator"));
      BOOST_TEST(s.external_secret == field(e, "external_secret"));
      BOOST_TEST(s.confirmation_key == field(e, "confirmation_key"));
      BOOST_TEST(s.membership_key == field(e, "membership_key"));
      BOOST_TEST(s.resumption_psk == field(e, "resumption_psk"));
      BOOST_TEST(hpke_derive_key_pair(s.external_secret).public_key == field(e, "external_pub"));
      const auto& ex = e.at("exporter").as_object();
      BOOST_TEST(mls_exporter(s.exporter_secret, std::string(ex.at("label").as_string()), field(ex, "context"),
                              static_cast<std::size_t>(ex.at("length").as_int64())) == field(ex, "secret"));
      init_secret = s.init_secret;
      ++epoch;
      ++epochs;
    }
  }
  BOOST_TEST(epochs > 0);
}

BOOST_AUTO_TEST_CASE(psk_secret_vectors) {
  int checked = 0;
  for (const auto& v : e2ee_test::load_vectors("psk_secret")) {
    const auto& o = v.as_object();
    std::vector<std::pair<PreSharedKeyId, Bytes>> psks;
    for (const auto& p : o.at("psks").as_array()) {
      PreSharedKeyId id;
      id.psk_type = 1;
      id.psk_id = field(p.as_object(), "psk_id");
      id.psk_nonce = field(p.as_object(), "psk_nonce");
      psks.emplace_back(id, field(p.as_object(), "psk"));
    }
    BOOST_TEST(derive_psk_secret(psks) == field(o, "psk_secret"));
    ++checked;
  }
  BOOST_TEST(checked == 11);
}

BOOST_AUTO_TEST_CASE(secret_tree_vectors) {
  int checked = 0;
  for (const auto& v : e2ee_test::load_vectors("secret-tree")) {
    const auto& o = v.as_object();
    const auto& sd = o.at("sender_data").as_object();
    const KeyAndNonce sdkn = sender_data_key_nonce(field(sd, "sender_data_secret"), field(sd, "ciphertext"));
    BOOST_TEST(sdkn.key == field(sd, "key"));
    BOOST_TEST(sdkn.nonce == field(sd, "nonce"));
    const auto& leaves = o.at("leaves").as_array();
    SecretTree tree(field(o, "encryption_secret"), static_cast<std::uint32_t>(leaves.size()));
    for (std::uint32_t leaf = 0; leaf < leaves.size(); ++leaf) {
      for (const auto& g : leaves[leaf].as_array()) {
        const auto& go = g.as_object();
        const auto generation = static_cast<std::uint32_t>(go.at("generation").as_int64());
        const KeyAndNonce hs = tree.get(leaf, RatchetType::handshake, generation);
        const KeyAndNonce app = tree.get(leaf, RatchetType::application, generation);
        BOOST_TEST(hs.key == field(go, "handshake_key"));
        BOOST_TEST(hs.nonce == field(go, "handshake_nonce"));
        BOOST_TEST(app.key == field(go, "application_key"));
        BOOST_TEST(app.nonce == field(go, "application_nonce"));
        ++checked;
      }
    }
  }
  BOOST_TEST(checked > 0);
}

BOOST_AUTO_TEST_CASE(secret_tree_refuses_reuse_and_far_generations) {
  SecretTree tree(Bytes(32, 1), 4);
  const auto first = tree.next(2, RatchetType::application);
  BOOST_TEST(first.first == 0u);
  BOOST_CHECK_THROW(tree.get(2, RatchetType::application, 0), Error);
  const KeyAndNonce skipped_later = tree.get(3, RatchetType::application, 5);
  BOOST_TEST(tree.get(3, RatchetType::application, 2).key != skipped_later.key);  // kept while skipped
  BOOST_CHECK_THROW(tree.get(3, RatchetType::application, 2), Error);               // then consumed
  BOOST_CHECK_THROW(tree.get(3, RatchetType::application, 6 + SecretTree::kMaxForwardGenerations + 1), Error);
  BOOST_CHECK_THROW(tree.get(4, RatchetType::handshake, 0), Error);
}

BOOST_AUTO_TEST_CASE(transcript_hash_vectors) {
  int checked = 0;
  for (const auto& v : e2ee_test::load_vectors("transcript-hashes")) {
    const auto& o = v.as_object();
    const Bytes ac = field(o, "authenticated_content");
    Reader r(ac);
    const auto wire_format = static_cast<WireFormat>(r.u16("wire_format"));
    const FramedContent content = decode_framed_content(r);
    const FramedContentAuthData auth = decode_auth_data(r, content.content_type);
    r.expect_end("authenticated_content");
    BOOST_REQUIRE(content.content_type == ContentType::commit);
    const Bytes confirmed =
        confirmed_transcript_hash(field(o, "interim_transcript_hash_before"), wire_format, content, auth.signature);
    BOOST_TEST(confirmed == field(o, "confirmed_transcript_hash_after"));
    BOOST_TEST(hmac_sha256(field(o, "confirmation_key"), confirmed) == auth.confirmation_tag);
    BOOST_TEST(interim_transcript_hash(confirmed, auth.confirmation_tag) == field(o, "interim_transcript_hash_after"));
    ++checked;
  }
  BOOST_TEST(checked == 1);
}

BOOST_AUTO_TEST_SUITE_END()
