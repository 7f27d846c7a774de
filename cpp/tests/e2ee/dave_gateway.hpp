// The voice gateway's side of DAVE, as tests play it: an external sender (P-256 key, basic credential)
// that signs Add and Remove proposals, and the server frames (25, 27, 29, 30) with sequence numbers.
// Used by dave_session_test.cpp and the dave_peer driver.
#pragma once

#include <optional>
#include <utility>

#include "voice/e2ee/crypto.hpp"
#include "voice/e2ee/tls_codec.hpp"
#include "voice/e2ee/dave_opcodes.hpp"
#include "voice/e2ee/framing.hpp"
#include "voice/e2ee/messages.hpp"

namespace e2ee_test {

class DaveGateway {
 public:
  DaveGateway(std::uint64_t channel_id, std::uint64_t identity = 0)
      : keys_(platformpp::voice::e2ee::generate_signature_key_pair()) {
    using namespace platformpp::voice::e2ee;
    group_id_ = u64_be(channel_id);
    sender_.signature_key = keys_.public_key;
    sender_.credential.type = CredentialType::basic;
    sender_.credential.identity = u64_be(identity);
  }

  // The ExternalSender struct, as the group's external_senders extension holds it.
  platformpp::voice::e2ee::Bytes external_sender() const { return platformpp::voice::e2ee::serialize(sender_); }

  platformpp::voice::e2ee::Bytes external_sender_frame() {
    using namespace platformpp::voice::e2ee::dave;
    ServerMessage m{next_sequence(), Opcode::ExternalSenderPackage, {}};
    m.body = ExternalSenderPackage{external_sender(), sender_.signature_key, sender_.credential.identity};
    return encode_server_message(m);
  }

  // An MLSMessage(PublicMessage) with an Add of key_package (a KeyPackage, or an MLSMessage holding one).
  platformpp::voice::e2ee::Bytes add_proposal(platformpp::voice::e2ee::BytesView key_package,
                                              std::uint64_t epoch) const {
    using namespace platformpp::voice::e2ee;
    Proposal p;
    p.type = ProposalType::add;
    const bool wrapped = key_package.size >= 4 && key_package.data[0] == 0 && key_package.data[1] == 1 &&
                         key_package.data[2] == 0 && key_package.data[3] == 5;
    p.add = wrapped ? decode_mls_message(key_package).key_package
                    : decode_all<KeyPackage>(key_package, decode_key_package, "key_package");
    return proposal_message(std::move(p), epoch);
  }

  platformpp::voice::e2ee::Bytes remove_proposal(std::uint32_t leaf, std::uint64_t epoch) const {
    using namespace platformpp::voice::e2ee;
    Proposal p;
    p.type = ProposalType::remove;
    p.removed = leaf;
    return proposal_message(std::move(p), epoch);
  }

  // Opcode 27 appending the given proposal messages.
  platformpp::voice::e2ee::Bytes proposals_frame(const std::vector<platformpp::voice::e2ee::Bytes>& messages) {
    using namespace platformpp::voice::e2ee::dave;
    ProposalsMessage p;
    for (const auto& m : messages) p.proposal_messages.insert(p.proposal_messages.end(), m.begin(), m.end());
    ServerMessage s{next_sequence(), Opcode::Proposals, {}};
    s.body = std::move(p);
    return encode_server_message(s);
  }

  platformpp::voice::e2ee::Bytes announce_commit_frame(std::uint16_t transition_id,
                                                      platformpp::voice::e2ee::BytesView commit) {
    using namespace platformpp::voice::e2ee::dave;
    ServerMessage s{next_sequence(), Opcode::AnnounceCommitTransition, {}};
    s.body = AnnounceCommitTransition{transition_id, commit.to_bytes()};
    return encode_server_message(s);
  }

  // Opcode 28's payload is an MLSMessage(PublicMessage(Commit)) and, when it adds members, a Welcome
  // right after it: the gateway finds the boundary by parsing the commit message.
  static std::pair<platformpp::voice::e2ee::Bytes, std::optional<platformpp::voice::e2ee::Bytes>> split_commit_welcome(
      platformpp::voice::e2ee::BytesView payload) {
    using namespace platformpp::voice::e2ee;
    Reader r(payload);
    if (r.u16("commit_message.version") != kProtocolVersionMls10)
      decode_error("commit_message.version", "must be mls10");
    if (r.u16("commit_message.wire_format") != static_cast<std::uint16_t>(WireFormat::public_message))
      decode_error("commit_message.wire_format", "must be public_message");
    decode_public_message(r);
    const std::size_t commit_size = static_cast<std::size_t>(r.position() - payload.data);
    Bytes commit(payload.data, payload.data + commit_size);
    if (r.empty()) return {std::move(commit), std::nullopt};
    return {std::move(commit), Bytes(r.position(), payload.end())};
  }

  platformpp::voice::e2ee::Bytes welcome_frame(std::uint16_t transition_id,
                                               platformpp::voice::e2ee::BytesView welcome) {
    using namespace platformpp::voice::e2ee::dave;
    ServerMessage s{next_sequence(), Opcode::Welcome, {}};
    s.body = WelcomeMessage{transition_id, welcome.to_bytes()};
    return encode_server_message(s);
  }

 private:
  static platformpp::voice::e2ee::Bytes u64_be(std::uint64_t v) {
    platformpp::voice::e2ee::Bytes out(8);
    for (int i = 0; i < 8; ++i) out[i] = static_cast<std::uint8_t>(v >> (56 - 8 * i));
    return out;
  }

  platformpp::voice::e2ee::Bytes proposal_message(platformpp::voice::e2ee::Proposal proposal,
                                                  std::uint64_t epoch) const {
    using namespace platformpp::voice::e2ee;
    PublicMessage pm;
    pm.content.group_id = group_id_;
    pm.content.epoch = epoch;
    pm.content.sender = Sender{SenderType::external, 0};
    pm.content.content_type = ContentType::proposal;
    pm.content.proposal = std::move(proposal);
    pm.auth.signature = sign_framed_content(keys_.private_key, WireFormat::public_message, pm.content, nullptr);
    MlsMessage msg;
    msg.wire_format = WireFormat::public_message;
    msg.public_message = std::move(pm);
    return serialize(msg);
  }

  std::uint16_t next_sequence() { return sequence_++; }

  platformpp::voice::e2ee::SignatureKeyPair keys_;
  platformpp::voice::e2ee::ExternalSender sender_;
  platformpp::voice::e2ee::Bytes group_id_;
  std::uint16_t sequence_ = 0;
};

}  // namespace e2ee_test
