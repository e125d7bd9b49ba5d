/// @brief The file meta header of a DICOM Part 10 file, read without DCMTK (what a DICOMweb transfer needs to name and
/// check a file).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lucent::net {

/// Bytes before the group-2 meta header: a 128-byte preamble and "DICM".
inline constexpr std::size_t kPart10PrefixBytes = 132;

/// True when `head` (at least the first 132 bytes of a file) carries the Part 10 "DICM" marker.
bool isPart10(std::string_view head);

/// MediaStorageSOPInstanceUID (0002,0003) of a Part 10 file's meta header (always explicit VR
/// little endian), without trailing padding; empty when `file` is not Part 10 or the element is
/// missing or truncated.
std::string part10InstanceUid(std::string_view file);

}  // namespace lucent::net
