// Boost.JSON compiles here, once, header-only.
#include <boost/json/src.hpp>

#include "vectors.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace e2ee_test {

boost::json::array load_vectors(const std::string& name) {
  const std::string path = std::string(PLATFORMPP_MLS_VECTORS_DIR) + "/" + name + ".json";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return boost::json::parse(ss.str()).as_array();
}

Bytes hex(boost::json::string_view s) {
  if (s.size() % 2 != 0) throw std::invalid_argument("odd hex length");
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument("bad hex digit");
  };
  Bytes out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<std::uint8_t>(nibble(s[2 * i]) << 4 | nibble(s[2 * i + 1]));
  }
  return out;
}

Bytes field(const boost::json::object& o, const char* key) { return hex(o.at(key).as_string()); }

std::string to_hex(const Bytes& b) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (auto c : b) {
    s.push_back(digits[c >> 4]);
    s.push_back(digits[c & 15]);
  }
  return s;
}

}  // namespace e2ee_test
