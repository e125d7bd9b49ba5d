/// @brief MetaImage (.mha with inline data, .mhd with a data file) reading and writing, LPS as ITK uses.
#pragma once

#include "lucent/io/RawImage.h"

#include <string>

namespace lucent::io {

class MetaImageFormat {
public:
    /// Reads .mha or .mhd (+ raw/zraw data file, LOCAL data, zlib compression, either byte order).
    static RawImage read(const std::string& path);
    /// Writes .mha with inline data, or .mhd plus a .raw file beside it.
    static void write(const RawImage& image, const std::string& path);
};

}  // namespace lucent::io
