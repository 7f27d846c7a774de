// libFuzzer target: the DAVE binary voice gateway opcodes (server frames 25, 27, 29, 30 and client
// frames 26, 28). Anything decoded re-encodes to the same bytes; anything else is Error, never a crash.
#include <cstdint>
#include <cstdlib>

#include "voice/e2ee/dave_opcodes.hpp"

using namespace platformpp::voice::e2ee;
using namespace platformpp::voice::e2ee::dave;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const BytesView frame(data, size);
  try {
    const ServerMessage m = decode_server_message(frame);
    const Bytes again = encode_server_message(m);
    if (again != frame.to_bytes()) std::abort();
  } catch (const Error&) {
  }
  try {
    const ClientMessage c = decode_client_message(frame);
    if (c.payload.data != data + 1 || c.payload.size + 1 != size) std::abort();
  } catch (const Error&) {
  }
  return 0;
}
