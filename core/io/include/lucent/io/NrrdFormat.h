/// @brief NRRD (.nrrd with attached data, .nhdr with a data file) reading and writing.
#pragma once

#include "lucent/io/ByteFile.h"
#include "lucent/io/RawImage.h"

#include <string>
#include <vector>

namespace lucent::io {

class NrrdFormat {
public:
    /// Reads 3D (or 4D with a trailing non-spatial axis) raw or gzip NRRD, LPS or RAS space.
    static RawImage read(const std::string& path);
    /// The same from the file's bytes already in memory; `path` names the file in messages and
    /// locates a detached data file. What read() does after reading the file, and the fuzzer's entry.
    static RawImage parse(const std::vector<char>& file, const std::string& path);
    /// The header alone (bytes empty, `source` saying where the voxels are), its sizes and data
    /// file checked; reads no more of `file` than the header and no byte of a data file.
    static RawImage readHeader(ByteFile& file);
    /// Writes .nrrd with space left-posterior-superior; `gzip` compresses the data (good for masks).
    static void write(const RawImage& image, const std::string& path, bool gzip);
};

}  // namespace lucent::io
