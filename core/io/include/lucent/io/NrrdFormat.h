/// @brief NRRD (.nrrd with attached data, .nhdr with a data file) reading and writing.
#pragma once

#include "lucent/io/RawImage.h"

#include <string>

namespace lucent::io {

class NrrdFormat {
public:
    /// Reads 3D (or 4D with a trailing non-spatial axis) raw or gzip NRRD, LPS or RAS space.
    static RawImage read(const std::string& path);
    /// Writes .nrrd with space left-posterior-superior; `gzip` compresses the data (good for masks).
    static void write(const RawImage& image, const std::string& path, bool gzip);
};

}  // namespace lucent::io
