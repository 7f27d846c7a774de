// The DAVE voice gateway opcodes (binary codecs) and the client session state machine.
#include <boost/test/unit_test.hpp>

#include "dave_alloc_counter.hpp"
#include "dave_gateway.hpp"
#include "vectors.hpp"
#include "voice/e2ee/dave_opcodes.hpp"
#include "voice/e2ee/dave_session.hpp"

using namespace platformpp::voice::e2ee;
using namespace platformpp::voice::e2ee::dave;
using e2ee_test::hex;

namespace platformpp::voice::e2ee::dave {
// So Boost.Test prints statuses in failed comparisons.
inline std::ostream& operator<<(std::ostream& os, FrameStatus s) { return os << to_string(s); }
inline std::ostream& operator<<(std::ostream& os, SessionStatus s) { return os << static_cast<int>(s); }
}  // namespace platformpp::voice::e2ee::dave

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
  const ServerMessage revoked = decode_server_message(revoke_ok);
  const auto& rp = std::get<ProposalsMessage>(revoked.body);
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

// --- The session, with the test as voice gateway and our own sessions as members ---------------------

namespace {

using Wall = std::chrono::system_clock;
constexpr std::uint64_t kChannel = 42;
const Wall::time_point kBeforeCutoff = Wall::time_point(std::chrono::seconds(1767225600));  // 2026-01-01
const Wall::time_point kAfterCutoff = Wall::time_point(std::chrono::seconds(1780272000));   // 2026-06-01

const Outgoing& only(const std::vector<Outgoing>& out, Outgoing::Kind kind) {
  const Outgoing* found = nullptr;
  for (const auto& o : out) {
    if (o.kind == kind) {
      BOOST_REQUIRE_MESSAGE(!found, "more than one message of the kind");
      found = &o;
    }
  }
  BOOST_REQUIRE_MESSAGE(found, "no message of the kind");
  return *found;
}

Bytes key_package_of(const std::vector<Outgoing>& out) {
  const Bytes& frame = only(out, Outgoing::Kind::Binary).binary;
  BOOST_REQUIRE(!frame.empty() && frame[0] == 26);
  return Bytes(frame.begin() + 1, frame.end());
}

// Two of our sessions (users 1 and 2) in one group, made the way the voice gateway makes it.
struct Call {
  e2ee_test::DaveGateway gateway{kChannel};
  Session one{1, kChannel};
  Session two{2, kChannel};
  Clock::time_point now = Clock::now();
  std::uint16_t next_transition = 1;

