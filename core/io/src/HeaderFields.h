/// @brief Parsing helpers for the text headers of MetaImage and NRRD: strict numbers, escaped messages.
#pragma once

#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace lucent::io {

/// Numbers of a header value, e.g. "0.5 0.5 1.2"; throws IoError naming the file and key.
inline std::vector<double> parseNumbers(const std::string& text, const std::string& path, const std::string& key,
                                        std::size_t expected) {
    std::istringstream in(text);
    std::vector<double> out;
    for (double v; in >> v;) out.push_back(v);
    if (out.size() < expected)
        throw IoError(path + ": header field '" + key + "' needs " + std::to_string(expected) + " numbers, has '" +
                      printable(text) + "'");
    return out;
}

/// `expected` whole numbers in [lowest, highest] (more may follow and are returned too). Anything
/// else (fractions, words, values out of range, too few) throws IoError naming the file, the key,
/// the value and the range: header sizes are the first thing a hostile file lies about.
inline std::vector<std::int64_t> parseIntegers(const std::string& text, const std::string& path, const std::string& key,
                                               std::size_t expected, std::int64_t lowest, std::int64_t highest) {
    std::vector<std::int64_t> out;
    std::istringstream in(text);
    for (std::string token; in >> token;) {
        errno = 0;
        char* end = nullptr;
        const long long v = std::strtoll(token.c_str(), &end, 10);
        if (*end != '\0' || errno == ERANGE || v < lowest || v > highest)
            throw IoError(path + ": header field '" + key + "' has '" + printable(token) + "'; whole numbers from " +
                          std::to_string(lowest) + " to " + std::to_string(highest) + " expected");
        out.push_back(v);
    }
    if (out.size() < expected)
        throw IoError(path + ": header field '" + key + "' needs " + std::to_string(expected) +
                      " whole numbers, has '" + printable(text) + "'");
    return out;
}

/// One whole number in [lowest, highest]; `fallback` when the field is absent (empty).
inline std::int64_t parseInteger(const std::string& text, const std::string& path, const std::string& key,
                                 std::int64_t lowest, std::int64_t highest, std::int64_t fallback) {
    if (text.empty()) return fallback;
    const auto v = parseIntegers(text, path, key, 1, lowest, highest);
    if (v.size() != 1)
        throw IoError(path + ": header field '" + key + "' has '" + printable(text) + "'; one whole number expected");
    return v[0];
}

}  // namespace lucent::io
