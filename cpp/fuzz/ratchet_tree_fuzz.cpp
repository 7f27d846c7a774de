// Any bytes as a ratchet_tree extension: decode, build the tree, hash it, resolve every node, check
// parent hashes and walk each leaf's filtered direct path.
#include "voice/e2ee/tree.hpp"

using namespace platformpp::voice::e2ee;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const RatchetTree t = RatchetTree::from_nodes(decode_all(BytesView(data, size), decode_ratchet_tree, "tree"));
    (void)t.tree_hash();
    (void)t.parent_hashes_valid();
    for (NodeIndex x = 0; x < t.n_nodes(); ++x) (void)t.resolution(x);
    for (std::uint32_t l = 0; l < t.n_leaves(); ++l) {
      if (t.leaf(l)) (void)t.filtered_direct_path(l);
    }
  } catch (const Error&) {
  }
  return 0;
}
