// deserialization and tree-math vectors, and the bounds checks of the TLS codec.
#include <boost/test/unit_test.hpp>

#include "vectors.hpp"
#include "voice/e2ee/tls_codec.hpp"
#include "voice/e2ee/tree_math.hpp"

using namespace platformpp::voice::e2ee;
using e2ee_test::field;

BOOST_AUTO_TEST_SUITE(codec)

BOOST_AUTO_TEST_CASE(deserialization_vectors_round_trip_every_varint_header) {
  int checked = 0;
  for (const auto& v : e2ee_test::load_vectors("deserialization")) {
    const auto& o = v.as_object();
    const Bytes header = field(o, "vlbytes_header");
    const auto length = static_cast<std::uint64_t>(o.at("length").as_int64());
    Reader r(header);
    BOOST_TEST(r.varint("len") == length);
    BOOST_TEST(r.empty());
    Writer w;
    w.varint(length);
    BOOST_TEST(w.bytes() == header);
    ++checked;
  }
  BOOST_TEST(checked == 14);
}

BOOST_AUTO_TEST_CASE(reader_refuses_bad_input_with_the_field_named) {
  const auto decode_fails_with = [](const Bytes& in, const std::string& expected) {
    try {
      Reader r(in);
      r.vec("my_field");
      r.expect_end("my_struct");
    } catch (const Error& e) {
      BOOST_TEST(e.kind() == ErrorKind::Decode);
      BOOST_TEST(std::string(e.what()).find(expected) != std::string::npos, e.what());
      return;
    }
    BOOST_FAIL("decode of bad input did not throw");
  };
  decode_fails_with({0x05, 1, 2}, "my_field: vector length 5 exceeds");
  decode_fails_with({0x40, 0x05, 1, 2, 3, 4, 5}, "not minimally encoded");
  decode_fails_with({0xc0, 0, 0, 0, 0, 0, 0, 1, 1}, "8-byte varint");
  decode_fails_with({0x80, 0}, "truncated");
  decode_fails_with({0x01, 9, 9}, "my_struct: 1 unexpected trailing bytes");
  decode_fails_with({}, "truncated");
  const Bytes bad_presence{2};
  Reader r(bad_presence);
  BOOST_CHECK_THROW(r.presence("opt"), Error);
  Writer w;
  BOOST_CHECK_THROW(w.varint(kMaxVarint + 1), Error);
}

BOOST_AUTO_TEST_CASE(nested_vectors_get_their_length_prefix_after_the_body) {
  Writer w;
  const auto start = w.begin_vec();
  for (int i = 0; i < 70; ++i) w.u8(static_cast<std::uint8_t>(i));
  w.end_vec(start);
  BOOST_TEST(w.bytes().size() == 72u);
  Reader r(w.bytes());
  Reader body = r.sub_vec("outer");
  BOOST_TEST(body.remaining() == 70u);
  BOOST_TEST(r.empty());
}

BOOST_AUTO_TEST_CASE(tree_math_vectors) {
  namespace tm = tree_math;
  int checked = 0;
  for (const auto& v : e2ee_test::load_vectors("tree-math")) {
    const auto& o = v.as_object();
    const auto n_leaves = static_cast<std::uint32_t>(o.at("n_leaves").as_int64());
    const auto n_nodes = static_cast<std::uint32_t>(o.at("n_nodes").as_int64());
    BOOST_TEST(tm::node_width(n_leaves) == n_nodes);
    BOOST_TEST(tm::root(n_leaves) == static_cast<std::uint32_t>(o.at("root").as_int64()));
    const auto expect = [&](const char* key, std::uint32_t x, std::optional<std::uint32_t> got) {
      const auto& e = o.at(key).as_array().at(x);
      if (e.is_null()) {
        BOOST_TEST(!got.has_value(), key << " of " << x);
      } else {
        BOOST_TEST((got && *got == e.as_int64()), key << " of " << x);
      }
    };
    const std::uint32_t r = tm::root(n_leaves);
    for (std::uint32_t x = 0; x < n_nodes; ++x) {
      expect("left", x, tm::is_leaf(x) ? std::nullopt : std::optional<std::uint32_t>(tm::left(x)));
      expect("right", x, tm::is_leaf(x) ? std::nullopt : std::optional<std::uint32_t>(tm::right(x)));
      expect("parent", x, x == r ? std::nullopt : std::optional<std::uint32_t>(tm::parent(x)));
      expect("sibling", x, x == r ? std::nullopt : std::optional<std::uint32_t>(tm::sibling(x)));
    }
    ++checked;
  }
  BOOST_TEST(checked == 10);
}

BOOST_AUTO_TEST_SUITE_END()
