// Loading the MLS working group's test vectors (JSON, hex strings) for the e2ee tests.
#pragma once

#include <boost/json.hpp>
#include <ostream>
#include <string>

#include "voice/e2ee/common.hpp"

namespace e2ee_test {

using platformpp::voice::e2ee::Bytes;

// The parsed array of cpp/tests/data/mls/<name>.json.
boost::json::array load_vectors(const std::string& name);
// Hex string to bytes; throws std::invalid_argument on odd length or a non-hex digit.
Bytes hex(boost::json::string_view s);
// The hex field `key` of object `o`.
Bytes field(const boost::json::object& o, const char* key);
std::string to_hex(const Bytes& b);

}  // namespace e2ee_test

namespace platformpp::voice::e2ee {
// So Boost.Test can print an ErrorKind in a failed comparison.
inline std::ostream& operator<<(std::ostream& os, ErrorKind k) { return os << static_cast<int>(k); }
}  // namespace platformpp::voice::e2ee
