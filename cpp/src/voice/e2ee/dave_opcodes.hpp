// The binary voice gateway opcodes of DAVE (25-30). Frames from the voice gateway start with a 2-byte
// sequence number, then the opcode; frames to it start with the opcode. MLS structures inside are
// kept as their exact bytes for the MLS layer. The JSON opcodes (21-24, 31) are the owner's to parse;
// Opcode names them all. Decoders throw Error(Decode) naming the field.
#pragma once

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "voice/e2ee/common.hpp"

namespace platformpp::voice::e2ee::dave {

enum class Opcode : std::uint8_t {
  PrepareTransition = 21,         // JSON, server -> client
  ExecuteTransition = 22,         // JSON, server -> client
  ReadyForTransition = 23,        // JSON, client -> server
  PrepareEpoch = 24,              // JSON, server -> client
  ExternalSenderPackage = 25,     // binary, server -> client
  KeyPackage = 26,                // binary, client -> server
  Proposals = 27,                 // binary, server -> client
  CommitWelcome = 28,             // binary, client -> server
  AnnounceCommitTransition = 29,  // binary, server -> client
  Welcome = 30,                   // binary, server -> client
  InvalidCommitWelcome = 31,      // JSON, client -> server
};

enum class ProposalsOperation : std::uint8_t { Append = 0, Revoke = 1 };

// 25: the voice gateway's ExternalSender (signature key and basic credential), as the group's
// external_senders extension will carry it.
struct ExternalSenderPackage {
  Bytes external_sender;  // the encoded ExternalSender struct
  Bytes signature_key;
  Bytes identity;
};

// 27: proposals to append (MLSMessages carrying external-sender PublicMessages, concatenated as the
// body of the vector) or proposal references to revoke.
struct ProposalsMessage {
  ProposalsOperation operation = ProposalsOperation::Append;
  Bytes proposal_messages;         // append
  std::vector<Bytes> proposal_refs;  // revoke
};

// 29: the commit that moves the group to its next epoch, with its transition id.
struct AnnounceCommitTransition {
  std::uint16_t transition_id = 0;
  Bytes commit_message;  // MLSMessage
};

// 30: the Welcome for this member, with its transition id.
struct WelcomeMessage {
  std::uint16_t transition_id = 0;
  Bytes welcome;  // Welcome
};

struct ServerMessage {
  std::uint16_t sequence = 0;
  Opcode opcode = Opcode::ExternalSenderPackage;
  std::variant<ExternalSenderPackage, ProposalsMessage, AnnounceCommitTransition, WelcomeMessage> body;
};

// A binary frame from the voice gateway (opcodes 25, 27, 29, 30); any other opcode is Error(Decode).
ServerMessage decode_server_message(BytesView frame);
Bytes encode_server_message(const ServerMessage& message);

// The client's binary frames.
Bytes encode_key_package(BytesView key_package);
Bytes encode_commit_welcome(BytesView commit_message, const std::optional<Bytes>& welcome);

// The opcode of a client frame (for a voice gateway's side, as tests play it) and what follows it.
struct ClientMessage {
  Opcode opcode = Opcode::KeyPackage;
  BytesView payload;
};
ClientMessage decode_client_message(BytesView frame);

}  // namespace platformpp::voice::e2ee::dave
