/// @brief Parsing helpers for the text headers of MetaImage and NRRD.
#pragma once

#include "lucent/core/Errors.h"

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
                      text + "'");
    return out;
}

}  // namespace lucent::io
