// message-protection vectors (suite 2): PublicMessage signatures and membership tags, PrivateMessage
// decryption, and our own protection of the same content read back.
#include <boost/test/unit_test.hpp>

#include "vectors.hpp"
#include "voice/e2ee/crypto.hpp"
#include "voice/e2ee/framing.hpp"

using namespace platformpp::voice::e2ee;
using e2ee_test::field;

namespace {

struct Fixture {
  GroupContext context;
  Bytes signature_priv, signature_pub, encryption_secret, sender_data_secret, membership_key;
};

// The vectors' group has two members; the sender is leaf 1.
constexpr std::uint32_t kLeaves = 2;
constexpr std::uint32_t kSender = 1;

Fixture fixture(const boost::json::object& o) {
  Fixture f;
  f.context.cipher_suite = 2;
  f.context.group_id = field(o, "group_id");
  f.context.epoch = static_cast<std::uint64_t>(o.at("epoch").as_int64());
  f.context.tree_hash = field(o, "tree_hash");
  f.context.confirmed_transcript_hash = field(o, "confirmed_transcript_hash");
  f.signature_priv = field(o, "signature_priv");
  f.signature_pub = field(o, "signature_pub");
  f.encryption_secret = field(o, "encryption_secret");
  f.sender_data_secret = field(o, "sender_data_secret");
  f.membership_key = field(o, "membership_key");
  return f;
}

Bytes body_of(const FramedContent& c) {
  switch (c.content_type) {
    case ContentType::application:
      return c.application_data;
    case ContentType::proposal:
      return serialize(*c.proposal);
    case ContentType::commit:
      return serialize(*c.commit);
  }
  return {};
}

void check_public(const Fixture& f, const Bytes& message, const Bytes& expected_body) {
  const MlsMessage m = decode_mls_message(message);
  BOOST_REQUIRE(m.public_message.has_value());
  const PublicMessage& pm = *m.public_message;
  BOOST_TEST(body_of(pm.content) == expected_body);
  BOOST_TEST(verify_framed_content(f.signature_pub, WireFormat::public_message, pm.content, &f.context,
                                   pm.auth.signature));
  BOOST_TEST(membership_tag(f.membership_key, pm.content, pm.auth, f.context) == pm.membership_tag);
  BOOST_TEST(serialize(m) == message);
}

void check_private(const Fixture& f, const Bytes& message, const Bytes& expected_body) {
  const MlsMessage m = decode_mls_message(message);
  BOOST_REQUIRE(m.private_message.has_value());
  SecretTree tree(f.encryption_secret, kLeaves);
  const DecryptedContent d = unprotect_private(*m.private_message, tree, f.sender_data_secret);
  BOOST_TEST(d.content.sender.index == kSender);
  BOOST_TEST(body_of(d.content) == expected_body);
  BOOST_TEST(verify_framed_content(f.signature_pub, WireFormat::private_message, d.content, &f.context,
                                   d.auth.signature));
  BOOST_TEST(serialize(m) == message);
}

FramedContent content_for(const Fixture& f, ContentType type, const Bytes& body) {
  FramedContent c;
  c.group_id = f.context.group_id;
  c.epoch = f.context.epoch;
  c.sender = Sender{SenderType::member, kSender};
  c.content_type = type;
  if (type == ContentType::application) c.application_data = body;
  if (type == ContentType::proposal) c.proposal = decode_all(body, decode_proposal, "proposal");
  if (type == ContentType::commit) c.commit = decode_all(body, decode_commit, "commit");
  return c;
}

void round_trip(const Fixture& f, ContentType type, const Bytes& body) {
  const FramedContent c = content_for(f, type, body);
  FramedContentAuthData auth;
  if (type == ContentType::commit) auth.confirmation_tag = Bytes(32, 0xab);
  // As a PublicMessage.
  if (type != ContentType::application) {
    MlsMessage pub;
    pub.wire_format = WireFormat::public_message;
    pub.public_message = PublicMessage{c, auth, {}};
    pub.public_message->auth.signature = sign_framed_content(f.signature_priv, WireFormat::public_message, c, &f.context);
    pub.public_message->membership_tag = membership_tag(f.membership_key, c, pub.public_message->auth, f.context);
    check_public(f, serialize(pub), body);
  }
  // As a PrivateMessage, sealed by one tree and opened by another of the same epoch.
  auth.signature = sign_framed_content(f.signature_priv, WireFormat::private_message, c, &f.context);
  SecretTree sender_tree(f.encryption_secret, kLeaves);
  MlsMessage priv;
  priv.wire_format = WireFormat::private_message;
  priv.private_message = protect_private(c, auth, sender_tree, f.sender_data_secret, 7);
  check_private(f, serialize(priv), body);
  // A flipped ciphertext bit fails the AEAD.
  priv.private_message->ciphertext[3] ^= 0x10;
  SecretTree tree(f.encryption_secret, kLeaves);
  BOOST_CHECK_THROW(unprotect_private(*priv.private_message, tree, f.sender_data_secret), Error);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(message_protection)

BOOST_AUTO_TEST_CASE(message_protection_vectors) {
  int checked = 0;
  for (const auto& v : e2ee_test::load_vectors("message-protection")) {
    const auto& o = v.as_object();
    const Fixture f = fixture(o);
    check_public(f, field(o, "proposal_pub"), field(o, "proposal"));
    check_private(f, field(o, "proposal_priv"), field(o, "proposal"));
    check_public(f, field(o, "commit_pub"), field(o, "commit"));
    check_private(f, field(o, "commit_priv"), field(o, "commit"));
    check_private(f, field(o, "application_priv"), field(o, "application"));
    round_trip(f, ContentType::proposal, field(o, "proposal"));
    round_trip(f, ContentType::commit, field(o, "commit"));
    round_trip(f, ContentType::application, field(o, "application"));
    ++checked;
  }
  BOOST_TEST(checked == 1);
}

BOOST_AUTO_TEST_SUITE_END()
