#include "voice/e2ee/tree.hpp"

#include <algorithm>
#include <set>

#include "voice/e2ee/crypto.hpp"

namespace platformpp::voice::e2ee {

namespace tm = tree_math;

namespace {

[[noreturn]] void protocol_error(const std::string& what) { throw Error(ErrorKind::Protocol, what); }

using tm::in_subtree;

const std::string kUpdatePathLabel = "UpdatePathNode";

}  // namespace

// --- construction ----------------------------------------------------------------------------------------

RatchetTree RatchetTree::from_nodes(const RatchetTreeNodes& nodes) {
  if (nodes.empty()) decode_error("ratchet_tree", "has no nodes");
  if (nodes.size() % 2 == 0) decode_error("ratchet_tree", "must end with a leaf (odd node count)");
  if (!nodes.back()) decode_error("ratchet_tree", "the last node must not be blank");
  if (nodes.size() > (1u << 31)) decode_error("ratchet_tree", "too many nodes");
  RatchetTree t;
  std::uint32_t n = 1;
  while (tm::node_width(n) < nodes.size()) n *= 2;
  t.ensure_width(n);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!nodes[i]) continue;
    const bool leaf_position = tm::is_leaf(static_cast<NodeIndex>(i));
    if (leaf_position != nodes[i]->leaf.has_value()) {
      protocol_error("ratchet_tree: node " + std::to_string(i) + " has the wrong node type for its position");
    }
    t.nodes_[i] = nodes[i];
  }
  // Unmerged leaves must name non-blank leaves under the node.
  for (NodeIndex x = 1; x < t.n_nodes(); x += 2) {
    const ParentNode* p = t.parent(x);
    if (!p) continue;
    for (std::uint32_t l : p->unmerged_leaves) {
      if (l >= t.n_leaves_ || !in_subtree(x, tm::leaf_to_node(l)) || !t.leaf(l)) {
        protocol_error("ratchet_tree: node " + std::to_string(x) + " lists an invalid unmerged leaf");
      }
    }
  }
  return t;
}

RatchetTreeNodes RatchetTree::to_nodes() const {
  std::size_t end = nodes_.size();
  while (end > 0 && !nodes_[end - 1]) --end;
  return RatchetTreeNodes(nodes_.begin(), nodes_.begin() + static_cast<std::ptrdiff_t>(end));
}

void RatchetTree::ensure_width(std::uint32_t n_leaves) {
  n_leaves_ = n_leaves;
  nodes_.resize(tm::node_width(n_leaves));
}

// --- access ------------------------------------------------------------------------------------------------

const LeafNode* RatchetTree::leaf(std::uint32_t i) const {
  if (i >= n_leaves_) return nullptr;
  const auto& n = nodes_[tm::leaf_to_node(i)];
  return n && n->leaf ? &*n->leaf : nullptr;
}

LeafNode* RatchetTree::leaf(std::uint32_t i) {
  if (i >= n_leaves_) return nullptr;
  auto& n = nodes_[tm::leaf_to_node(i)];
  return n && n->leaf ? &*n->leaf : nullptr;
}

const ParentNode* RatchetTree::parent(NodeIndex x) const {
  if (x >= nodes_.size()) return nullptr;
  const auto& n = nodes_[x];
  return n && n->parent ? &*n->parent : nullptr;
}

ParentNode* RatchetTree::parent(NodeIndex x) {
  if (x >= nodes_.size()) return nullptr;
  auto& n = nodes_[x];
  return n && n->parent ? &*n->parent : nullptr;
}

const Bytes& RatchetTree::encryption_key(NodeIndex x) const {
  const auto& n = nodes_.at(x);
  if (!n) protocol_error("ratchet tree: node " + std::to_string(x) + " is blank");
  return n->leaf ? n->leaf->encryption_key : n->parent->encryption_key;
}

