// Byte containers and the one error type of the E2EE layer (MLS subset, HPKE, DAVE).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace platformpp::voice::e2ee {

using Bytes = std::vector<std::uint8_t>;

// A non-owning view of bytes (C++17 has no std::span). Valid while the viewed storage lives.
struct BytesView {
  const std::uint8_t* data = nullptr;
  std::size_t size = 0;

  BytesView() = default;
  BytesView(const std::uint8_t* d, std::size_t n) : data(d), size(n) {}
  BytesView(const Bytes& b) : data(b.data()), size(b.size()) {}  // NOLINT: implicit on purpose
  BytesView(const std::string& s)                                 // NOLINT: labels are ASCII strings
      : data(reinterpret_cast<const std::uint8_t*>(s.data())), size(s.size()) {}

  const std::uint8_t* begin() const { return data; }
  const std::uint8_t* end() const { return data + size; }
  bool empty() const { return size == 0; }
  Bytes to_bytes() const { return Bytes(begin(), end()); }
};

// Why an E2EE operation failed. Messages name the field and the rule; they never hold secrets.
enum class ErrorKind {
  Decode,       // malformed bytes: truncated, over-long, non-minimal varint, trailing data, bad enum
  Unsupported,  // valid MLS outside our subset (another cipher suite, proposal type, credential type...)
  Crypto,       // a signature, MAC, AEAD tag or key failed to verify or could not be used
  Protocol,     // well-formed but breaks an MLS rule (wrong epoch, bad parent hash, unknown sender...)
  State,        // the call does not fit the object's state (no pending commit, not a member...)
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

// Returns true when the two views hold the same bytes, in time independent of where they differ.
bool constant_time_equal(BytesView a, BytesView b);
// Overwrites secret bytes before their storage is released (OpenSSL's cleanse cannot be optimised away).
void wipe(Bytes& secret);

}  // namespace platformpp::voice::e2ee
