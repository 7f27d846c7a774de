// Any bytes as a KeyPackage (the body DAVE's opcode 26 carries inside an MLSMessage): decode, re-encode,
// and compute its reference; a decoded package must round-trip exactly.
#include <cstdlib>

#include "voice/e2ee/group.hpp"

using namespace platformpp::voice::e2ee;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const KeyPackage kp = decode_all(BytesView(data, size), decode_key_package, "key_package");
    if (serialize(kp) != Bytes(data, data + size)) std::abort();
    (void)key_package_ref(kp);
    (void)user_id_of(kp.leaf_node.credential);
  } catch (const Error&) {
  }
  return 0;
}
