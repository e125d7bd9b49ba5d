/// @brief MetaImage (.mha with inline data, .mhd with a data file) reading and writing, LPS as ITK uses.
#pragma once

#include "lucent/io/ByteFile.h"
#include "lucent/io/RawImage.h"

#include <string>
#include <vector>

namespace lucent::io {

class MetaImageFormat {
public:
    /// Reads .mha or .mhd (+ raw/zraw data file, LOCAL data, zlib compression, either byte order).
    static RawImage read(const std::string& path);
    /// The same from the header file's bytes already in memory; `path` names the file in messages
    /// and locates an ElementDataFile. What read() does after reading the file, and the fuzzer's entry.
    static RawImage parse(const std::vector<char>& file, const std::string& path);
    /// The header alone (bytes empty, `source` saying where the voxels are), its sizes and data
    /// file checked; reads no more of `file` than the header and no byte of a data file.
    static RawImage readHeader(ByteFile& file);
    /// Writes .mha with inline data, or .mhd plus a .raw file beside it.
    static void write(const RawImage& image, const std::string& path);
};

}  // namespace lucent::io
