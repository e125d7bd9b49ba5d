/// @brief Decodes the frames of one DICOM file (any supported transfer syntax) to stored values.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace lucent::io {

/// Stored pixel values of one frame, already masked to BitsStored and sign-extended.
using FrameSink = std::function<void(int frame, const std::int32_t* values, std::size_t count)>;

/// Loads `file` whole, decompresses it, and calls `sink` for every frame in `frames` (indices).
/// Throws IoError naming the file and the transfer syntax on any failure.
void decodeDicomFrames(const std::string& file, const std::vector<int>& frames, int bitsStored, int highBit,
                       bool isSigned, const FrameSink& sink);

}  // namespace lucent::io
