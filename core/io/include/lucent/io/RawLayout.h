/// @brief An image as a file holds it (any scalar type, optional 4th axis): its layout and where its
/// voxels are, read by the formats and the voxel reader, converted by RawImage.h.
#pragma once

#include "lucent/core/Geometry.h"
#include "lucent/core/Volume.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lucent::io {

enum class ScalarType : std::uint8_t { UInt8, Int8, UInt16, Int16, UInt32, Int32, Float32, Float64 };

std::size_t scalarSize(ScalarType type);

/// Where a file keeps its voxels, as its header says: what the header pass finds, so that the voxels
/// are read later (or never, for a listing) without parsing the header again.
struct VoxelSource {
    std::string file;              ///< the file holding them: the header's own, or a detached data file
    std::uint64_t offset = 0;      ///< where they, or their compressed stream, start in it
    std::int64_t lineSkip = 0;     ///< text lines to pass from `offset` first (NRRD's line skip)
    bool compressed = false;       ///< a gzip or zlib stream starts there
    std::uint64_t skip = 0;        ///< bytes before the voxels: in the stream when compressed, else in the file
    bool atEnd = false;            ///< raw voxels that are the file's last bytes (HeaderSize -1, byte skip -1)
    bool swapped = false;          ///< stored in the other byte order than this machine's
};

/// Voxels in the file's scalar type, host byte order, x fastest; `frames` volumes one after another.
/// After a header pass (readRawImageHeader) `bytes` is empty and `source` says where they are.
struct RawImage {
    Geometry geometry;
    ScalarType type = ScalarType::Int16;
    int frames = 1;
    double slope = 1.0;      ///< value = stored * slope + intercept
    double intercept = 0.0;
    std::vector<char> bytes;
    /// Voxels held elsewhere while this is written (fromVolume, fromLabelMap: no copy), when
    /// `bytes` is empty; the holder must outlive this. Writers read voxelBytes().
    std::string_view borrowed;
    /// What the reader assumed or repaired (geometry), for the user to see.
    std::vector<std::string> warnings;
    /// Free-form key/value pairs the format carries (NRRD `key:=value` lines, in file order), such as
    /// the segment names and colours Slicer writes into a `.seg.nrrd`.
    std::vector<std::pair<std::string, std::string>> keyValues;
    /// The detached data files a header names (.mhd's ElementDataFile, .nhdr's data file), as paths.
    std::vector<std::string> dataFiles;
    /// Where the voxels are in the file(s) read.
    VoxelSource source;
    /// NIfTI's qform / sform codes: read from a NIfTI file, written into one (VolumeMetadata::codes).
    CoordinateCodes codes;

    std::size_t frameBytes() const { return geometry.voxelCount() * scalarSize(type); }
    /// The voxels to write: `bytes`, or the borrowed ones.
    std::string_view voxelBytes() const { return bytes.empty() ? borrowed : std::string_view(bytes.data(), bytes.size()); }
    double storedValue(std::size_t index) const;
};

/// Reverses the byte order of `count` scalars of `size` bytes each.
void swapBytes(char* data, std::size_t count, std::size_t size);

}  // namespace lucent::io
