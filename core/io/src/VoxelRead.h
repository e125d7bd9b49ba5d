/// @brief A file's voxel bytes read where its header says: raw in large parallel parts, or inflated as a stream, straight into their buffer.
#pragma once

#include "lucent/io/ByteFile.h"
#include "lucent/io/RawLayout.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lucent::io {

/// Checks without reading voxels that `header.source` can give `bytes` voxel bytes: its data file is
/// a regular file, long enough when raw, its stream not too short to hold them when compressed
/// (deflate expands at most 1032:1). IoError naming `headerFile` otherwise ("truncated ...").
void checkVoxelSource(const RawImage& header, std::uint64_t bytes, ByteFile& headerFile);

/// Reads the first `bytes` voxel bytes (frame 0 is frameBytes()) into `out`, in this machine's byte
/// order (swapped on all cores when stored otherwise). `headerFile` is the open header file (its
/// kept prefix is not read again). IoError naming it when the data are short or unreadable.
void readVoxels(const RawImage& header, ByteFile& headerFile, char* out, std::size_t bytes);

/// Every frame's voxel bytes, for RawImage::bytes.
std::vector<char> readAllVoxels(const RawImage& header, ByteFile& headerFile);

}  // namespace lucent::io