std::vector<NodeIndex> RatchetTree::resolution(NodeIndex x) const {
  if (nodes_[x]) {
    std::vector<NodeIndex> out{x};
    if (const ParentNode* p = parent(x)) {
      for (std::uint32_t l : p->unmerged_leaves) out.push_back(tm::leaf_to_node(l));
    }
    return out;
  }
  if (tm::is_leaf(x)) return {};
  std::vector<NodeIndex> out = resolution(tm::left(x));
  const std::vector<NodeIndex> right = resolution(tm::right(x));
  out.insert(out.end(), right.begin(), right.end());
  return out;
}

std::vector<RatchetTree::PathStep> RatchetTree::filtered_direct_path(std::uint32_t leaf_index) const {
  std::vector<PathStep> out;
  const NodeIndex root = tm::root(n_leaves_);
  NodeIndex x = tm::leaf_to_node(leaf_index);
  while (x != root) {
    const NodeIndex p = tm::parent(x);
    const NodeIndex s = tm::sibling(x);
    if (!resolution(s).empty()) out.push_back(PathStep{p, s});
    x = p;
  }
  return out;
}

// --- hashes ------------------------------------------------------------------------------------------------

Bytes RatchetTree::hash_with_exclusions(NodeIndex x, const std::vector<std::uint32_t>& excluded,
                                        const std::vector<Bytes>* cache) const {
  const auto excludes_under = [&](NodeIndex n) {
    return std::any_of(excluded.begin(), excluded.end(),
                       [&](std::uint32_t l) { return in_subtree(n, tm::leaf_to_node(l)); });
  };
  Writer w;
  if (tm::is_leaf(x)) {
    const std::uint32_t l = tm::node_to_leaf(x);
    w.u8(1);
    w.u32(l);
    const LeafNode* leaf_node = leaf(l);
    if (leaf_node && !excludes_under(x)) {
      w.u8(1);
      encode(w, *leaf_node);
    } else {
      w.u8(0);
    }
  } else {
    w.u8(2);
    if (const ParentNode* p = parent(x)) {
      ParentNode copy = *p;
      copy.unmerged_leaves.erase(std::remove_if(copy.unmerged_leaves.begin(), copy.unmerged_leaves.end(),
                                                [&](std::uint32_t l) {
                                                  return std::find(excluded.begin(), excluded.end(), l) !=
                                                         excluded.end();
                                                }),
                                 copy.unmerged_leaves.end());
      w.u8(1);
      encode(w, copy);
    } else {
      w.u8(0);
    }
    w.vec(cached_hash(tm::left(x), excluded, cache));
    w.vec(cached_hash(tm::right(x), excluded, cache));
  }
  return sha256(w.bytes());
}

Bytes RatchetTree::cached_hash(NodeIndex x, const std::vector<std::uint32_t>& excluded,
                               const std::vector<Bytes>* cache) const {
  const bool untouched = std::none_of(excluded.begin(), excluded.end(),
                                      [&](std::uint32_t l) { return in_subtree(x, tm::leaf_to_node(l)); });
  if (cache && untouched) return (*cache)[x];
  return hash_with_exclusions(x, excluded, cache);
}

std::vector<Bytes> RatchetTree::all_tree_hashes() const {
  // Bottom-up by level, so each parent finds its children's hashes already cached.
  std::vector<Bytes> out(nodes_.size());
  const std::uint32_t top = tm::level(tm::root(n_leaves_));
  for (std::uint32_t k = 0; k <= top; ++k) {
    for (NodeIndex x = (1u << k) - 1; x < nodes_.size(); x += (1u << (k + 1))) {
      out[x] = hash_with_exclusions(x, {}, k == 0 ? nullptr : &out);
    }
  }
  return out;
}

Bytes RatchetTree::node_tree_hash(NodeIndex x) const { return hash_with_exclusions(x, {}, nullptr); }

Bytes RatchetTree::tree_hash() const {
  if (n_leaves_ == 0) protocol_error("ratchet tree is empty");
  return node_tree_hash(tm::root(n_leaves_));
}

