// A DAVE client session: the state machine of a call's voice gateway opcodes 21-31 over our MLS group,
// and the media encryptor/decryptors it keys. The owner (the voice connection) parses the JSON opcodes
// and hands them in typed, passes binary frames as they come, sends back what each call returns, and
// gives the time: a steady clock for key retention and the wall clock for the E2EE-only date.
//
// Not thread-safe: the owner serialises calls (media may run on another thread only behind its lock).
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "voice/e2ee/dave_frame.hpp"
#include "voice/e2ee/dave_opcodes.hpp"
#include "voice/e2ee/group.hpp"

namespace platformpp::voice::e2ee::dave {

constexpr std::uint16_t kMaxProtocolVersion = 1;

// From this instant (2026-03-01T00:00:00Z) calls are end-to-end encrypted only: the voice gateway may
// no longer move a call to protocol version 0, and the session refuses it.
std::chrono::system_clock::time_point e2ee_only_since();

// One message for the owner to send to the voice gateway.
struct Outgoing {
  enum class Kind {
    Binary,                // a binary frame (opcode 26 key package, 28 commit/welcome)
    ReadyForTransition,    // JSON op 23 {"transition_id": transition_id}
    InvalidCommitWelcome,  // JSON op 31 {"transition_id": transition_id}
  };
  Kind kind = Kind::Binary;
  Bytes binary;
  std::uint16_t transition_id = 0;
};

enum class SessionStatus {
  Inactive,          // protocol version 0 (transport encryption only), or before the protocol is known
  Pending,           // waiting to be welcomed into the call's group (or for the group to form)
  AwaitingResponse,  // sent a commit, waiting for the voice gateway to announce the winning one
  Active,            // in the group, media keys in use
};

class Session {
 public:
  // user_id: ours; channel_id: the call's (the MLS group id is its 8 bytes big-endian). The signature
  // key identifies us to the other members; a fresh one per call when not given.
  Session(std::uint64_t user_id, std::uint64_t channel_id,
          std::optional<SignatureKeyPair> signature_key = std::nullopt);

  // --- the voice gateway's messages ---------------------------------------------------------------
  // op 4 select_protocol_ack: the call's initial protocol version. Non-zero sends our key package.
  std::vector<Outgoing> on_select_protocol_ack(std::uint16_t protocol_version,
                                               std::chrono::system_clock::time_point wall);
  // ops 11 / 13: who is in the call; Add proposals for anyone else are refused.
  void on_clients_connect(const std::vector<std::uint64_t>& user_ids);
  void on_client_disconnect(std::uint64_t user_id);
  // op 21: a transition to protocol_version is coming (0: downgrade to passthrough). Id 0 executes now.
  std::vector<Outgoing> on_prepare_transition(std::uint16_t transition_id, std::uint16_t protocol_version,
                                              Clock::time_point now, std::chrono::system_clock::time_point wall);
  // op 22: senders switch to the transition's keys (or passthrough) now.
  std::vector<Outgoing> on_execute_transition(std::uint16_t transition_id, Clock::time_point now);
  // op 24: epoch 1 means the group is (re)created: our state resets and a new key package goes out.
  std::vector<Outgoing> on_prepare_epoch(std::uint64_t epoch, std::uint16_t protocol_version,
                                         std::chrono::system_clock::time_point wall);
  // Binary ops 25, 27, 29, 30 as received (sequence number first). Throws Error(Decode) for a frame
  // that does not parse, Error(Protocol) for proposals that add someone not in the call; other MLS
  // failures of a commit or welcome are answered with op 31 and a new key package instead.
  std::vector<Outgoing> on_binary(BytesView frame, Clock::time_point now);

  // --- media -----------------------------------------------------------------------------------------
  FrameResult encrypt(Codec codec, BytesView frame, std::uint8_t* out, std::size_t out_capacity);
  FrameResult decrypt(std::uint64_t sender_user_id, MediaType media, BytesView frame, std::uint8_t* out,
                      std::size_t out_capacity, Clock::time_point now);

  // --- state and verification --------------------------------------------------------------------------
  SessionStatus status() const;
  std::uint16_t protocol_version() const { return protocol_version_; }
  std::optional<std::uint64_t> epoch() const;
  std::optional<std::uint16_t> last_sequence() const { return last_sequence_; }
  const Bytes& signature_public_key() const { return signature_key_.public_key; }
  std::vector<std::uint64_t> member_user_ids() const;
  // The 30-digit code of the epoch whose keys are in use; nullopt before the first transition.
  std::optional<std::string> epoch_authenticator_code() const { return authenticator_code_; }
  // The pairwise fingerprint (64 bytes) with a member of the group, and its 45-digit code.
  // Error(State) when the user is not a member.
  Bytes pairwise_fingerprint(std::uint64_t user_id) const;
  std::string verification_code(std::uint64_t user_id) const;

 private:
  struct PendingTransition {
    std::uint16_t protocol_version = 0;
  };

  void check_version_allowed(std::uint16_t protocol_version, std::chrono::system_clock::time_point wall) const;
  // Drops the group and pending state, makes a new key package and, when the external sender is
  // known, a local group of our own; returns the key package frame to send.
  Outgoing reset_and_rejoin();
  void create_local_group_if_ready();
  std::vector<Outgoing> prepared(std::uint16_t transition_id, std::uint16_t protocol_version, Clock::time_point now);
  void execute(std::uint16_t protocol_version, Clock::time_point now);
  std::vector<Outgoing> invalid_commit_welcome(std::uint16_t transition_id);
  std::vector<Outgoing> handle_proposals(const ProposalsMessage& m);
  std::vector<Outgoing> handle_commit(const AnnounceCommitTransition& m, Clock::time_point now);
  std::vector<Outgoing> handle_welcome(const WelcomeMessage& m, Clock::time_point now);
  std::unique_ptr<KeyRatchet> ratchet_for(std::uint64_t user_id) const;

  std::uint64_t user_id_;
  Bytes group_id_;
  SignatureKeyPair signature_key_;
  std::uint16_t protocol_version_ = 0;  // the version media uses (changes when a transition executes)
  std::uint16_t group_version_ = 0;     // the version the group is being formed for
  std::optional<std::uint16_t> last_sequence_;
  std::set<std::uint64_t> expected_users_;

  std::optional<ExternalSender> external_sender_;
  std::optional<KeyPackageBundle> key_package_;
  std::optional<Group> group_;
  bool group_established_ = false;  // joined by Welcome or moved past epoch 0 by a commit
  std::optional<Bytes> pending_commit_;
  bool removes_us_ = false;  // a cached proposal removes our leaf: we must not commit
  std::map<std::uint16_t, PendingTransition> transitions_;

  bool keys_in_use_ = false;  // a transition to a non-zero version has been executed
  std::optional<Bytes> keyed_authenticator_;  // the epoch whose ratchets the encryptor/decryptors hold
  std::optional<std::string> authenticator_code_;
  bool receive_passthrough_ = true;  // clear frames from senders are accepted (version 0)
  FrameEncryptor encryptor_;
  std::unordered_map<std::uint64_t, FrameDecryptor> decryptors_;
  FrameDecryptor unknown_sender_;  // no keys: passes clear frames while receive_passthrough_
};

}  // namespace platformpp::voice::e2ee::dave
