// The ratchet tree (RFC 9420 section 7): nodes, resolution, tree hash, parent hash and its
// validation, leaf signatures, Add/Remove edits, and TreeKEM update paths (create, merge, decrypt).
#pragma once

#include <map>

#include "voice/e2ee/messages.hpp"
#include "voice/e2ee/tree_math.hpp"

namespace platformpp::voice::e2ee {

using NodeIndex = tree_math::Node;

class RatchetTree {
 public:
  RatchetTree() = default;
  // From the ratchet_tree extension's node list (which drops trailing blanks); Error(Decode/Protocol)
  // when it is empty, ends in a blank, or has a leaf where a parent belongs (or the reverse).
  static RatchetTree from_nodes(const RatchetTreeNodes& nodes);
  // The node list for the ratchet_tree extension, trailing blank nodes dropped.
  RatchetTreeNodes to_nodes() const;

  std::uint32_t n_leaves() const { return n_leaves_; }
  std::uint32_t n_nodes() const { return static_cast<std::uint32_t>(nodes_.size()); }
  bool is_blank(NodeIndex x) const { return !nodes_.at(x).has_value(); }
  const LeafNode* leaf(std::uint32_t leaf_index) const;
  LeafNode* leaf(std::uint32_t leaf_index);
  const ParentNode* parent(NodeIndex x) const;
  ParentNode* parent(NodeIndex x);
  // The HPKE public key at a non-blank node.
  const Bytes& encryption_key(NodeIndex x) const;

  std::vector<NodeIndex> resolution(NodeIndex x) const;
  // The filtered direct path of a leaf, bottom-up, each with its copath child.
  struct PathStep {
    NodeIndex node;
    NodeIndex copath_child;
  };
  std::vector<PathStep> filtered_direct_path(std::uint32_t leaf_index) const;

  Bytes tree_hash() const;
  Bytes node_tree_hash(NodeIndex x) const;
  // Hash(ParentHashInput) of parent node p as seen from its child on the other side of `sibling`.
  // `cache` (from all_tree_hashes) spares recomputing subtrees that exclude nothing.
  Bytes parent_hash(NodeIndex p, NodeIndex sibling, const std::vector<Bytes>* cache = nullptr) const;
  // The tree hash of every node, in one bottom-up pass.
  std::vector<Bytes> all_tree_hashes() const;
  // RFC 9420 section 7.9.2: every non-blank parent node is parent-hash valid.
  bool parent_hashes_valid() const;
  // Checks each leaf's signature (LeafNodeTBS) and that no two leaves share an encryption or
  // signature key; Error(Protocol/Crypto) naming the leaf otherwise.
  void verify_leaves(BytesView group_id) const;

  // Adds a leaf at the leftmost blank leaf (growing the tree when full) and records it as unmerged
  // on its direct path; returns its leaf index.
  std::uint32_t add_leaf(const LeafNode& leaf);
  // Blanks a leaf and its direct path, then drops the right half while it is all blank.
  void remove_leaf(std::uint32_t leaf_index);
  void blank_direct_path(std::uint32_t leaf_index);

  // --- TreeKEM ---
  // Merges a committer's UpdatePath: new leaf, blank direct path, new keys on the filtered direct
  // path, parent hashes recomputed; Error(Protocol) when the path's length or the leaf's parent_hash
  // does not match.
  void merge_update_path(std::uint32_t sender, const UpdatePath& path);
  // Sets keys on the filtered direct path from `public_keys` (bottom-up) and recomputes the parent
  // hashes top-down; returns the parent_hash the leaf must carry.
  Bytes set_path_keys(std::uint32_t leaf_index, const std::vector<Bytes>& public_keys);

 private:
  // The tree hash of x with `excluded_leaves` treated as blank (and dropped from unmerged lists).
  Bytes hash_with_exclusions(NodeIndex x, const std::vector<std::uint32_t>& excluded_leaves,
                             const std::vector<Bytes>* cache) const;
  // hash_with_exclusions, or the cached hash when no excluded leaf lies under x.
  Bytes cached_hash(NodeIndex x, const std::vector<std::uint32_t>& excluded_leaves,
                    const std::vector<Bytes>* cache) const;
  bool has_parent_hash_link(NodeIndex p, NodeIndex child, const std::vector<Bytes>& hashes) const;
  void ensure_width(std::uint32_t n_leaves);

  std::uint32_t n_leaves_ = 0;
  std::vector<std::optional<TreeNode>> nodes_;
};

// A committer's fresh update path before encryption.
struct PathSecrets {
  std::vector<Bytes> secrets;        // per filtered direct path node, bottom-up
  std::vector<Bytes> private_keys;   // HPKE private key per node
  std::vector<Bytes> public_keys;
  Bytes commit_secret;
};
// path_secret[0] = first_secret, path_secret[n] = DeriveSecret(path_secret[n-1], "path"),
// node keys from DeriveSecret(path_secret, "node"), commit_secret = DeriveSecret(last, "path").
PathSecrets derive_path_secrets(BytesView first_secret, std::size_t length);

// Encrypts each path secret to the resolution of its copath child, skipping `excluded_leaves`
// (members added by the same commit). group_context is the provisional GroupContext.
std::vector<UpdatePathNode> encrypt_path_secrets(const RatchetTree& tree, std::uint32_t sender,
                                                 const PathSecrets& secrets, BytesView group_context,
                                                 const std::vector<std::uint32_t>& excluded_leaves);

// The receiver's side: finds the path node above `own_leaf`, decrypts its secret with a private key
// from `private_keys` (node index -> HPKE private key), derives the rest, checks the public keys, and
// returns the new private keys by node with the commit secret and the secret at the common ancestor.
struct DecryptedPath {
  std::map<NodeIndex, Bytes> private_keys;
  Bytes commit_secret;
  Bytes common_ancestor_secret;
};
DecryptedPath decrypt_path_secrets(const RatchetTree& tree, std::uint32_t sender, std::uint32_t own_leaf,
                                   const UpdatePath& path, const std::map<NodeIndex, Bytes>& private_keys,
                                   BytesView group_context, const std::vector<std::uint32_t>& excluded_leaves);

// Private keys for the nodes from the common ancestor of own_leaf and sender upward, from the path
// secret a Welcome delivers; Error(Protocol) when a derived key does not match the tree.
std::map<NodeIndex, Bytes> private_keys_from_path_secret(const RatchetTree& tree, std::uint32_t sender,
                                                         std::uint32_t own_leaf, BytesView path_secret);

}  // namespace platformpp::voice::e2ee