Bytes RatchetTree::parent_hash(NodeIndex p, NodeIndex sibling, const std::vector<Bytes>* cache) const {
  const ParentNode* node = parent(p);
  if (!node) protocol_error("parent hash of a blank node " + std::to_string(p));
  Writer w;
  w.vec(node->encryption_key);
  w.vec(node->parent_hash);
  w.vec(cached_hash(sibling, node->unmerged_leaves, cache));
  return sha256(w.bytes());
}

bool RatchetTree::has_parent_hash_link(NodeIndex p, NodeIndex child, const std::vector<Bytes>& hashes) const {
  const NodeIndex other = child == tm::left(p) ? tm::right(p) : tm::left(p);
  const Bytes expected = parent_hash(p, other, &hashes);
  const std::vector<NodeIndex> res = resolution(child);
  const ParentNode* pn = parent(p);
  std::set<NodeIndex> unmerged_under_child;
  for (std::uint32_t l : pn->unmerged_leaves) {
    if (in_subtree(child, tm::leaf_to_node(l))) unmerged_under_child.insert(tm::leaf_to_node(l));
  }
  for (NodeIndex d : res) {
    const Bytes* d_hash = nullptr;
    if (tm::is_leaf(d)) {
      const LeafNode* ln = leaf(tm::node_to_leaf(d));
      if (ln && ln->source == LeafNodeSource::commit) d_hash = &ln->parent_hash;
    } else if (const ParentNode* dn = parent(d)) {
      d_hash = &dn->parent_hash;
    }
    if (!d_hash || *d_hash != expected) continue;
    std::set<NodeIndex> rest(res.begin(), res.end());
    rest.erase(d);
    if (rest == unmerged_under_child) return true;
  }
  return false;
}

bool RatchetTree::parent_hashes_valid() const {
  if (n_leaves_ == 0) return true;
  const std::vector<Bytes> hashes = all_tree_hashes();
  for (NodeIndex x = 1; x < n_nodes(); x += 2) {
    if (!parent(x)) continue;
    if (!has_parent_hash_link(x, tm::left(x), hashes) && !has_parent_hash_link(x, tm::right(x), hashes)) return false;
  }
  return true;
}

void RatchetTree::verify_leaves(BytesView group_id) const {
  std::set<Bytes> encryption_keys, signature_keys;
  for (std::uint32_t i = 0; i < n_leaves_; ++i) {
    const LeafNode* ln = leaf(i);
    if (!ln) continue;
    Writer tbs;
    encode_leaf_node_tbs(tbs, *ln, group_id, i);
    if (!verify_with_label(ln->signature_key, "LeafNodeTBS", tbs.bytes(), ln->signature)) {
      throw Error(ErrorKind::Crypto, "ratchet tree: leaf " + std::to_string(i) + " signature does not verify");
    }
    if (!encryption_keys.insert(ln->encryption_key).second || !signature_keys.insert(ln->signature_key).second) {
      protocol_error("ratchet tree: leaf " + std::to_string(i) + " repeats another leaf's key");
    }
  }
  for (NodeIndex x = 1; x < n_nodes(); x += 2) {
    if (const ParentNode* p = parent(x)) {
      if (!encryption_keys.insert(p->encryption_key).second) {
        protocol_error("ratchet tree: node " + std::to_string(x) + " repeats another node's encryption key");
      }
    }
  }
}

// --- edits -------------------------------------------------------------------------------------------------

std::uint32_t RatchetTree::add_leaf(const LeafNode& leaf_node) {
  std::uint32_t index = 0;
  while (index < n_leaves_ && leaf(index)) ++index;
  if (index == n_leaves_) ensure_width(n_leaves_ == 0 ? 1 : n_leaves_ * 2);
  nodes_[tm::leaf_to_node(index)] = TreeNode{leaf_node, std::nullopt};
  const NodeIndex root = tm::root(n_leaves_);
  for (NodeIndex x = tm::leaf_to_node(index); x != root;) {
    x = tm::parent(x);
    if (ParentNode* p = parent(x)) p->unmerged_leaves.push_back(index);
  }
  return index;
}

