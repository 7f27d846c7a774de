#include "core/json_fields.hpp"

#include <boost/json/array.hpp>

namespace platformpp::json_fields {

namespace json = boost::json;

const json::object* Object(const json::value& value) { return value.is_object() ? &value.as_object() : nullptr; }

const json::object* Object(const json::object& object, std::string_view name) {
    const auto* value = object.if_contains(name);
    return value ? Object(*value) : nullptr;
}

const json::array* Array(const json::object& object, std::string_view name) {
    const auto* value = object.if_contains(name);
    return value && value->is_array() ? &value->as_array() : nullptr;
}

std::string String(const json::object& object, std::string_view name) {
    const auto* value = object.if_contains(name);
    return value && value->is_string() ? std::string(value->as_string()) : std::string();
}

std::string String(const json::value& value, std::string_view name) {
    const auto* object = Object(value);
    return object ? String(*object, name) : std::string();
}

std::optional<std::string> OptionalString(const json::object& object, std::string_view name) {
    const auto* value = object.if_contains(name);
    if (value && value->is_string()) return std::string(value->as_string());
    return std::nullopt;
}

std::optional<int64_t> OptionalInteger(const json::object& object, std::string_view name) {
    const auto* value = object.if_contains(name);
    if (value == nullptr) return std::nullopt;
    if (value->is_int64()) return value->as_int64();
    if (value->is_uint64()) return static_cast<int64_t>(value->as_uint64());
    return std::nullopt;
}

int64_t Integer(const json::object& object, std::string_view name) { return OptionalInteger(object, name).value_or(0); }

int64_t Integer(const json::value& value, std::string_view name) {
    const auto* object = Object(value);
    return object ? Integer(*object, name) : 0;
}

uint64_t Snowflake(const json::value* value) {
    if (value == nullptr) return 0;
    if (value->is_uint64()) return value->as_uint64();
    if (value->is_int64()) return value->as_int64() > 0 ? static_cast<uint64_t>(value->as_int64()) : 0;
    if (!value->is_string()) return 0;
    uint64_t id = 0;
    for (char c : value->as_string()) {
        if (c < '0' || c > '9' || id > (UINT64_MAX - 9) / 10) return 0;
        id = id * 10 + static_cast<uint64_t>(c - '0');
    }
    return id;
}

uint64_t Snowflake(const json::object& object, std::string_view name) { return Snowflake(object.if_contains(name)); }

uint64_t Snowflake(const json::value& value, std::string_view name) {
    const auto* object = Object(value);
    return object ? Snowflake(*object, name) : 0;
}

}  // namespace platformpp::json_fields
