// The TLS presentation language as MLS (RFC 9420 section 2.1.2) uses it: big-endian integers and
// variable-length vectors whose length is a QUIC-style varint (1, 2 or 4 bytes, minimal encoding).
// The Reader checks every read against the remaining bytes and throws Error(Decode) naming the field.
#pragma once

#include <optional>
#include <string>

#include "voice/e2ee/common.hpp"

namespace platformpp::voice::e2ee {

// Largest length a 4-byte MLS varint holds (2^30 - 1).
constexpr std::uint64_t kMaxVarint = (1u << 30) - 1;

class Writer {
 public:
  void u8(std::uint8_t v) { out_.push_back(v); }
  void u16(std::uint16_t v);
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void varint(std::uint64_t v);           // throws Error(Decode) above kMaxVarint
  void raw(BytesView b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void vec(BytesView b) { varint(b.size); raw(b); }  // opaque data<V>
  void optional_vec(const std::optional<Bytes>& b);  // optional<opaque<V>>: presence byte, then value

  // Opens a vector<V> whose length is only known after its elements are written; close with end_vec.
  std::size_t begin_vec() { return out_.size(); }
  void end_vec(std::size_t start);

  const Bytes& bytes() const { return out_; }
  Bytes take() { return std::move(out_); }

 private:
  Bytes out_;
};

class Reader {
 public:
  explicit Reader(BytesView in) : p_(in.data), end_(in.data + in.size) {}

  std::uint8_t u8(const char* field);
  std::uint16_t u16(const char* field);
  std::uint32_t u32(const char* field);
  std::uint64_t u64(const char* field);
  std::uint64_t varint(const char* field);   // rejects the 8-byte form and non-minimal encodings
  BytesView raw(std::size_t n, const char* field);
  Bytes vec(const char* field);              // opaque data<V>
  BytesView vec_view(const char* field);     // the same, without copying
  bool presence(const char* field);          // optional<T>'s leading byte: 0 or 1, else Decode
  Reader sub_vec(const char* field);         // a reader over the body of a vector<V>

  std::size_t remaining() const { return static_cast<std::size_t>(end_ - p_); }
  bool empty() const { return p_ == end_; }
  const std::uint8_t* position() const { return p_; }
  // Throws Error(Decode) when bytes are left over after the named structure.
  void expect_end(const char* what) const;

 private:
  const std::uint8_t* need(std::size_t n, const char* field);
  const std::uint8_t* p_;
  const std::uint8_t* end_;
};

// Throws Error(Decode) with "<field>: <rule>".
[[noreturn]] void decode_error(const char* field, const std::string& rule);

}  // namespace platformpp::voice::e2ee
