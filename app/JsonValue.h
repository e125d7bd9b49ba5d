/// @brief A small JSON reader for the files the CLI takes (3D Slicer markups): enough to walk a
/// document, not a general library. The CLI builds without Qt, so QJsonDocument is not at hand.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lucent::app {

/// One JSON value; objects keep the last of repeated keys.
struct JsonValue {
    enum class Type { Null, Bool, Number, String, Array, Object } type = Type::Null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<JsonValue> array;
    std::map<std::string, JsonValue> object;

    /// The member `key` of an object, or nullptr (also when this is no object).
    const JsonValue* find(const std::string& key) const;
};

/// Parses `text` (UTF-8 JSON); std::runtime_error naming the byte offset of a syntax error.
JsonValue parseJson(std::string_view text);

}  // namespace lucent::app
