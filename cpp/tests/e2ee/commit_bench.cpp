// Measures MLS commit handling for DAVE-sized groups: the time a member takes to process another
// member's commit (one external Add, or one external Remove) and to create one, for 2, 8 and 25
// members. Prints one line per group size; not a test (nothing is asserted).
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "voice/e2ee/framing.hpp"
#include "voice/e2ee/group.hpp"

using namespace platformpp::voice::e2ee;
using Clock = std::chrono::steady_clock;

namespace {

struct Gateway {
  SignatureKeyPair key = generate_signature_key_pair();
  ExternalSender sender() const {
    ExternalSender s;
    s.signature_key = key.public_key;
    s.credential.identity = {'g'};
    return s;
  }
  Bytes propose(const Group& g, const Proposal& p) const {
    FramedContent c;
    c.group_id = g.group_id();
    c.epoch = g.epoch();
    c.sender = Sender{SenderType::external, 0};
    c.content_type = ContentType::proposal;
    c.proposal = p;
    MlsMessage m;
    m.wire_format = WireFormat::public_message;
    m.public_message = PublicMessage{c, {}, {}};
    m.public_message->auth.signature = sign_framed_content(key.private_key, WireFormat::public_message, c, nullptr);
    return serialize(m);
  }
};

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void run(std::size_t members, int rounds) {
  const Gateway gw;
  const KeyPackageBundle first = create_key_package(1, generate_signature_key_pair());
  const KeyPackageBundle second = create_key_package(2, generate_signature_key_pair());
  Group committer = Group::create(user_id_identity(99), first, gw.sender());
  Bytes batch;
  for (std::uint64_t u = 2; u <= members; ++u) {
    Proposal p;
    p.type = ProposalType::add;
    p.add = (u == 2 ? second : create_key_package(u, generate_signature_key_pair())).key_package;
    const Bytes m = gw.propose(committer, p);
    batch.insert(batch.end(), m.begin(), m.end());
  }
  committer.receive_proposals(batch);
  const CommitOutput setup = committer.commit_pending_proposals();
  committer.process_commit(setup.commit_message);
  Group observer = Group::join(*setup.welcome, second);

  std::vector<double> create_ms, process_add_ms, process_remove_ms;
  for (int r = 0; r < rounds; ++r) {
    const std::uint64_t extra_user = 1000 + static_cast<std::uint64_t>(r);
    Proposal add;
    add.type = ProposalType::add;
    add.add = create_key_package(extra_user, generate_signature_key_pair()).key_package;
    const Bytes add_message = gw.propose(committer, add);
    committer.receive_proposals(add_message);
    observer.receive_proposals(add_message);
    auto t = Clock::now();
    const CommitOutput c = committer.commit_pending_proposals();
    create_ms.push_back(ms_since(t));
    committer.process_commit(c.commit_message);
    t = Clock::now();
    observer.process_commit(c.commit_message);
    process_add_ms.push_back(ms_since(t));

    Proposal remove;
    remove.type = ProposalType::remove;
    remove.removed = *committer.leaf_of_user(extra_user);
    const Bytes remove_message = gw.propose(committer, remove);
    committer.receive_proposals(remove_message);
    observer.receive_proposals(remove_message);
    const CommitOutput c2 = committer.commit_pending_proposals();
    committer.process_commit(c2.commit_message);
    t = Clock::now();
    observer.process_commit(c2.commit_message);
    process_remove_ms.push_back(ms_since(t));
  }
  std::printf("members=%zu rounds=%d  create_commit(add) median %.2f ms  process_commit(add) median %.2f ms  "
              "process_commit(remove) median %.2f ms\n",
              members, rounds, median(create_ms), median(process_add_ms), median(process_remove_ms));
}

}  // namespace

int main() {
  for (std::size_t n : {2u, 8u, 25u}) run(n, 9);
  return 0;
}
