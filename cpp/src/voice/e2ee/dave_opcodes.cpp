#include "voice/e2ee/dave_opcodes.hpp"

#include <string>

#include "voice/e2ee/tls_codec.hpp"

namespace platformpp::voice::e2ee::dave {

namespace {

constexpr std::uint16_t kBasicCredential = 1;

ExternalSenderPackage decode_external_sender_package(Reader& r) {
  const std::uint8_t* start = r.position();
  ExternalSenderPackage p;
  p.signature_key = r.vec("external_sender.signature_key");
  if (r.u16("external_sender.credential.credential_type") != kBasicCredential)
    decode_error("external_sender.credential.credential_type", "must be basic (1)");
  p.identity = r.vec("external_sender.credential.identity");
  p.external_sender.assign(start, r.position());
  r.expect_end("dave_mls_external_sender_package");
  return p;
}

ProposalsMessage decode_proposals(Reader& r) {
  ProposalsMessage m;
  const std::uint8_t op = r.u8("proposals.operation_type");
  if (op > 1) decode_error("proposals.operation_type", "must be append (0) or revoke (1)");
  m.operation = static_cast<ProposalsOperation>(op);
  Reader body = r.sub_vec(m.operation == ProposalsOperation::Append ? "proposals.proposal_messages"
                                                                     : "proposals.proposal_refs");
  r.expect_end("dave_mls_proposals");
  if (m.operation == ProposalsOperation::Append) {
    if (body.empty()) decode_error("proposals.proposal_messages", "must not be empty");
    const BytesView rest = body.raw(body.remaining(), "proposals.proposal_messages");
    m.proposal_messages = rest.to_bytes();
  } else {
    while (!body.empty()) m.proposal_refs.push_back(body.vec("proposals.proposal_refs[]"));
    if (m.proposal_refs.empty()) decode_error("proposals.proposal_refs", "must not be empty");
  }
  return m;
}

Bytes rest_of(Reader& r, const char* field) {
  if (r.empty()) decode_error(field, "missing");
  return r.raw(r.remaining(), field).to_bytes();
}

}  // namespace

ServerMessage decode_server_message(BytesView frame) {
  Reader r(frame);
  ServerMessage m;
  m.sequence = r.u16("sequence_number");
  const std::uint8_t op = r.u8("opcode");
  m.opcode = static_cast<Opcode>(op);
  switch (m.opcode) {
    case Opcode::ExternalSenderPackage:
      m.body = decode_external_sender_package(r);
      break;
    case Opcode::Proposals:
      m.body = decode_proposals(r);
      break;
    case Opcode::AnnounceCommitTransition: {
      AnnounceCommitTransition a;
      a.transition_id = r.u16("announce_commit_transition.transition_id");
      a.commit_message = rest_of(r, "announce_commit_transition.commit_message");
      m.body = std::move(a);
      break;
    }
    case Opcode::Welcome: {
      WelcomeMessage w;
      w.transition_id = r.u16("welcome.transition_id");
      w.welcome = rest_of(r, "welcome.welcome_message");
      m.body = std::move(w);
      break;
    }
    default:
      decode_error("opcode", "binary server opcode must be 25, 27, 29 or 30, got " + std::to_string(op));
  }
  return m;
}

Bytes encode_server_message(const ServerMessage& message) {
  Writer w;
  w.u16(message.sequence);
  w.u8(static_cast<std::uint8_t>(message.opcode));
  switch (message.opcode) {
    case Opcode::ExternalSenderPackage:
      w.raw(std::get<ExternalSenderPackage>(message.body).external_sender);
      break;
    case Opcode::Proposals: {
      const auto& p = std::get<ProposalsMessage>(message.body);
      w.u8(static_cast<std::uint8_t>(p.operation));
      if (p.operation == ProposalsOperation::Append) {
        w.vec(p.proposal_messages);
      } else {
        const std::size_t start = w.begin_vec();
        for (const auto& ref : p.proposal_refs) w.vec(ref);
        w.end_vec(start);
      }
      break;
    }
    case Opcode::AnnounceCommitTransition: {
      const auto& a = std::get<AnnounceCommitTransition>(message.body);
      w.u16(a.transition_id);
      w.raw(a.commit_message);
      break;
    }
    case Opcode::Welcome: {
      const auto& v = std::get<WelcomeMessage>(message.body);
      w.u16(v.transition_id);
      w.raw(v.welcome);
      break;
    }
    default:
      throw Error(ErrorKind::State, "encode_server_message: opcode must be 25, 27, 29 or 30");
  }
  return w.take();
}

Bytes encode_key_package(BytesView key_package) {
  Writer w;
  w.u8(static_cast<std::uint8_t>(Opcode::KeyPackage));
  w.raw(key_package);
  return w.take();
}

Bytes encode_commit_welcome(BytesView commit_message, const std::optional<Bytes>& welcome) {
  Writer w;
  w.u8(static_cast<std::uint8_t>(Opcode::CommitWelcome));
  w.raw(commit_message);
  if (welcome) w.raw(*welcome);
  return w.take();
}

ClientMessage decode_client_message(BytesView frame) {
  Reader r(frame);
  const std::uint8_t op = r.u8("opcode");
  if (op != static_cast<std::uint8_t>(Opcode::KeyPackage) && op != static_cast<std::uint8_t>(Opcode::CommitWelcome))
    decode_error("opcode", "binary client opcode must be 26 or 28, got " + std::to_string(op));
  if (r.empty()) decode_error("payload", "missing");
  return {static_cast<Opcode>(op), BytesView(r.position(), r.remaining())};
}

}  // namespace platformpp::voice::e2ee::dave