void RatchetTree::blank_direct_path(std::uint32_t leaf_index) {
  const NodeIndex root = tm::root(n_leaves_);
  for (NodeIndex x = tm::leaf_to_node(leaf_index); x != root;) {
    x = tm::parent(x);
    nodes_[x].reset();
  }
}

void RatchetTree::remove_leaf(std::uint32_t leaf_index) {
  if (!leaf(leaf_index)) protocol_error("remove: leaf " + std::to_string(leaf_index) + " is blank or absent");
  nodes_[tm::leaf_to_node(leaf_index)].reset();
  blank_direct_path(leaf_index);
  while (n_leaves_ > 1) {
    bool right_blank = true;
    for (std::uint32_t l = n_leaves_ / 2; l < n_leaves_ && right_blank; ++l) right_blank = !leaf(l);
    if (!right_blank) break;
    ensure_width(n_leaves_ / 2);
  }
}

Bytes RatchetTree::set_path_keys(std::uint32_t leaf_index, const std::vector<Bytes>& public_keys) {
  const auto path = filtered_direct_path(leaf_index);
  if (path.size() != public_keys.size()) {
    protocol_error("update path: has " + std::to_string(public_keys.size()) + " nodes, the filtered direct path " +
                   std::to_string(path.size()));
  }
  blank_direct_path(leaf_index);
  for (std::size_t i = 0; i < path.size(); ++i) {
    nodes_[path[i].node] = TreeNode{std::nullopt, ParentNode{public_keys[i], {}, {}}};
  }
  // Top-down: each node's parent_hash covers the node above it.
  for (std::size_t i = path.size(); i-- > 0;) {
    if (i + 1 < path.size()) {
      parent(path[i].node)->parent_hash = parent_hash(path[i + 1].node, path[i + 1].copath_child);
    }
  }
  return path.empty() ? Bytes{} : parent_hash(path[0].node, path[0].copath_child);
}

void RatchetTree::merge_update_path(std::uint32_t sender, const UpdatePath& path) {
  if (!leaf(sender)) protocol_error("update path: sender leaf " + std::to_string(sender) + " is blank");
  if (path.leaf_node.source != LeafNodeSource::commit) {
    protocol_error("update path: leaf_node_source must be commit");
  }
  std::vector<Bytes> keys;
  for (const auto& n : path.nodes) keys.push_back(n.encryption_key);
  RatchetTree staged = *this;
  const Bytes leaf_parent_hash = staged.set_path_keys(sender, keys);
  if (leaf_parent_hash != path.leaf_node.parent_hash) {
    protocol_error("update path: the leaf's parent_hash does not match the path");
  }
  staged.nodes_[tm::leaf_to_node(sender)] = TreeNode{path.leaf_node, std::nullopt};
  *this = std::move(staged);
}

// --- TreeKEM secrets ---------------------------------------------------------------------------------------

PathSecrets derive_path_secrets(BytesView first_secret, std::size_t length) {
  PathSecrets out;
  Bytes secret = first_secret.to_bytes();
  for (std::size_t i = 0; i < length; ++i) {
    HpkeKeyPair kp = hpke_derive_key_pair(derive_secret(secret, "node"));
    out.secrets.push_back(secret);
    out.private_keys.push_back(std::move(kp.private_key));
    out.public_keys.push_back(std::move(kp.public_key));
    secret = derive_secret(secret, "path");
  }
  out.commit_secret = std::move(secret);
  return out;
}

