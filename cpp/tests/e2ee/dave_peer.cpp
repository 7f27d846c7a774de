// dave_peer: our DAVE implementation behind a JSON-lines protocol on stdin/stdout, so Python tests
// can put it in one call with another implementation (tests/e2ee/test_dave_interop.py).
//
// Each request is one line {"cmd": ..., ...}; each answer is one line {"ok": true, ...} or
// {"ok": false, "error": "..."}. Bytes travel as lowercase hex. Two roles:
//   gateway_*  the voice gateway's external sender: its package (25) and signed Add/Remove proposals
//   frame_*    a bare frame encryptor/decryptor over a given base secret (benchmarks)
#include <boost/json/src.hpp>

#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "voice/e2ee/crypto.hpp"
#include "voice/e2ee/dave_frame.hpp"
#include "voice/e2ee/dave_opcodes.hpp"
#include "voice/e2ee/framing.hpp"
#include "voice/e2ee/messages.hpp"

namespace json = boost::json;
using namespace platformpp::voice::e2ee;
using namespace platformpp::voice::e2ee::dave;

namespace {

std::string to_hex(BytesView b) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  s.reserve(b.size * 2);
  for (std::uint8_t c : b) {
    s.push_back(digits[c >> 4]);
    s.push_back(digits[c & 15]);
  }
  return s;
}

Bytes from_hex(json::string_view s) {
  if (s.size() % 2) throw std::invalid_argument("hex string of odd length");
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument("not a hex digit");
  };
  Bytes out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::uint8_t>(nibble(s[2 * i]) << 4 | nibble(s[2 * i + 1]));
  return out;
}

Bytes hex_field(const json::object& o, const char* key) { return from_hex(o.at(key).as_string()); }

std::uint64_t u64_field(const json::object& o, const char* key) {
  const auto& v = o.at(key);
  if (v.is_uint64()) return v.as_uint64();
  if (v.is_int64() && v.as_int64() >= 0) return static_cast<std::uint64_t>(v.as_int64());
  if (v.is_string()) return std::stoull(std::string(v.as_string()));
  throw std::invalid_argument(std::string(key) + " must be an unsigned integer");
}

Bytes big_endian_u64(std::uint64_t v) {
  Bytes out(8);
  for (int i = 0; i < 8; ++i) out[i] = static_cast<std::uint8_t>(v >> (56 - 8 * i));
  return out;
}

// --- The voice gateway's external sender ------------------------------------------------------------

struct Gateway {
  SignatureKeyPair keys = generate_signature_key_pair();
  Bytes group_id;
  std::uint16_t sequence = 0;
};

std::unique_ptr<Gateway> g_gateway;

Gateway& gateway() {
  if (!g_gateway) throw std::logic_error("gateway_init first");
  return *g_gateway;
}

json::object gateway_init(const json::object& req) {
  g_gateway = std::make_unique<Gateway>();
  g_gateway->group_id = big_endian_u64(u64_field(req, "channel_id"));
  ExternalSender sender;
  sender.signature_key = g_gateway->keys.public_key;
  sender.credential.type = CredentialType::basic;
  sender.credential.identity = big_endian_u64(req.contains("identity") ? u64_field(req, "identity") : 0);
  ServerMessage m;
  m.sequence = g_gateway->sequence++;
  m.opcode = Opcode::ExternalSenderPackage;
  m.body = ExternalSenderPackage{serialize(sender), sender.signature_key, sender.credential.identity};
  return {{"external_sender", to_hex(serialize(sender))}, {"opcode25", to_hex(encode_server_message(m))}};
}

// A proposal from the external sender (sender index 0) as an MLSMessage(PublicMessage).
Bytes external_proposal(Gateway& gw, std::uint64_t epoch, Proposal proposal) {
  PublicMessage pm;
  pm.content.group_id = gw.group_id;
  pm.content.epoch = epoch;
  pm.content.sender = Sender{SenderType::external, 0};
  pm.content.content_type = ContentType::proposal;
  pm.content.proposal = std::move(proposal);
  pm.auth.signature = sign_framed_content(gw.keys.private_key, WireFormat::public_message, pm.content, nullptr);
  MlsMessage msg;
  msg.wire_format = WireFormat::public_message;
  msg.public_message = std::move(pm);
  return serialize(msg);
}

