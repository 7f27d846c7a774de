// Any bytes as a Welcome for a fixed key package: the whole join path (decode, HPKE, GroupInfo, tree)
// must refuse with Error, never crash.
#include "voice/e2ee/group.hpp"

using namespace platformpp::voice::e2ee;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const KeyPackageBundle self = create_key_package(42, generate_signature_key_pair());
  try {
    (void)decode_all(BytesView(data, size), decode_welcome, "welcome");
  } catch (const Error&) {
  }
  try {
    Group g = Group::join(BytesView(data, size), self);
    (void)g.epoch();
  } catch (const Error&) {
  }
  return 0;
}