  void form_group() {
    one.on_clients_connect({2});
    two.on_clients_connect({1});
    for (Session* s : {&one, &two}) BOOST_TEST(s->on_binary(gateway.external_sender_frame(), now).empty());
    const Bytes kp1 = key_package_of(one.on_select_protocol_ack(1, kAfterCutoff));
    const Bytes kp2 = key_package_of(two.on_select_protocol_ack(1, kAfterCutoff));
    BOOST_TEST((one.status() == SessionStatus::Pending));
    // Each pending member gets the other's Add; one's commit wins.
    const auto c1 = only(one.on_binary(gateway.proposals_frame({gateway.add_proposal(kp2, 0)}), now),
                         Outgoing::Kind::Binary);
    only(two.on_binary(gateway.proposals_frame({gateway.add_proposal(kp1, 0)}), now), Outgoing::Kind::Binary);
    BOOST_TEST((one.status() == SessionStatus::AwaitingResponse));
    auto [commit, welcome] =
        e2ee_test::DaveGateway::split_commit_welcome(BytesView(c1.binary.data() + 1, c1.binary.size() - 1));
    BOOST_REQUIRE(welcome.has_value());
    const std::uint16_t t = next_transition++;
    BOOST_TEST(only(one.on_binary(gateway.announce_commit_frame(t, commit), now), Outgoing::Kind::ReadyForTransition)
                   .transition_id == t);
    // two's own commit lost: the announcement of one's commit does not concern its local group.
    BOOST_TEST(two.on_binary(gateway.announce_commit_frame(t, commit), now).empty());
    BOOST_TEST(only(two.on_binary(gateway.welcome_frame(t, *welcome), now), Outgoing::Kind::ReadyForTransition)
                   .transition_id == t);
    one.on_execute_transition(t, now);
    two.on_execute_transition(t, now);
  }
};

Bytes send(Session& from, const Bytes& frame) {
  Bytes out(max_encrypted_size(frame.size()));
  const auto r = from.encrypt(Codec::Opus, frame, out.data(), out.size());
  BOOST_REQUIRE_MESSAGE(r.status == FrameStatus::Ok, to_string(r.status));
  out.resize(r.size);
  return out;
}

FrameStatus receive(Session& at, std::uint64_t from, const Bytes& wire, Bytes* plain, Clock::time_point now) {
  Bytes out(wire.size());
  const auto r = at.decrypt(from, MediaType::Audio, wire, out.data(), out.size(), now);
  out.resize(r.size);
  if (plain) *plain = out;
  return r.status;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(dave_session)

BOOST_AUTO_TEST_CASE(two_members_form_a_group_and_exchange_frames) {
  Call call;
  call.form_group();
  BOOST_TEST((call.one.status() == SessionStatus::Active));
  BOOST_TEST((call.two.status() == SessionStatus::Active));
  BOOST_TEST(*call.one.epoch() == 1u);
  BOOST_TEST(*call.two.epoch() == 1u);
  BOOST_TEST(*call.one.last_sequence() == 4u);  // one saw 25 (0), 27 (2) and 29 (4); the others went to two
  const Bytes frame(160, 0x33);
  Bytes plain;
  BOOST_TEST((receive(call.two, 1, send(call.one, frame), &plain, call.now) == FrameStatus::Ok));
  BOOST_TEST(plain == frame);
  BOOST_TEST((receive(call.one, 2, send(call.two, frame), &plain, call.now) == FrameStatus::Ok));
  // A frame claimed by another sender id does not decrypt under that sender's key.
  BOOST_TEST((receive(call.one, 2, send(call.one, frame), nullptr, call.now) != FrameStatus::Ok));
  BOOST_TEST(*call.one.epoch_authenticator_code() == *call.two.epoch_authenticator_code());
  BOOST_TEST(call.one.verification_code(2) == call.two.verification_code(1));
  BOOST_CHECK_THROW(call.one.pairwise_fingerprint(1), Error);  // ourselves
  BOOST_CHECK_THROW(call.one.pairwise_fingerprint(9), Error);  // not a member
}

BOOST_AUTO_TEST_CASE(the_media_path_of_a_session_allocates_nothing_after_warm_up) {
  BOOST_REQUIRE(e2ee_test::openssl_allocations_counted());
  Call call;
  call.form_group();
  const Bytes frame(160, 0x5c);
  Bytes wire(max_encrypted_size(frame.size())), plain(wire.size());
  auto round_trip = [&] {
    const auto e = call.one.encrypt(Codec::Opus, frame, wire.data(), wire.size());
    const auto d = call.two.decrypt(1, MediaType::Audio, BytesView(wire.data(), e.size), plain.data(), plain.size(),
                                    call.now);
    return e.status == FrameStatus::Ok && d.status == FrameStatus::Ok && d.size == frame.size();
  };
  for (int i = 0; i < 10; ++i) BOOST_REQUIRE(round_trip());
  const std::size_t before = e2ee_test::allocations_so_far();
  bool all_ok = true;
  for (int i = 0; i < 1000; ++i) all_ok = round_trip() && all_ok;
  BOOST_TEST(all_ok);
  BOOST_TEST(e2ee_test::allocations_so_far() - before == 0u);
}

BOOST_AUTO_TEST_CASE(a_removed_member_cannot_read_the_next_epoch) {
  Call call;
  call.form_group();
  const Bytes frame(100, 0x44);
  const Bytes last_of_epoch_1 = send(call.two, frame);
  // The gateway broadcasts the removal to both (two is still connected in this test); only one commits.
  const Bytes removal = call.gateway.remove_proposal(1, 1);
  const auto out = call.one.on_binary(call.gateway.proposals_frame({removal}), call.now);
  BOOST_TEST(call.two.on_binary(call.gateway.proposals_frame({removal}), call.now).empty());
  const Bytes& c = only(out, Outgoing::Kind::Binary).binary;
  auto [commit, welcome] = e2ee_test::DaveGateway::split_commit_welcome(BytesView(c.data() + 1, c.size() - 1));
  BOOST_TEST(!welcome.has_value());
  BOOST_TEST(only(call.one.on_binary(call.gateway.announce_commit_frame(9, commit), call.now),
                  Outgoing::Kind::ReadyForTransition).transition_id == 9);
  // Until the transition executes, one keeps sending with epoch 1 (two still reads it).
  BOOST_TEST((receive(call.two, 1, send(call.one, frame), nullptr, call.now) == FrameStatus::Ok));
  call.one.on_execute_transition(9, call.now);
  BOOST_TEST(*call.one.epoch() == 2u);
  BOOST_TEST(call.one.member_user_ids() == std::vector<std::uint64_t>{1});
  BOOST_TEST((receive(call.two, 1, send(call.one, frame), nullptr, call.now) == FrameStatus::AuthenticationFailed));
  BOOST_TEST((receive(call.two, 1, send(call.one, frame), nullptr, call.now) == FrameStatus::AuthenticationFailed));
  // two's frames of epoch 1 are accepted for the transition window only.
  BOOST_TEST((receive(call.one, 2, last_of_epoch_1, nullptr, call.now) == FrameStatus::Ok));
  const Bytes later = send(call.two, frame);
  BOOST_TEST((receive(call.one, 2, later, nullptr, call.now + kKeyRetention) == FrameStatus::NoKey));
  // The removed member processing the commit learns it is out, and waits to be re-added.
  BOOST_TEST(call.two.on_binary(call.gateway.announce_commit_frame(9, commit), call.now).empty());
  BOOST_TEST((call.two.status() != SessionStatus::Active));
}

BOOST_AUTO_TEST_CASE(an_unprocessable_commit_is_reported_with_a_new_key_package) {
  Call call;
  call.form_group();
  // In the group, a proposal for another epoch is an error the owner hears about.
  BOOST_CHECK_THROW(call.two.on_binary(call.gateway.proposals_frame({call.gateway.remove_proposal(0, 7)}), call.now),
                    Error);
  BOOST_TEST((call.two.status() == SessionStatus::Active));
  const auto out = call.one.on_binary(call.gateway.proposals_frame({call.gateway.remove_proposal(1, 1)}), call.now);
  const Bytes& c = only(out, Outgoing::Kind::Binary).binary;
  auto [commit, welcome] = e2ee_test::DaveGateway::split_commit_welcome(BytesView(c.data() + 1, c.size() - 1));
  Bytes broken = commit;
  broken[broken.size() - 10] ^= 0x01;  // inside the signature or confirmation tag
  const auto flagged = call.two.on_binary(call.gateway.announce_commit_frame(12, broken), call.now);
  BOOST_TEST(only(flagged, Outgoing::Kind::InvalidCommitWelcome).transition_id == 12);
  BOOST_TEST(key_package_of(flagged).size() > 100u);
  BOOST_TEST((call.two.status() == SessionStatus::Pending));
  BOOST_TEST((!call.two.epoch().has_value() || *call.two.epoch() == 0u));
}

BOOST_AUTO_TEST_CASE(proposals_are_ignored_without_a_group_and_refused_for_strangers) {
  Call call;
  Session stranger{77, kChannel};
  BOOST_TEST(stranger.on_binary(call.gateway.external_sender_frame(), call.now).empty());
  const Bytes kp_stranger = key_package_of(stranger.on_select_protocol_ack(1, kAfterCutoff));
  // No external sender yet, so no local group: proposals are ignored.
  BOOST_TEST(call.one.on_select_protocol_ack(1, kAfterCutoff).size() == 1u);
  BOOST_TEST(call.one.on_binary(call.gateway.proposals_frame({call.gateway.add_proposal(kp_stranger, 0)}), call.now)
                 .empty());
  // With a group, an Add for someone not in the call is refused and leaves nothing to commit.
  call.one.on_binary(call.gateway.external_sender_frame(), call.now);
  BOOST_CHECK_THROW(
      call.one.on_binary(call.gateway.proposals_frame({call.gateway.add_proposal(kp_stranger, 0)}), call.now), Error);
  BOOST_TEST((call.one.status() == SessionStatus::Pending));
  call.one.on_clients_connect({77});
  // Proposals for the call's established group (another epoch) are not a pending member's concern.
  BOOST_TEST(call.one.on_binary(call.gateway.proposals_frame({call.gateway.add_proposal(kp_stranger, 3)}), call.now)
                 .empty());
  BOOST_TEST(call.one.on_binary(call.gateway.proposals_frame({call.gateway.add_proposal(kp_stranger, 0)}), call.now)
                 .size() == 1u);
  BOOST_CHECK_THROW(call.one.on_binary(Bytes{0x00, 0x01, 0x1b}, call.now), Error);  // truncated frame
}

BOOST_AUTO_TEST_CASE(protocol_version_zero_only_before_the_e2ee_only_date) {
  Session s{5, kChannel};
  const auto now = Clock::now();
  BOOST_CHECK_THROW(s.on_select_protocol_ack(0, kAfterCutoff), Error);
  BOOST_CHECK_THROW(s.on_select_protocol_ack(2, kBeforeCutoff), Error);  // not a version we know
  BOOST_TEST(s.on_select_protocol_ack(0, kBeforeCutoff).empty());
  BOOST_TEST((s.status() == SessionStatus::Inactive));
  const Bytes frame(50, 0x21);
  Bytes out(max_encrypted_size(frame.size()));
  BOOST_TEST((s.encrypt(Codec::Opus, frame, out.data(), out.size()).status == FrameStatus::Passthrough));
  BOOST_TEST((s.decrypt(9, MediaType::Audio, frame, out.data(), out.size(), now).status == FrameStatus::Passthrough));
  // Upgrade: prepare_epoch(1) for version 1 sends a key package; frames wait for keys.
  BOOST_TEST(key_package_of(s.on_prepare_epoch(1, 1, kAfterCutoff)).size() > 100u);
  BOOST_CHECK_THROW(s.on_prepare_transition(3, 0, now, kAfterCutoff), Error);
  BOOST_TEST(only(s.on_prepare_transition(3, 0, now, kBeforeCutoff), Outgoing::Kind::ReadyForTransition)
                 .transition_id == 3);
  BOOST_TEST(s.on_execute_transition(3, now).empty());
  BOOST_TEST(s.protocol_version() == 0u);
  BOOST_TEST(s.on_execute_transition(3, now).empty());  // executed once; a repeat changes nothing
}

BOOST_AUTO_TEST_CASE(a_transition_that_keeps_the_epoch_keeps_the_nonce_counting) {
  Call call;
  call.form_group();
  const Bytes frame(40, 0x77);
  const Bytes before = send(call.one, frame);
  // A retained-group transition (downgrade to 0 and back, before the E2EE-only date) re-keys nothing:
  // the encryptor goes on from the next nonce instead of reusing nonce 0 under the same key.
  only(call.one.on_prepare_transition(20, 0, call.now, kBeforeCutoff), Outgoing::Kind::ReadyForTransition);
  call.one.on_execute_transition(20, call.now);
  only(call.one.on_prepare_transition(21, 1, call.now, kBeforeCutoff), Outgoing::Kind::ReadyForTransition);
  call.one.on_execute_transition(21, call.now);
  const Bytes after = send(call.one, frame);
  ProtocolFrame p_before, p_after;
  BOOST_REQUIRE(parse_protocol_frame(before, p_before));
  BOOST_REQUIRE(parse_protocol_frame(after, p_after));
  BOOST_TEST(p_after.truncated_nonce == p_before.truncated_nonce + 1);
  Bytes plain;
  BOOST_TEST((receive(call.two, 1, after, &plain, call.now) == FrameStatus::Ok));
  BOOST_TEST((receive(call.two, 1, before, nullptr, call.now) == FrameStatus::Ok));
  BOOST_TEST((receive(call.two, 1, before, nullptr, call.now) == FrameStatus::Replayed));
}

BOOST_AUTO_TEST_CASE(sole_member_reset_executes_at_once) {
  Call call;
  call.form_group();
  // two left; the gateway resets one to a new local group: prepare_epoch(1), then transition 0.
  const Bytes kp = key_package_of(call.one.on_prepare_epoch(1, 1, kAfterCutoff));
  BOOST_TEST(!kp.empty());
  BOOST_TEST((call.one.status() == SessionStatus::Pending));
  BOOST_TEST(call.one.on_prepare_transition(0, 1, call.now, kAfterCutoff).empty());  // no ready for id 0
  BOOST_TEST(*call.one.epoch() == 0u);
  BOOST_TEST(call.one.member_user_ids() == std::vector<std::uint64_t>{1});
  const Bytes frame(20, 0x01);
  Bytes out(max_encrypted_size(frame.size()));
  BOOST_TEST((call.one.encrypt(Codec::Opus, frame, out.data(), out.size()).status == FrameStatus::Ok));
}

BOOST_AUTO_TEST_SUITE_END()
