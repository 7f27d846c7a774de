// Any bytes as an MLSMessage: decoding either throws Error or yields a message that re-encodes to
// exactly the input (the codec accepts only canonical encodings).
#include <cstdlib>

#include "voice/e2ee/messages.hpp"

using namespace platformpp::voice::e2ee;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const MlsMessage m = decode_mls_message(BytesView(data, size));
    if (serialize(m) != Bytes(data, data + size)) std::abort();
  } catch (const Error&) {
  }
  return 0;
}
