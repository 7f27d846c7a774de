// tree-validation and treekem vectors (suite 2), and tree edits.
#include <boost/test/unit_test.hpp>

#include "vectors.hpp"
#include "voice/e2ee/crypto.hpp"
#include "voice/e2ee/tree.hpp"

using namespace platformpp::voice::e2ee;
using e2ee_test::field;

namespace {
RatchetTree tree_from(const Bytes& bytes) {
  return RatchetTree::from_nodes(decode_all(bytes, decode_ratchet_tree, "ratchet_tree"));
}
}  // namespace

BOOST_AUTO_TEST_SUITE(tree)

BOOST_AUTO_TEST_CASE(tree_validation_vectors) {
  int checked = 0;
  for (const auto& v : e2ee_test::load_vectors("tree-validation")) {
    const auto& o = v.as_object();
    const Bytes bytes = field(o, "tree");
    const RatchetTree t = tree_from(bytes);
    BOOST_TEST(serialize(t.to_nodes()) == bytes);
    const auto& hashes = o.at("tree_hashes").as_array();
    const auto& resolutions = o.at("resolutions").as_array();
    BOOST_REQUIRE_EQUAL(hashes.size(), t.n_nodes());
    const std::vector<Bytes> all = t.all_tree_hashes();
    for (NodeIndex x = 0; x < t.n_nodes(); ++x) {
      BOOST_TEST(t.node_tree_hash(x) == e2ee_test::hex(hashes[x].as_string()), "tree hash of node " << x);
      BOOST_TEST(all[x] == e2ee_test::hex(hashes[x].as_string()), "cached tree hash of node " << x);
      std::vector<NodeIndex> expected;
      for (const auto& r : resolutions[x].as_array()) expected.push_back(static_cast<NodeIndex>(r.as_int64()));
      BOOST_TEST(t.resolution(x) == expected, "resolution of node " << x);
    }
    BOOST_TEST(t.parent_hashes_valid());
    BOOST_CHECK_NO_THROW(t.verify_leaves(field(o, "group_id")));
    ++checked;
  }
  BOOST_TEST(checked == 14);
}

BOOST_AUTO_TEST_CASE(treekem_vectors) {
  int paths = 0;
  for (const auto& v : e2ee_test::load_vectors("treekem")) {
    const auto& o = v.as_object();
    const RatchetTree before = tree_from(field(o, "ratchet_tree"));
    BOOST_TEST(before.parent_hashes_valid());
    GroupContext gc;
    gc.cipher_suite = 2;
    gc.group_id = field(o, "group_id");
    gc.epoch = static_cast<std::uint64_t>(o.at("epoch").as_int64());
    gc.confirmed_transcript_hash = field(o, "confirmed_transcript_hash");

    // Each private leaf's keys: its leaf key and the path secrets it knows.
    struct Member {
      std::uint32_t leaf;
      std::map<NodeIndex, Bytes> keys;
    };
    std::vector<Member> members;
    for (const auto& lp : o.at("leaves_private").as_array()) {
      const auto& l = lp.as_object();
      Member m{static_cast<std::uint32_t>(l.at("index").as_int64()), {}};
      m.keys[tree_math::leaf_to_node(m.leaf)] = field(l, "encryption_priv");
      BOOST_TEST(hpke_public_key(field(l, "encryption_priv")) == before.leaf(m.leaf)->encryption_key);
      for (const auto& ps : l.at("path_secrets").as_array()) {
        const auto node = static_cast<NodeIndex>(ps.as_object().at("node").as_int64());
        const HpkeKeyPair kp = hpke_derive_key_pair(derive_secret(field(ps.as_object(), "path_secret"), "node"));
        BOOST_TEST(kp.public_key == before.encryption_key(node));
        m.keys[node] = kp.private_key;
      }
      members.push_back(std::move(m));
    }

    for (const auto& upv : o.at("update_paths").as_array()) {
      const auto& up = upv.as_object();
      const auto sender = static_cast<std::uint32_t>(up.at("sender").as_int64());
      const UpdatePath path = decode_all(field(up, "update_path"), decode_update_path, "update_path");
      RatchetTree after = before;
      after.merge_update_path(sender, path);
      BOOST_TEST(after.parent_hashes_valid());
      BOOST_TEST(after.tree_hash() == field(up, "tree_hash_after"));
      Writer tbs;
      encode_leaf_node_tbs(tbs, path.leaf_node, gc.group_id, sender);
      BOOST_TEST(verify_with_label(path.leaf_node.signature_key, "LeafNodeTBS", tbs.bytes(), path.leaf_node.signature));
      GroupContext ctx = gc;
      ctx.tree_hash = after.tree_hash();
      const Bytes context = serialize(ctx);
      const auto& expected_secrets = up.at("path_secrets").as_array();
      for (std::size_t j = 0; j < members.size(); ++j) {
        if (members[j].leaf == sender) continue;
        const DecryptedPath d = decrypt_path_secrets(after, sender, members[j].leaf, path, members[j].keys, context, {});
        BOOST_TEST(d.commit_secret == field(up, "commit_secret"), "commit secret at leaf " << members[j].leaf);
        BOOST_TEST(d.common_ancestor_secret == e2ee_test::hex(expected_secrets.at(members[j].leaf).as_string()));
      }

      // Our own path from the same sender is read back by every other member.
      RatchetTree ours = before;
      const auto fdp = ours.filtered_direct_path(sender);
      const PathSecrets secrets = derive_path_secrets(random_bytes(32), fdp.size());
      ours.set_path_keys(sender, secrets.public_keys);
      UpdatePath own_path;
      own_path.nodes = encrypt_path_secrets(ours, sender, secrets, context, {});
      for (const auto& m : members) {
        if (m.leaf == sender) continue;
        const DecryptedPath d = decrypt_path_secrets(ours, sender, m.leaf, own_path, m.keys, context, {});
        BOOST_TEST(d.commit_secret == secrets.commit_secret);
      }
      ++paths;
    }
  }
  BOOST_TEST(paths > 0);
}

BOOST_AUTO_TEST_CASE(add_grows_and_remove_truncates) {
  LeafNode l;
  l.encryption_key = {1};
  RatchetTree t;
  BOOST_TEST(t.add_leaf(l) == 0u);
  l.encryption_key = {2};
  BOOST_TEST(t.add_leaf(l) == 1u);
  l.encryption_key = {3};
  BOOST_TEST(t.add_leaf(l) == 2u);
  BOOST_TEST(t.n_leaves() == 4u);
  t.remove_leaf(2);
  BOOST_TEST(t.n_leaves() == 2u);
  t.remove_leaf(0);
  BOOST_TEST(t.n_leaves() == 2u);
  l.encryption_key = {4};
  BOOST_TEST(t.add_leaf(l) == 0u);
  BOOST_CHECK_THROW(t.remove_leaf(7), Error);
  BOOST_CHECK_THROW(RatchetTree::from_nodes({}), Error);
  BOOST_CHECK_THROW(RatchetTree::from_nodes({std::nullopt}), Error);
}

BOOST_AUTO_TEST_SUITE_END()
