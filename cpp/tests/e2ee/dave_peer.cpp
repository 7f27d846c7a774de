// dave_peer: our DAVE implementation behind a JSON-lines protocol on stdin/stdout, so Python tests
// can put it in one call with another implementation (tests/e2ee/test_dave_interop.py).
//
// Each request is one line {"cmd": ..., ...}; each answer is one line {"ok": true, ...} or
// {"ok": false, "error": "..."}. Bytes travel as lowercase hex. Two roles:
//   gateway_*  the voice gateway's external sender: its package (25) and signed Add/Remove proposals
//   member_*   dave::Session objects by name, fed the gateway's opcodes; answers carry what they send
//   frame_*    a bare frame encryptor/decryptor over a given base secret (benchmarks)
#include <boost/json/src.hpp>

#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "voice/e2ee/crypto.hpp"
#include "voice/e2ee/dave_frame.hpp"
#include "voice/e2ee/dave_codes.hpp"
#include "voice/e2ee/dave_opcodes.hpp"
#include "voice/e2ee/dave_session.hpp"
#include "dave_gateway.hpp"

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
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>(nibble(s[2 * i]) << 4 | nibble(s[2 * i + 1]));
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

// --- The voice gateway's external sender ------------------------------------------------------------

std::unique_ptr<e2ee_test::DaveGateway> g_gateway;

e2ee_test::DaveGateway& gateway() {
  if (!g_gateway) throw std::logic_error("gateway_init first");
  return *g_gateway;
}

json::object gateway_init(const json::object& req) {
  g_gateway = std::make_unique<e2ee_test::DaveGateway>(u64_field(req, "channel_id"),
                                                       req.contains("identity") ? u64_field(req, "identity") : 0);
  return {{"external_sender", to_hex(g_gateway->external_sender())},
          {"opcode25", to_hex(g_gateway->external_sender_frame())}};
}

json::object proposals_answer(const Bytes& message) {
  Writer vec;
  vec.vec(message);
  return {{"proposal", to_hex(message)}, {"proposals_vector", to_hex(vec.bytes())},
          {"opcode27", to_hex(gateway().proposals_frame({message}))}};
}

// Clients send the KeyPackage itself; an MLSMessage(KeyPackage) is accepted too.
json::object gateway_add(const json::object& req) {
  return proposals_answer(gateway().add_proposal(hex_field(req, "key_package"), u64_field(req, "epoch")));
}

json::object gateway_remove(const json::object& req) {
  return proposals_answer(
      gateway().remove_proposal(static_cast<std::uint32_t>(u64_field(req, "leaf")), u64_field(req, "epoch")));
}

// Server frames around MLS bytes the test relays (29, 30), with the gateway's sequence numbers.
json::object gateway_frame(const json::object& req) {
  const auto op = u64_field(req, "opcode");
  const auto transition_id = static_cast<std::uint16_t>(u64_field(req, "transition_id"));
  const Bytes payload = hex_field(req, "payload");
  if (op == 29) return {{"frame", to_hex(gateway().announce_commit_frame(transition_id, payload))}};
  if (op == 30) return {{"frame", to_hex(gateway().welcome_frame(transition_id, payload))}};
  throw std::invalid_argument("opcode must be 29 or 30");
}

// --- Members: our sessions -----------------------------------------------------------------------------

struct PeerMember {
  std::unique_ptr<Session> session;
  std::chrono::seconds advanced{0};  // added to the steady clock: tests move time past retention
  Clock::time_point now() const { return Clock::now() + advanced; }
};

std::map<std::string, PeerMember> g_members;

PeerMember& member(const json::object& req) {
  const auto it = g_members.find(std::string(req.at("name").as_string()));
  if (it == g_members.end()) throw std::invalid_argument("no member of that name");
  return it->second;
}

std::chrono::system_clock::time_point wall(const json::object& req) {
  if (!req.contains("wall")) return std::chrono::system_clock::now();
  return std::chrono::system_clock::time_point(std::chrono::seconds(u64_field(req, "wall")));
}

std::uint16_t u16_field(const json::object& o, const char* key) {
  const auto v = u64_field(o, key);
  if (v > 0xFFFF) throw std::invalid_argument(std::string(key) + " must fit 16 bits");
  return static_cast<std::uint16_t>(v);
}

json::object outgoing(const std::vector<Outgoing>& out) {
  json::array items;
  for (const auto& o : out) {
    switch (o.kind) {
      case Outgoing::Kind::Binary: {
        json::object item{{"kind", "binary"}, {"frame", to_hex(o.binary)}};
        const ClientMessage c = decode_client_message(o.binary);
        if (c.opcode == Opcode::KeyPackage) {
          item["key_package"] = to_hex(c.payload);
        } else {
          auto [commit, welcome] = e2ee_test::DaveGateway::split_commit_welcome(c.payload);
          item["commit"] = to_hex(commit);
          item["welcome"] = welcome ? json::value(to_hex(*welcome)) : json::value(nullptr);
        }
        items.push_back(std::move(item));
        break;
      }
      case Outgoing::Kind::ReadyForTransition:
        items.push_back(json::object{{"kind", "ready"}, {"transition_id", o.transition_id}});
        break;
      case Outgoing::Kind::InvalidCommitWelcome:
        items.push_back(json::object{{"kind", "invalid"}, {"transition_id", o.transition_id}});
        break;
    }
  }
  return {{"out", std::move(items)}};
}