namespace {
std::vector<NodeIndex> without_leaves(std::vector<NodeIndex> nodes, const std::vector<std::uint32_t>& leaves) {
  nodes.erase(std::remove_if(nodes.begin(), nodes.end(),
                             [&](NodeIndex x) {
                               return tm::is_leaf(x) &&
                                      std::find(leaves.begin(), leaves.end(), tm::node_to_leaf(x)) != leaves.end();
                             }),
              nodes.end());
  return nodes;
}

// Derives keys from `secret` at path step `from` upward, checking each public key against the tree.
Bytes derive_up(const RatchetTree& tree, const std::vector<RatchetTree::PathStep>& path, std::size_t from,
                Bytes secret, std::map<NodeIndex, Bytes>& keys) {
  for (std::size_t k = from; k < path.size(); ++k) {
    HpkeKeyPair kp = hpke_derive_key_pair(derive_secret(secret, "node"));
    if (kp.public_key != tree.encryption_key(path[k].node)) {
      protocol_error("update path: derived key of node " + std::to_string(path[k].node) + " does not match the tree");
    }
    keys[path[k].node] = std::move(kp.private_key);
    secret = derive_secret(secret, "path");
  }
  return secret;
}

std::size_t common_step(const std::vector<RatchetTree::PathStep>& path, std::uint32_t own_leaf) {
  const NodeIndex own = tm::leaf_to_node(own_leaf);
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (in_subtree(path[i].node, own)) return i;
  }
  protocol_error("update path: no node of the sender's filtered direct path is above our leaf");
}
}  // namespace

std::vector<UpdatePathNode> encrypt_path_secrets(const RatchetTree& tree, std::uint32_t sender,
                                                 const PathSecrets& secrets, BytesView group_context,
                                                 const std::vector<std::uint32_t>& excluded_leaves) {
  const auto path = tree.filtered_direct_path(sender);
  if (path.size() != secrets.secrets.size()) throw Error(ErrorKind::State, "update path: secrets do not fit the tree");
  std::vector<UpdatePathNode> out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    UpdatePathNode n;
    n.encryption_key = secrets.public_keys[i];
    for (NodeIndex r : without_leaves(tree.resolution(path[i].copath_child), excluded_leaves)) {
      HpkeCiphertext ct = encrypt_with_label(tree.encryption_key(r), kUpdatePathLabel, group_context, secrets.secrets[i]);
      n.encrypted_path_secret.push_back(HpkeCiphertextWire{std::move(ct.kem_output), std::move(ct.ciphertext)});
    }
    out.push_back(std::move(n));
  }
  return out;
}

DecryptedPath decrypt_path_secrets(const RatchetTree& tree, std::uint32_t sender, std::uint32_t own_leaf,
                                   const UpdatePath& update_path, const std::map<NodeIndex, Bytes>& private_keys,
                                   BytesView group_context, const std::vector<std::uint32_t>& excluded_leaves) {
  const auto path = tree.filtered_direct_path(sender);
  if (path.size() != update_path.nodes.size()) protocol_error("update path: length does not match the tree");
  const std::size_t i = common_step(path, own_leaf);
  const std::vector<NodeIndex> res = without_leaves(tree.resolution(path[i].copath_child), excluded_leaves);
  const auto& cts = update_path.nodes[i].encrypted_path_secret;
  if (cts.size() != res.size()) {
    protocol_error("update path: node " + std::to_string(path[i].node) + " has " + std::to_string(cts.size()) +
                   " ciphertexts for a resolution of " + std::to_string(res.size()));
  }
  for (std::size_t j = 0; j < res.size(); ++j) {
    auto key = private_keys.find(res[j]);
    if (key == private_keys.end()) continue;
    DecryptedPath out;
    out.common_ancestor_secret = decrypt_with_label(key->second, kUpdatePathLabel, group_context, cts[j].kem_output,
                                                    cts[j].ciphertext);
    out.commit_secret = derive_up(tree, path, i, out.common_ancestor_secret, out.private_keys);
    return out;
  }
  protocol_error("update path: we hold no private key for the resolution of node " + std::to_string(path[i].node));
}

std::map<NodeIndex, Bytes> private_keys_from_path_secret(const RatchetTree& tree, std::uint32_t sender,
                                                         std::uint32_t own_leaf, BytesView path_secret) {
  const auto path = tree.filtered_direct_path(sender);
  std::map<NodeIndex, Bytes> keys;
  derive_up(tree, path, common_step(path, own_leaf), path_secret.to_bytes(), keys);
  return keys;
}

}  // namespace platformpp::voice::e2ee
