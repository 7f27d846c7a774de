// Any bytes as a GroupInfo: decode, then build and check its ratchet tree extension the way a joiner
// does (tree hash, parent hashes, leaf signatures).
#include <cstdlib>

#include "voice/e2ee/tree.hpp"

using namespace platformpp::voice::e2ee;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const GroupInfo gi = decode_all(BytesView(data, size), decode_group_info, "group_info");
    if (serialize(gi) != Bytes(data, data + size)) std::abort();
    for (const auto& e : gi.extensions) {
      if (e.type != static_cast<std::uint16_t>(ExtensionType::ratchet_tree)) continue;
      const RatchetTree t = RatchetTree::from_nodes(decode_all(e.data, decode_ratchet_tree, "ratchet_tree"));
      (void)t.tree_hash();
      (void)t.parent_hashes_valid();
      t.verify_leaves(gi.group_context.group_id);
    }
  } catch (const Error&) {
  }
  return 0;
}
