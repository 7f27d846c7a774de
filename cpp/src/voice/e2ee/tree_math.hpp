// Array-based tree arithmetic of RFC 9420 section 4.1 and appendix C. MLS trees are complete: the
// number of leaves is a power of two, leaf i is node 2i, and a node's level is its count of trailing 1s.
#pragma once

#include <cstdint>
#include <optional>

namespace platformpp::voice::e2ee::tree_math {

using Node = std::uint32_t;

inline std::uint32_t level(Node x) {
  std::uint32_t k = 0;
  while ((x >> k) & 1u) ++k;
  return k;
}
inline std::uint32_t node_width(std::uint32_t n_leaves) { return n_leaves == 0 ? 0 : 2 * (n_leaves - 1) + 1; }
inline Node leaf_to_node(std::uint32_t leaf) { return 2 * leaf; }
inline std::uint32_t node_to_leaf(Node x) { return x / 2; }
inline bool is_leaf(Node x) { return (x & 1u) == 0; }

inline Node root(std::uint32_t n_leaves) {
  const std::uint32_t w = node_width(n_leaves);
  std::uint32_t k = 0;
  while ((1u << (k + 1)) <= w) ++k;  // k = floor(log2(w))
  return (1u << k) - 1;
}
// Children of an intermediate node (level > 0).
inline Node left(Node x) { return x ^ (1u << (level(x) - 1)); }
inline Node right(Node x) { return x ^ (3u << (level(x) - 1)); }

// The parent of a non-root node in a complete tree.
inline Node parent(Node x) {
  const std::uint32_t k = level(x);
  const std::uint32_t b = (x >> (k + 1)) & 1u;
  return (x | (1u << k)) ^ (b << (k + 1));
}
inline Node sibling(Node x) {
  const Node p = parent(x);
  return x < p ? right(p) : left(p);
}

// True when x is `ancestor` or lies in its subtree.
inline bool in_subtree(Node ancestor, Node x) {
  const std::uint32_t span = (1u << level(ancestor)) - 1;
  return x + span >= ancestor && x <= ancestor + span;
}

}  // namespace platformpp::voice::e2ee::tree_math