json::object member_new(const json::object& req) {
  PeerMember m;
  m.session = std::make_unique<Session>(u64_field(req, "user_id"), u64_field(req, "channel_id"));
  const std::string key = to_hex(m.session->signature_public_key());
  g_members[std::string(req.at("name").as_string())] = std::move(m);
  return {{"signature_key", key}};
}

json::object member_select_protocol(const json::object& req) {
  return outgoing(member(req).session->on_select_protocol_ack(u16_field(req, "protocol_version"), wall(req)));
}

json::object member_clients_connect(const json::object& req) {
  std::vector<std::uint64_t> ids;
  for (const auto& v : req.at("user_ids").as_array()) ids.push_back(v.to_number<std::uint64_t>());
  member(req).session->on_clients_connect(ids);
  return {};
}

json::object member_prepare_transition(const json::object& req) {
  PeerMember& m = member(req);
  return outgoing(m.session->on_prepare_transition(u16_field(req, "transition_id"), u16_field(req, "protocol_version"),
                                                   m.now(), wall(req)));
}

json::object member_execute_transition(const json::object& req) {
  PeerMember& m = member(req);
  return outgoing(m.session->on_execute_transition(u16_field(req, "transition_id"), m.now()));
}

json::object member_prepare_epoch(const json::object& req) {
  return outgoing(
      member(req).session->on_prepare_epoch(u64_field(req, "epoch"), u16_field(req, "protocol_version"), wall(req)));
}

json::object member_binary(const json::object& req) {
  PeerMember& m = member(req);
  const Bytes frame = hex_field(req, "frame");
  const auto start = std::chrono::steady_clock::now();
  const auto out = m.session->on_binary(frame, m.now());
  const auto elapsed = std::chrono::steady_clock::now() - start;
  json::object answer = outgoing(out);
  answer["elapsed_ns"] = std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count();
  return answer;
}

Codec codec_field(const json::object& req) {
  const std::string codec = req.contains("codec") ? std::string(req.at("codec").as_string()) : "opus";
  if (codec == "opus") return Codec::Opus;
  if (codec == "vp8") return Codec::VP8;
  if (codec == "vp9") return Codec::VP9;
  throw std::invalid_argument("codec must be opus, vp8 or vp9");
}

MediaType media_field(const json::object& req) {
  return req.contains("codec") && req.at("codec").as_string() != "opus" ? MediaType::Video : MediaType::Audio;
}

json::object member_encrypt(const json::object& req) {
  const Bytes frame = hex_field(req, "frame");
  Bytes out(max_encrypted_size(frame.size()));
  const FrameResult r = member(req).session->encrypt(codec_field(req), frame, out.data(), out.size());
  out.resize(r.size);
  return {{"status", to_string(r.status)}, {"frame", to_hex(out)}};
}

json::object member_decrypt(const json::object& req) {
  PeerMember& m = member(req);
  const Bytes frame = hex_field(req, "frame");
  Bytes out(frame.size());
  const FrameResult r =
      m.session->decrypt(u64_field(req, "user_id"), media_field(req), frame, out.data(), out.size(), m.now());
  out.resize(r.size);
  return {{"status", to_string(r.status)}, {"frame", to_hex(out)}};
}

json::object member_advance(const json::object& req) {
  member(req).advanced += std::chrono::seconds(u64_field(req, "seconds"));
  return {};
}

const char* status_name(SessionStatus s) {
  switch (s) {
    case SessionStatus::Inactive: return "inactive";
    case SessionStatus::Pending: return "pending";
    case SessionStatus::AwaitingResponse: return "awaiting_response";
    case SessionStatus::Active: return "active";
  }
  return "unknown";
}

json::object member_state(const json::object& req) {
  const Session& s = *member(req).session;
  json::object o{{"status", status_name(s.status())}, {"protocol_version", s.protocol_version()}};
  o["epoch"] = s.epoch() ? json::value(*s.epoch()) : json::value(nullptr);
  o["code"] = s.epoch_authenticator_code() ? json::value(*s.epoch_authenticator_code()) : json::value(nullptr);
  o["last_sequence"] = s.last_sequence() ? json::value(*s.last_sequence()) : json::value(nullptr);
  json::array ids;
  for (auto id : s.member_user_ids()) ids.push_back(id);
  o["members"] = std::move(ids);
  return o;
}

json::object member_fingerprint(const json::object& req) {
  const Session& s = *member(req).session;
  const auto user = u64_field(req, "user_id");
  return {{"fingerprint", to_hex(s.pairwise_fingerprint(user))}, {"code", s.verification_code(user)}};
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
      {"member_new", member_new}, {"member_select_protocol", member_select_protocol},
      {"member_clients_connect", member_clients_connect}, {"member_prepare_transition", member_prepare_transition},
      {"member_execute_transition", member_execute_transition}, {"member_prepare_epoch", member_prepare_epoch},
      {"member_binary", member_binary}, {"member_encrypt", member_encrypt}, {"member_decrypt", member_decrypt},
      {"member_advance", member_advance}, {"member_state", member_state},
      {"member_fingerprint", member_fingerprint},
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
