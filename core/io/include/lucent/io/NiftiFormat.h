/// @brief NIfTI-1 (.nii, .nii.gz) reading and writing, world coordinates in RAS as NIfTI defines them.
#pragma once

#include "lucent/io/ByteFile.h"
#include "lucent/io/RawImage.h"

#include <string>
#include <vector>

namespace lucent::io {

class NiftiFormat {
public:
    /// Reads a single-file NIfTI-1 image (gzipped or not, either byte order). Geometry from the
    /// sform when set, else the qform, else pixdim; converted from RAS to our LPS.
    static RawImage read(const std::string& path);
    /// The same from the file's bytes already in memory (`stored`, gzipped when `path` ends .gz);
    /// `path` names the file in messages. What read() does after reading the file, and the fuzzer's
    /// entry point.
    static RawImage parse(const std::vector<char>& stored, const std::string& path);
    /// The header alone (bytes empty, `source` saying where the voxels are), its sizes checked;
    /// reads (or, gzipped, inflates) the 348 header bytes and no voxel.
    static RawImage readHeader(ByteFile& file);
    /// Writes sform and qform (code 1, scanner) from the LPS geometry; gzip when path ends .gz.
    static void write(const RawImage& image, const std::string& path);
};

}  // namespace lucent::io
