#include "voice/e2ee/tls_codec.hpp"

#include <openssl/crypto.h>

namespace platformpp::voice::e2ee {

bool constant_time_equal(BytesView a, BytesView b) {
  if (a.size != b.size) return false;
  if (a.size == 0) return true;
  return CRYPTO_memcmp(a.data, b.data, a.size) == 0;
}

void wipe(Bytes& secret) {
  if (!secret.empty()) OPENSSL_cleanse(secret.data(), secret.size());
}

void decode_error(const char* field, const std::string& rule) {
  throw Error(ErrorKind::Decode, std::string(field) + ": " + rule);
}

void Writer::u16(std::uint16_t v) {
  u8(static_cast<std::uint8_t>(v >> 8));
  u8(static_cast<std::uint8_t>(v));
}

void Writer::u32(std::uint32_t v) {
  u16(static_cast<std::uint16_t>(v >> 16));
  u16(static_cast<std::uint16_t>(v));
}

void Writer::u64(std::uint64_t v) {
  u32(static_cast<std::uint32_t>(v >> 32));
  u32(static_cast<std::uint32_t>(v));
}

void Writer::varint(std::uint64_t v) {
  if (v < (1u << 6)) {
    u8(static_cast<std::uint8_t>(v));
  } else if (v < (1u << 14)) {
    u16(static_cast<std::uint16_t>(0x4000 | v));
  } else if (v <= kMaxVarint) {
    u32(static_cast<std::uint32_t>(0x80000000u | v));
  } else {
    decode_error("vector length", "exceeds 2^30-1, the largest MLS varint");
  }
}

void Writer::optional_vec(const std::optional<Bytes>& b) {
  u8(b ? 1 : 0);
  if (b) vec(*b);
}

void Writer::end_vec(std::size_t start) {
  // The body was written after `start`; move it right to make room for its length prefix.
  const std::size_t body = out_.size() - start;
  Writer prefix;
  prefix.varint(body);
  out_.insert(out_.begin() + static_cast<std::ptrdiff_t>(start), prefix.out_.begin(), prefix.out_.end());
}

const std::uint8_t* Reader::need(std::size_t n, const char* field) {
  if (remaining() < n) {
    decode_error(field, "truncated: needs " + std::to_string(n) + " bytes, " + std::to_string(remaining()) + " left");
  }
  const std::uint8_t* at = p_;
  p_ += n;
  return at;
}

std::uint8_t Reader::u8(const char* field) { return *need(1, field); }

std::uint16_t Reader::u16(const char* field) {
  const std::uint8_t* b = need(2, field);
  return static_cast<std::uint16_t>((b[0] << 8) | b[1]);
}

std::uint32_t Reader::u32(const char* field) {
  const std::uint8_t* b = need(4, field);
  return (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3];
}

std::uint64_t Reader::u64(const char* field) {
  const std::uint64_t hi = u32(field);
  return (hi << 32) | u32(field);
}

std::uint64_t Reader::varint(const char* field) {
  const std::uint8_t first = u8(field);
  const int prefix = first >> 6;
  std::uint64_t v = first & 0x3f;
  if (prefix == 3) decode_error(field, "8-byte varint length is not allowed in MLS");
  const std::size_t extra = prefix == 0 ? 0 : (prefix == 1 ? 1 : 3);
  const std::uint8_t* b = need(extra, field);
  for (std::size_t i = 0; i < extra; ++i) v = (v << 8) | b[i];
  if ((prefix == 1 && v < (1u << 6)) || (prefix == 2 && v < (1u << 14))) {
    decode_error(field, "varint length is not minimally encoded");
  }
  return v;
}

BytesView Reader::raw(std::size_t n, const char* field) { return BytesView(need(n, field), n); }

BytesView Reader::vec_view(const char* field) {
  const std::uint64_t n = varint(field);
  if (n > remaining()) {
    decode_error(field, "vector length " + std::to_string(n) + " exceeds the " + std::to_string(remaining()) +
                            " bytes left");
  }
  return raw(static_cast<std::size_t>(n), field);
}

Bytes Reader::vec(const char* field) { return vec_view(field).to_bytes(); }

bool Reader::presence(const char* field) {
  const std::uint8_t b = u8(field);
  if (b > 1) decode_error(field, "optional presence byte must be 0 or 1");
  return b == 1;
}

Reader Reader::sub_vec(const char* field) { return Reader(vec_view(field)); }

void Reader::expect_end(const char* what) const {
  if (!empty()) decode_error(what, std::to_string(remaining()) + " unexpected trailing bytes");
}

}  // namespace platformpp::voice::e2ee
