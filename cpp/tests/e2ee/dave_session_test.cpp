// The DAVE voice gateway opcodes (binary codecs) and the client session state machine.
#include <boost/test/unit_test.hpp>

#include "vectors.hpp"
#include "voice/e2ee/dave_opcodes.hpp"

using namespace platformpp::voice::e2ee;
using namespace platformpp::voice::e2ee::dave;
using e2ee_test::hex;

BOOST_AUTO_TEST_SUITE(dave_opcodes)

BOOST_AUTO_TEST_CASE(external_sender_package_decodes_and_re_encodes) {
  // seq 0x0102, op 25, signature_key<V> (3 bytes), credential_type 1, identity<V> (2 bytes)
  const Bytes frame = hex("010219" "03aabbcc" "0001" "02dead");
  const ServerMessage m = decode_server_message(frame);
  BOOST_TEST(m.sequence == 0x0102);
  BOOST_TEST(static_cast<int>(m.opcode) == 25);
  const auto& p = std::get<ExternalSenderPackage>(m.body);
  BOOST_TEST(p.signature_key == hex("aabbcc"));
  BOOST_TEST(p.identity == hex("dead"));
  BOOST_TEST(p.external_sender == hex("03aabbcc000102dead"));
  BOOST_TEST(encode_server_message(m) == frame);
  BOOST_CHECK_THROW(decode_server_message(hex("010219" "03aabbcc" "0002" "02dead")), Error);  // x509
  BOOST_CHECK_THROW(decode_server_message(hex("010219" "03aabbcc" "0001" "02dead00")), Error);  // trailing
}

BOOST_AUTO_TEST_CASE(proposals_append_and_revoke) {
  const Bytes append = hex("00071b" "00" "04" "01020304");
  const ServerMessage a = decode_server_message(append);
  BOOST_TEST(a.sequence == 7);
  const auto& ap = std::get<ProposalsMessage>(a.body);
  BOOST_TEST((ap.operation == ProposalsOperation::Append));
  BOOST_TEST(ap.proposal_messages == hex("01020304"));
  BOOST_TEST(encode_server_message(a) == append);

  const Bytes revoke = hex("00081b" "01" "06" "0211220133");
  // the length 06 covers two refs: 02 1122, 01 33 (5 bytes) plus one more byte -> malformed
  BOOST_CHECK_THROW(decode_server_message(revoke), Error);
  const Bytes revoke_ok = hex("00081b" "01" "05" "0211220133");
  const auto& rp = std::get<ProposalsMessage>(decode_server_message(revoke_ok).body);
  BOOST_TEST((rp.operation == ProposalsOperation::Revoke));
  BOOST_REQUIRE(rp.proposal_refs.size() == 2u);
  BOOST_TEST(rp.proposal_refs[1] == hex("33"));
  BOOST_TEST(encode_server_message(decode_server_message(revoke_ok)) == revoke_ok);
  BOOST_CHECK_THROW(decode_server_message(hex("00081b" "02" "00")), Error);  // operation 2
  BOOST_CHECK_THROW(decode_server_message(hex("00081b" "00" "00")), Error);  // nothing to append
}

BOOST_AUTO_TEST_CASE(commit_transition_and_welcome_carry_a_transition_id) {
  const ServerMessage c = decode_server_message(hex("00091d" "0102" "00010001"));
  BOOST_TEST(std::get<AnnounceCommitTransition>(c.body).transition_id == 0x0102);
  BOOST_TEST(std::get<AnnounceCommitTransition>(c.body).commit_message == hex("00010001"));
  const ServerMessage w = decode_server_message(hex("000a1e" "0005" "0002"));
  BOOST_TEST(std::get<WelcomeMessage>(w.body).transition_id == 5);
  BOOST_TEST(std::get<WelcomeMessage>(w.body).welcome == hex("0002"));
  BOOST_CHECK_THROW(decode_server_message(hex("00091d" "0102")), Error);  // no commit
  BOOST_CHECK_THROW(decode_server_message(hex("00091d" "01")), Error);    // truncated id
  BOOST_CHECK_THROW(decode_server_message(hex("000915" "00")), Error);    // 21 is JSON
  BOOST_CHECK_THROW(decode_server_message(hex("0009")), Error);
}

BOOST_AUTO_TEST_CASE(client_frames_start_with_the_opcode) {
  BOOST_TEST(encode_key_package(hex("0001")) == hex("1a0001"));
  BOOST_TEST(encode_commit_welcome(hex("aa"), std::nullopt) == hex("1caa"));
  BOOST_TEST(encode_commit_welcome(hex("aa"), hex("bb")) == hex("1caabb"));
  const Bytes key_package_frame = hex("1a0001");
  const ClientMessage m = decode_client_message(key_package_frame);  // views into the frame
  BOOST_TEST(static_cast<int>(m.opcode) == 26);
  BOOST_TEST(m.payload.to_bytes() == hex("0001"));
  BOOST_CHECK_THROW(decode_client_message(hex("1a")), Error);
  BOOST_CHECK_THROW(decode_client_message(hex("1b00")), Error);
}

BOOST_AUTO_TEST_SUITE_END()
