#pragma once
// Reading the members of the platform's JSON answers and events (Boost.JSON), for every part of the
// core. The reads are lenient: a member that is missing or of another type reads as empty, 0, nullopt
// or nullptr, so one odd field never fails a whole answer. Private to the core.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::json_fields {

// `value` as an object, or nullptr.
const boost::json::object* Object(const boost::json::value& value);
// The member `name` as an object, or nullptr.
const boost::json::object* Object(const boost::json::object& object, std::string_view name);
// The member `name` as an array, or nullptr.
const boost::json::array* Array(const boost::json::object& object, std::string_view name);

std::string String(const boost::json::object& object, std::string_view name);
std::string String(const boost::json::value& value, std::string_view name);  // "" when `value` is no object
std::optional<std::string> OptionalString(const boost::json::object& object, std::string_view name);

// An integer member (signed or unsigned in the JSON text); 0 / nullopt otherwise.
int64_t Integer(const boost::json::object& object, std::string_view name);
int64_t Integer(const boost::json::value& value, std::string_view name);  // 0 when `value` is no object
std::optional<int64_t> OptionalInteger(const boost::json::object& object, std::string_view name);

// A snowflake id as the platform writes it (a decimal string; a positive JSON integer is accepted too);
// 0 when absent, empty or malformed.
uint64_t Snowflake(const boost::json::value* value);
uint64_t Snowflake(const boost::json::object& object, std::string_view name);
uint64_t Snowflake(const boost::json::value& value, std::string_view name);  // 0 when `value` is no object

}  // namespace platformpp::json_fields
