// Any bytes as handshake messages to a live two-member group: proposals from the external sender
// (DAVE opcode 27's body) and a commit (opcode 29's). A refused message must leave the group usable.
#include <cstdlib>
#include <memory>

#include "voice/e2ee/group.hpp"

using namespace platformpp::voice::e2ee;

namespace {
struct Fixture {
  SignatureKeyPair gateway = generate_signature_key_pair();
  std::unique_ptr<Group> bob;
  Fixture() {
    ExternalSender sender;
    sender.signature_key = gateway.public_key;
    sender.credential.identity = {'g'};
    const KeyPackageBundle alice_kp = create_key_package(1, generate_signature_key_pair());
    const KeyPackageBundle bob_kp = create_key_package(2, generate_signature_key_pair());
    Group alice = Group::create(user_id_identity(5), alice_kp, sender);
    // The add proposal is built as the gateway would, then committed by Alice.
    FramedContent c;
    c.group_id = alice.group_id();
    c.epoch = alice.epoch();
    c.sender = Sender{SenderType::external, 0};
    c.content_type = ContentType::proposal;
    c.proposal = Proposal{};
    c.proposal->type = ProposalType::add;
    c.proposal->add = bob_kp.key_package;
    MlsMessage m;
    m.wire_format = WireFormat::public_message;
    m.public_message = PublicMessage{c, {}, {}};
    m.public_message->auth.signature = sign_with_label(gateway.private_key, "FramedContentTBS", [&] {
      Writer w;
      w.u16(kProtocolVersionMls10);
      w.u16(static_cast<std::uint16_t>(WireFormat::public_message));
      encode(w, c);
      return w.take();
    }());
    alice.receive_proposals(serialize(m));
    const CommitOutput out = alice.commit_pending_proposals();
    bob = std::make_unique<Group>(Group::join(*out.welcome, bob_kp));
  }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Fixture f;
  const std::uint64_t epoch = f.bob->epoch();
  try {
    f.bob->receive_proposals(BytesView(data, size));
    f.bob->revoke_proposals({});
  } catch (const Error&) {
  }
  try {
    f.bob->process_commit(BytesView(data, size));
  } catch (const Error&) {
    if (f.bob->epoch() != epoch) std::abort();  // a refused commit must not move the group
  }
  return 0;
}
