/// @brief Whole-file reading, atomic writing (no half-written output) and zlib/gzip buffers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lucent::io {

/// Reads a whole file; throws IoError naming it.
std::vector<char> readFile(const std::string& path);

/// Writes the concatenation of `parts` to a temporary file beside `path`, flushes it to disk and
/// renames it over `path`: a reader never sees a partial file, and on any failure (full disk,
/// missing folder, no permission) nothing is left behind and IoError names the file and the cause.
void writeFileAtomically(const std::string& path, const std::vector<std::string_view>& parts);

/// Inflates a zlib or gzip stream (auto-detected); `source` names the file in errors.
std::vector<char> inflateBuffer(std::string_view compressed, const std::string& source);
/// Deflates into a gzip stream.
std::vector<char> gzipBuffer(const std::vector<std::string_view>& parts);

/// Lower-case copy (for extensions and header keys).
std::string toLower(std::string s);
/// Strips surrounding white space.
std::string trim(std::string_view s);

}  // namespace lucent::io
