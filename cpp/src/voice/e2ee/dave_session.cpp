#include "voice/e2ee/dave_session.hpp"

#include <openssl/crypto.h>

#include <algorithm>

#include "voice/e2ee/dave_codes.hpp"

namespace platformpp::voice::e2ee::dave {

namespace {

Bytes big_endian_u64(std::uint64_t v) {
  Bytes out(8);
  for (int i = 0; i < 8; ++i) out[i] = static_cast<std::uint8_t>(v >> (56 - 8 * i));
  return out;
}

Outgoing ready_for(std::uint16_t transition_id) {
  Outgoing o;
  o.kind = Outgoing::Kind::ReadyForTransition;
  o.transition_id = transition_id;
  return o;
}

}  // namespace

std::chrono::system_clock::time_point e2ee_only_since() {
  // 2026-03-01T00:00:00Z: 20513 days after the Unix epoch.
  return std::chrono::system_clock::time_point(std::chrono::seconds(20513ll * 86400));
}

Session::Session(std::uint64_t user_id, std::uint64_t channel_id, std::optional<SignatureKeyPair> signature_key)
    : user_id_(user_id),
      group_id_(big_endian_u64(channel_id)),
      signature_key_(signature_key ? std::move(*signature_key) : generate_signature_key_pair()) {
  encryptor_.set_passthrough(true);
  unknown_sender_.set_passthrough(true, Clock::now());
}

void Session::check_version_allowed(std::uint16_t protocol_version, std::chrono::system_clock::time_point wall) const {
  if (protocol_version > kMaxProtocolVersion)
    throw Error(ErrorKind::Unsupported, "dave protocol_version: at most " + std::to_string(kMaxProtocolVersion) +
                                            " is supported, got " + std::to_string(protocol_version));
  if (protocol_version == 0 && wall >= e2ee_only_since())
    throw Error(ErrorKind::Protocol,
                "dave protocol_version: 0 (no end-to-end encryption) is refused from 2026-03-01 on");
}

void Session::create_local_group_if_ready() {
  if (group_ || !key_package_ || !external_sender_ || group_version_ == 0) return;
  group_ = Group::create(group_id_, *key_package_, *external_sender_);
  group_established_ = false;
}

Outgoing Session::reset_and_rejoin() {
  removes_us_ = false;
  group_.reset();
  group_established_ = false;
  pending_commit_.reset();
  key_package_ = create_key_package(user_id_, signature_key_);
  create_local_group_if_ready();
  Outgoing o;
  o.kind = Outgoing::Kind::Binary;
  // The KeyPackage itself, as the platform's clients send it (not wrapped in an MLSMessage).
  o.binary = encode_key_package(serialize(key_package_->key_package));
  return o;
}

std::vector<Outgoing> Session::on_select_protocol_ack(std::uint16_t protocol_version,
                                                      std::chrono::system_clock::time_point wall) {
  check_version_allowed(protocol_version, wall);
  protocol_version_ = protocol_version;
  group_version_ = protocol_version;
  if (protocol_version == 0) {
    encryptor_.set_passthrough(true);
    receive_passthrough_ = true;
    return {};
  }
  encryptor_.set_passthrough(false);
  return {reset_and_rejoin()};
}

void Session::on_clients_connect(const std::vector<std::uint64_t>& user_ids) {
  expected_users_.insert(user_ids.begin(), user_ids.end());
}

void Session::on_client_disconnect(std::uint64_t user_id) { expected_users_.erase(user_id); }

std::vector<Outgoing> Session::on_prepare_transition(std::uint16_t transition_id, std::uint16_t protocol_version,
                                                     Clock::time_point now,
                                                     std::chrono::system_clock::time_point wall) {
  check_version_allowed(protocol_version, wall);
  if (protocol_version == 0) {
    // Receivers accept clear frames from now on; senders switch when the transition executes.
    receive_passthrough_ = true;
    unknown_sender_.set_passthrough(true, now);
    for (auto& entry : decryptors_) entry.second.set_passthrough(true, now);
  }
  return prepared(transition_id, protocol_version, now);
}

std::vector<Outgoing> Session::on_execute_transition(std::uint16_t transition_id, Clock::time_point now) {
  const auto it = transitions_.find(transition_id);
  if (it == transitions_.end()) return {};  // not announced to us (e.g. we joined after it): nothing to switch
  const std::uint16_t version = it->second.protocol_version;
  transitions_.erase(it);
  execute(version, now);
  return {};
}

std::vector<Outgoing> Session::on_prepare_epoch(std::uint64_t epoch, std::uint16_t protocol_version,
                                                std::chrono::system_clock::time_point wall) {
  check_version_allowed(protocol_version, wall);
  if (epoch != 1 || protocol_version == 0) return {};
  // A new group: whatever we had is dropped and we start again as a pending member.
  group_version_ = protocol_version;
  return {reset_and_rejoin()};
}

std::vector<Outgoing> Session::prepared(std::uint16_t transition_id, std::uint16_t protocol_version,
                                        Clock::time_point now) {
  if (transition_id == 0) {  // (re)initialisation: executes at once, nobody waits for a ready
    execute(protocol_version, now);
    return {};
  }
  transitions_[transition_id] = PendingTransition{protocol_version};
  return {ready_for(transition_id)};
}

std::unique_ptr<KeyRatchet> Session::ratchet_for(std::uint64_t user_id) const {
  const BytesView label = sender_key_exporter_label();
  const auto context = sender_key_exporter_context(user_id);
  Bytes secret = group_->export_secret(std::string(label.begin(), label.end()),
                                       BytesView(context.data(), context.size()), kSenderBaseSecretSize);
  auto ratchet = std::make_unique<KeyRatchet>(secret);
  OPENSSL_cleanse(secret.data(), secret.size());
  return ratchet;
}

void Session::execute(std::uint16_t protocol_version, Clock::time_point now) {
  protocol_version_ = protocol_version;
  if (protocol_version == 0) {
    encryptor_.set_passthrough(true);
    receive_passthrough_ = true;
    unknown_sender_.set_passthrough(true, now);
    for (auto& entry : decryptors_) entry.second.set_passthrough(true, now);
    keys_in_use_ = false;
    authenticator_code_.reset();
    return;
  }
  encryptor_.set_passthrough(false);
  if (!group_) return;  // nothing to key yet: frames are refused (NoKey) rather than sent in clear
  Bytes authenticator = group_->epoch_authenticator();
  if (keyed_authenticator_ == authenticator) {
    // The same epoch keeps its ratchets (a version change that retains the group, or leaving
    // passthrough): new ones would restart the nonce under the same key.
    for (auto& entry : decryptors_) entry.second.set_passthrough(false, now);
    receive_passthrough_ = false;
    unknown_sender_.set_passthrough(false, now);
    keys_in_use_ = true;
    authenticator_code_ = dave::epoch_authenticator_code(authenticator);
    return;
  }
  encryptor_.set_key_ratchet(ratchet_for(user_id_));
  std::set<std::uint64_t> present;
  for (const Member& m : group_->members()) {
    if (m.user_id == user_id_) continue;
    present.insert(m.user_id);
    auto inserted = decryptors_.try_emplace(m.user_id);
    FrameDecryptor& d = inserted.first->second;
    if (inserted.second && receive_passthrough_) d.set_passthrough(true, now);
    d.transition_to(ratchet_for(m.user_id), now);
    d.set_passthrough(false, now);  // clear frames still pass for the transition window
  }
  for (auto& entry : decryptors_) {
    if (!present.count(entry.first) && entry.second.has_key()) entry.second.transition_to(nullptr, now);
  }
  receive_passthrough_ = false;
  unknown_sender_.set_passthrough(false, now);
  keys_in_use_ = true;
  authenticator_code_ = dave::epoch_authenticator_code(authenticator);
  keyed_authenticator_ = std::move(authenticator);
}

std::vector<Outgoing> Session::invalid_commit_welcome(std::uint16_t transition_id) {
  Outgoing flag;
  flag.kind = Outgoing::Kind::InvalidCommitWelcome;
  flag.transition_id = transition_id;
  return {flag, reset_and_rejoin()};
}

std::vector<Outgoing> Session::on_binary(BytesView frame, Clock::time_point now) {
  const ServerMessage m = decode_server_message(frame);
  last_sequence_ = m.sequence;
  switch (m.opcode) {
    case Opcode::ExternalSenderPackage: {
      const auto& p = std::get<ExternalSenderPackage>(m.body);
      external_sender_ = decode_all<ExternalSender>(p.external_sender, decode_external_sender, "external_sender");
      create_local_group_if_ready();
      return {};
    }
    case Opcode::Proposals:
      return handle_proposals(std::get<ProposalsMessage>(m.body));
    case Opcode::AnnounceCommitTransition:
      return handle_commit(std::get<AnnounceCommitTransition>(m.body), now);
    case Opcode::Welcome:
      return handle_welcome(std::get<WelcomeMessage>(m.body), now);
    default:
      return {};  // decode_server_message admits no other opcode
  }
}

std::vector<Outgoing> Session::handle_proposals(const ProposalsMessage& m) {
  if (!group_) return {};  // no local group yet: the protocol says to ignore them
  if (m.operation == ProposalsOperation::Revoke) {
    group_->revoke_proposals(m.proposal_refs);
    removes_us_ = false;  // conservative: a revoked removal of us lets us commit again
  } else {
    std::vector<ProposalInfo> infos;
    try {
      infos = group_->receive_proposals(m.proposal_messages);
    } catch (const Error&) {
      // A pending member's local group is not the call's established group: proposals made for that
      // group (another epoch) are not ours to check. In the group, a bad proposal is the caller's error.
      if (!group_established_) return {};
      throw;
    }
    const auto unexpected = std::find_if(infos.begin(), infos.end(), [&](const ProposalInfo& i) {
      return i.type == ProposalType::add && !expected_users_.count(i.user_id);
    });
    if (unexpected != infos.end()) {
      std::vector<Bytes> refs;
      for (const auto& i : infos) refs.push_back(i.ref);
      group_->revoke_proposals(refs);
      throw Error(ErrorKind::Protocol, "dave proposals: an Add proposal names user " +
                                           std::to_string(unexpected->user_id) + ", who is not in the call");
    }
    // A member being removed does not commit (MLS forbids committing one's own removal); it processes
    // the winning commit and finds itself out.
    for (const auto& i : infos) {
      if (i.type == ProposalType::remove && group_established_ && i.removed_leaf == group_->own_leaf_index())
        removes_us_ = true;
    }
  }
  if (pending_commit_) {
    group_->discard_pending_commit();
    pending_commit_.reset();
  }
  if (!group_->has_pending_proposals() || removes_us_) return {};
  CommitOutput c = group_->commit_pending_proposals();
  pending_commit_ = c.commit_message;
  Outgoing o;
  o.kind = Outgoing::Kind::Binary;
  o.binary = encode_commit_welcome(c.commit_message, c.welcome);
  return {o};
}

std::vector<Outgoing> Session::handle_commit(const AnnounceCommitTransition& m, Clock::time_point now) {
  if (!group_) return {};
  // Before the group is established only our own commit can move our local group; another member's
  // commit created the group and a Welcome will bring us in.
  const bool ours = pending_commit_ && *pending_commit_ == m.commit_message;
  if (!group_established_ && !ours) return {};
  try {
    group_->process_commit(m.commit_message);
  } catch (const Error&) {
    return invalid_commit_welcome(m.transition_id);
  }
  pending_commit_.reset();
  removes_us_ = false;
  if (!group_->is_member()) {
    // The commit removed us: we are a pending member again (the gateway re-adds our next key package).
    group_.reset();
    group_established_ = false;
    return {};
  }
  group_established_ = true;
  return prepared(m.transition_id, group_version_, now);
}

std::vector<Outgoing> Session::handle_welcome(const WelcomeMessage& m, Clock::time_point now) {
  if (!key_package_ || group_established_) return {};
  try {
    Group joined = Group::join(m.welcome, *key_package_);
    // The group must name the voice gateway we know, and only it, as its external sender.
    const std::vector<ExternalSender> senders = joined.external_senders();
    if (!external_sender_ || senders.size() != 1 || senders[0].signature_key != external_sender_->signature_key ||
        !(senders[0].credential == external_sender_->credential)) {
      return invalid_commit_welcome(m.transition_id);
    }
    group_ = std::move(joined);
  } catch (const Error&) {
    return invalid_commit_welcome(m.transition_id);
  }
  pending_commit_.reset();
  group_established_ = true;
  return prepared(m.transition_id, group_version_, now);
}

FrameResult Session::encrypt(Codec codec, BytesView frame, std::uint8_t* out, std::size_t out_capacity) {
  return encryptor_.encrypt(codec, frame, out, out_capacity);
}

FrameResult Session::decrypt(std::uint64_t sender_user_id, MediaType media, BytesView frame, std::uint8_t* out,
                             std::size_t out_capacity, Clock::time_point now) {
  const auto it = decryptors_.find(sender_user_id);
  FrameDecryptor& d = it == decryptors_.end() ? unknown_sender_ : it->second;
  return d.decrypt(media, frame, out, out_capacity, now);
}

SessionStatus Session::status() const {
  if (group_version_ == 0 && protocol_version_ == 0) return SessionStatus::Inactive;
  if (pending_commit_) return SessionStatus::AwaitingResponse;
  if (group_established_ && keys_in_use_) return SessionStatus::Active;
  if (key_package_) return SessionStatus::Pending;
  return SessionStatus::Inactive;
}

std::optional<std::uint64_t> Session::epoch() const {
  if (!group_) return std::nullopt;
  return group_->epoch();
}

std::vector<std::uint64_t> Session::member_user_ids() const {
  std::vector<std::uint64_t> ids;
  if (group_) {
    for (const Member& m : group_->members()) ids.push_back(m.user_id);
  }
  return ids;
}

Bytes Session::pairwise_fingerprint(std::uint64_t user_id) const {
  if (group_) {
    for (const Member& m : group_->members()) {
      if (m.user_id == user_id && user_id != user_id_)
        return dave::pairwise_fingerprint(kFingerprintVersion, signature_key_.public_key, user_id_, m.signature_key,
                                          user_id);
    }
  }
  throw Error(ErrorKind::State, "dave pairwise fingerprint: user " + std::to_string(user_id) +
                                    " is not another member of the group");
}

std::string Session::verification_code(std::uint64_t user_id) const {
  return fingerprint_code(pairwise_fingerprint(user_id));
}

}  // namespace platformpp::voice::e2ee::dave
