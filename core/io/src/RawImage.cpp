/// @brief Conversions between file scalars and Volume / LabelMap.
#include "lucent/io/RawImage.h"

#include "lucent/core/Errors.h"
#include "ScalarConversion.h"
#include "VoxelRead.h"
#include "lucent/io/IoWork.h"
#include "lucent/io/ReadLimits.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace lucent::io {


namespace {

/// Which volume type the scalars become: int16 when every value is an integer that fits, float32
/// otherwise; Unknown when only the stored values can tell.
enum class Fit { Int16, Float32, Unknown };

bool fitsInt16(double lo, double hi, double slope, double intercept) {
    const double a = lo * slope + intercept, b = hi * slope + intercept;
    return std::min(a, b) >= std::numeric_limits<std::int16_t>::min() &&
           std::max(a, b) <= std::numeric_limits<std::int16_t>::max();
}

/// The fit the scalar type and rescale decide before any voxel is read.
Fit fitOfType(const RawImage& raw) {
    const bool integralScale = raw.slope == std::round(raw.slope) && raw.intercept == std::round(raw.intercept);
    if (!integralScale || raw.type == ScalarType::Float32 || raw.type == ScalarType::Float64) return Fit::Float32;
    static const std::pair<double, double> ranges[] = {
        {0, 255}, {-128, 127}, {0, 65535}, {-32768, 32767}, {0, 4294967295.0}, {-2147483648.0, 2147483647.0}};
    const auto [lo, hi] = ranges[static_cast<int>(raw.type)];
    return fitsInt16(lo, hi, raw.slope, raw.intercept) ? Fit::Int16 : Fit::Unknown;
}

std::size_t pixelBytes(PixelType type) { return type == PixelType::Int16 ? sizeof(std::int16_t) : sizeof(float); }

/// The volume from `buffer`, whose first voxelCount() scalars are the file's (host byte order):
/// the type decided (from the values when the type cannot), the buffer grown when the volume's
/// scalars are wider (checked against the read limit), converted in place and cut to size.
Volume volumeInPlace(VoxelBuffer buffer, const RawImage& raw, Fit fit, const std::string& source) {
    const std::size_t n = raw.geometry.voxelCount();
    if (fit == Fit::Unknown) {
        const auto [lo, hi] = storedRange(buffer.data(), n, raw.type);
        fit = fitsInt16(lo, hi, raw.slope, raw.intercept) ? Fit::Int16 : Fit::Float32;
    }
    const PixelType type = fit == Fit::Int16 ? PixelType::Int16 : PixelType::Float32;
    const std::size_t bytes = n * pixelBytes(type);
    if (bytes > buffer.size()) {
        // The volume may be wider than the file's scalars (uint16 -> float32): check again.
        const auto& d = raw.geometry.dims;
        imageBytes({d[0], d[1], d[2]}, pixelBytes(type), source);
        countIoWork({.bytesAllocated = bytes - buffer.size()});
        buffer.resize(bytes);
    }
    convertInPlace(buffer.data(), n, raw.type, type, raw.slope, raw.intercept);
    buffer.resize(bytes);
    Volume volume(raw.geometry, type, std::move(buffer));
    volume.metadata().sourcePath = source;
    volume.metadata().codes = raw.codes;
    return volume;
}

/// A buffer for the file's scalars that is also large enough for the volume when its type is known.
VoxelBuffer bufferFor(const RawImage& raw, Fit fit, const std::string& source) {
    const auto& d = raw.geometry.dims;
    const std::size_t stored = raw.frameBytes();
    const std::size_t wide = fit == Fit::Unknown ? 0 : imageBytes({d[0], d[1], d[2]}, fit == Fit::Int16 ? 2 : 4, source);
    VoxelBuffer buffer = VoxelBuffer::uninitialised(std::max(stored, wide));
    countIoWork({.bytesAllocated = buffer.size()});
    return buffer;
}

/// Frame `frame` of `raw.bytes` as a volume.
Volume frameToVolume(const RawImage& raw, int frame, const std::string& source) {
    const std::size_t n = raw.frameBytes(), offset = n * std::size_t(frame);
    const Fit fit = fitOfType(raw);
    VoxelBuffer buffer = bufferFor(raw, fit, source);
    std::memcpy(buffer.data(), raw.bytes.data() + offset, n);
    return volumeInPlace(std::move(buffer), raw, fit, source);
}

}  // namespace

Volume toVolume(const RawImage& raw, const std::string& source) {
    if (raw.bytes.size() < raw.frameBytes())
        throw IoError(source + ": file holds " + std::to_string(raw.bytes.size()) +
                      " bytes of voxel data, " + std::to_string(raw.frameBytes()) + " expected");
    return frameToVolume(raw, 0, source);
}

Volume readVolume(const RawImage& header, ByteFile& file) {
    checkVoxelSource(header, header.frameBytes(), file);  // before allocating what the header claims
    const Fit fit = fitOfType(header);
    VoxelBuffer buffer = bufferFor(header, fit, file.path());
    readVoxels(header, file, buffer.data(), header.frameBytes());
    return volumeInPlace(std::move(buffer), header, fit, file.path());
}

Volume toVolumeFrame(const RawImage& raw, int frame, const std::string& source) {
    if (frame == 0) return toVolume(raw, source);
    if (frame < 0 || frame >= raw.frames)
        throw IoError(source + ": no frame " + std::to_string(frame + 1) + " (the file has " + std::to_string(raw.frames) + ")");
    const std::size_t n = raw.frameBytes(), offset = n * std::size_t(frame);
    if (raw.bytes.size() < offset + n)
        throw IoError(source + ": file holds " + std::to_string(raw.bytes.size()) + " bytes of voxel data, frame " +
                      std::to_string(frame + 1) + " needs " + std::to_string(offset + n));
    return frameToVolume(raw, frame, source);
}

LabelMap toLabelMap(const RawImage& raw, const std::string& source) {
    if (raw.bytes.size() < raw.frameBytes())
        throw IoError(source + ": truncated voxel data");
    LabelMap labels(raw.geometry);
    if (raw.type == ScalarType::UInt8 && raw.slope == 1.0 && raw.intercept == 0.0) {
        std::memcpy(labels.data(), raw.bytes.data(), labels.voxelCount());
        return labels;
    }
    for (std::size_t i = 0; i < labels.voxelCount(); ++i) {
        const double v = raw.storedValue(i) * raw.slope + raw.intercept;
        if (v < 0 || v > 255 || v != std::round(v))
            throw IoError(source + ": not a label map (voxel value " + std::to_string(v) +
                          " is not an integer label in 0..255)");
        labels[i] = static_cast<std::uint8_t>(v);
    }
    return labels;
}

RawImage fromVolume(const Volume& volume) {
    RawImage raw;
    raw.geometry = volume.geometry();
    raw.type = volume.pixelType() == PixelType::Int16 ? ScalarType::Int16 : ScalarType::Float32;
    raw.borrowed = {static_cast<const char*>(volume.data()), volume.byteSize()};
    raw.codes = volume.metadata().codes;
    return raw;
}

RawImage fromLabelMap(const LabelMap& labels) {
    RawImage raw;
    raw.geometry = labels.geometry();
    raw.type = ScalarType::UInt8;
    raw.borrowed = {reinterpret_cast<const char*>(labels.data()), labels.voxelCount()};
    return raw;
}


}  // namespace lucent::io