json::object proposals_answer(Gateway& gw, const Bytes& message) {
  ServerMessage m;
  m.sequence = gw.sequence++;
  m.opcode = Opcode::Proposals;
  m.body = ProposalsMessage{ProposalsOperation::Append, message, {}};
  Writer vec;
  vec.vec(message);
  return {{"proposal", to_hex(message)}, {"proposals_vector", to_hex(vec.bytes())},
          {"opcode27", to_hex(encode_server_message(m))}};
}

json::object gateway_add(const json::object& req) {
  Gateway& gw = gateway();
  // Clients send the KeyPackage itself; an MLSMessage(KeyPackage) is accepted too.
  const Bytes kp_bytes = hex_field(req, "key_package");
  Proposal p;
  p.type = ProposalType::add;
  if (kp_bytes.size() >= 4 && kp_bytes[0] == 0 && kp_bytes[1] == 1 && kp_bytes[2] == 0 && kp_bytes[3] == 5) {
    p.add = decode_mls_message(kp_bytes).key_package;
  } else {
    p.add = decode_all<KeyPackage>(kp_bytes, decode_key_package, "key_package");
  }
  return proposals_answer(gw, external_proposal(gw, u64_field(req, "epoch"), std::move(p)));
}

json::object gateway_remove(const json::object& req) {
  Gateway& gw = gateway();
  Proposal p;
  p.type = ProposalType::remove;
  p.removed = static_cast<std::uint32_t>(u64_field(req, "leaf"));
  return proposals_answer(gw, external_proposal(gw, u64_field(req, "epoch"), std::move(p)));
}

// Server frames around MLS bytes the test relays (29, 30), with the gateway's sequence numbers.
json::object gateway_frame(const json::object& req) {
  Gateway& gw = gateway();
  ServerMessage m;
  m.sequence = gw.sequence++;
  const auto op = u64_field(req, "opcode");
  const auto transition_id = static_cast<std::uint16_t>(u64_field(req, "transition_id"));
  if (op == 29) {
    m.opcode = Opcode::AnnounceCommitTransition;
    m.body = AnnounceCommitTransition{transition_id, hex_field(req, "payload")};
  } else if (op == 30) {
    m.opcode = Opcode::Welcome;
    m.body = WelcomeMessage{transition_id, hex_field(req, "payload")};
  } else {
    throw std::invalid_argument("opcode must be 29 or 30");
  }
  return {{"frame", to_hex(encode_server_message(m))}};
}

// --- Bare frame layer (benchmarks) -------------------------------------------------------------------

json::object frame_bench(const json::object& req) {
  const Bytes secret = hex_field(req, "base_secret");
  const auto iterations = u64_field(req, "iterations");
  const Bytes frame = hex_field(req, "frame");
  FrameEncryptor enc;
  FrameDecryptor dec;
  enc.set_key_ratchet(std::make_unique<KeyRatchet>(secret));
  dec.transition_to(std::make_unique<KeyRatchet>(secret), Clock::now());
  Bytes wire(max_encrypted_size(frame.size())), plain(wire.size());
  std::uint64_t failures = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t i = 0; i < iterations; ++i) {
    const auto e = enc.encrypt(Codec::Opus, frame, wire.data(), wire.size());
    const auto d = dec.decrypt(MediaType::Audio, BytesView(wire.data(), e.size), plain.data(), plain.size(),
                               Clock::now());
    failures += (e.status != FrameStatus::Ok || d.status != FrameStatus::Ok);
  }
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start);
  return {{"nanoseconds", ns.count()}, {"failures", failures}};
}

using Handler = json::object (*)(const json::object&);

const std::map<std::string, Handler>& handlers() {
  static const std::map<std::string, Handler> h = {
      {"gateway_init", gateway_init}, {"gateway_add", gateway_add}, {"gateway_remove", gateway_remove},
      {"gateway_frame", gateway_frame}, {"frame_bench", frame_bench},
  };
  return h;
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    json::object answer;
    try {
      const json::object req = json::parse(line).as_object();
      const std::string cmd(req.at("cmd").as_string());
      const auto it = handlers().find(cmd);
      if (it == handlers().end()) throw std::invalid_argument("unknown cmd " + cmd);
      answer = it->second(req);
      answer["ok"] = true;
    } catch (const std::exception& e) {
      answer = {{"ok", false}, {"error", e.what()}};
    }
    std::cout << json::serialize(answer) << '\n' << std::flush;
  }
  return 0;
}
