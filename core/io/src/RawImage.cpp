/// @brief Conversions between file scalars and Volume / LabelMap.
#include "lucent/io/RawImage.h"

#include "lucent/core/Errors.h"
#include "lucent/io/IoWork.h"
#include "lucent/io/ReadLimits.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace lucent::io {

std::size_t scalarSize(ScalarType type) {
    switch (type) {
    case ScalarType::UInt8:
    case ScalarType::Int8: return 1;
    case ScalarType::UInt16:
    case ScalarType::Int16: return 2;
    case ScalarType::UInt32:
    case ScalarType::Int32:
    case ScalarType::Float32: return 4;
    case ScalarType::Float64: return 8;
    }
    return 1;
}

namespace {
template <typename T>
T load(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
}  // namespace

double RawImage::storedValue(std::size_t index) const {
    const char* p = bytes.data() + index * scalarSize(type);
    switch (type) {
    case ScalarType::UInt8: return load<std::uint8_t>(p);
    case ScalarType::Int8: return load<std::int8_t>(p);
    case ScalarType::UInt16: return load<std::uint16_t>(p);
    case ScalarType::Int16: return load<std::int16_t>(p);
    case ScalarType::UInt32: return load<std::uint32_t>(p);
    case ScalarType::Int32: return load<std::int32_t>(p);
    case ScalarType::Float32: return load<float>(p);
    case ScalarType::Float64: return load<double>(p);
    }
    return 0;
}

Volume toVolume(const RawImage& raw, const std::string& source) {
    const std::size_t n = raw.geometry.voxelCount();
    if (raw.bytes.size() < raw.frameBytes())
        throw IoError(source + ": file holds " + std::to_string(raw.bytes.size()) +
                      " bytes of voxel data, " + std::to_string(raw.frameBytes()) + " expected");
    const bool integralScale = raw.slope == std::round(raw.slope) && raw.intercept == std::round(raw.intercept);
    bool fitsInt16 = integralScale && raw.type != ScalarType::Float32 && raw.type != ScalarType::Float64;
    if (fitsInt16 && raw.type != ScalarType::Int16) {
        for (std::size_t i = 0; i < n && fitsInt16; ++i) {
            const double v = raw.storedValue(i) * raw.slope + raw.intercept;
            fitsInt16 = v >= std::numeric_limits<std::int16_t>::min() && v <= std::numeric_limits<std::int16_t>::max();
        }
    }
    // The volume may be wider than the file's scalars (uint8 -> int16, int32 -> float32): check again.
    const auto& d = raw.geometry.dims;
    imageBytes({d[0], d[1], d[2]}, fitsInt16 ? 2 : 4, source);
    Volume volume(raw.geometry, fitsInt16 ? PixelType::Int16 : PixelType::Float32);
    countIoWork({.bytesAllocated = volume.byteSize()});
    if (fitsInt16 && raw.type == ScalarType::Int16 && raw.slope == 1.0 && raw.intercept == 0.0) {
        std::memcpy(volume.int16Data(), raw.bytes.data(), n * sizeof(std::int16_t));
    } else {
        for (std::size_t i = 0; i < n; ++i) volume.setValue(i, raw.storedValue(i) * raw.slope + raw.intercept);
    }
    volume.metadata().sourcePath = source;
    return volume;
}

Volume toVolumeFrame(const RawImage& raw, int frame, const std::string& source) {
    if (frame == 0) return toVolume(raw, source);
    if (frame < 0 || frame >= raw.frames)
        throw IoError(source + ": no frame " + std::to_string(frame + 1) + " (the file has " + std::to_string(raw.frames) + ")");
    const std::size_t n = raw.frameBytes(), offset = n * std::size_t(frame);
    if (raw.bytes.size() < offset + n)
        throw IoError(source + ": file holds " + std::to_string(raw.bytes.size()) + " bytes of voxel data, frame " +
                      std::to_string(frame + 1) + " needs " + std::to_string(offset + n));
    // A shell around one frame's bytes, so that every frame follows toVolume()'s type rule.
    RawImage one;
    one.geometry = raw.geometry;
    one.type = raw.type;
    one.slope = raw.slope;
    one.intercept = raw.intercept;
    one.bytes.assign(raw.bytes.begin() + std::ptrdiff_t(offset), raw.bytes.begin() + std::ptrdiff_t(offset + n));
    countIoWork({.bytesAllocated = n});
    return toVolume(one, source);
}

LabelMap toLabelMap(const RawImage& raw, const std::string& source) {
    if (raw.bytes.size() < raw.frameBytes())
        throw IoError(source + ": truncated voxel data");
    LabelMap labels(raw.geometry);
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
    const auto* p = static_cast<const char*>(volume.data());
    raw.bytes.assign(p, p + volume.byteSize());
    return raw;
}

RawImage fromLabelMap(const LabelMap& labels) {
    RawImage raw;
    raw.geometry = labels.geometry();
    raw.type = ScalarType::UInt8;
    const auto* p = reinterpret_cast<const char*>(labels.data());
    raw.bytes.assign(p, p + labels.voxelCount());
    return raw;
}

void swapBytes(char* data, std::size_t count, std::size_t size) {
    if (size == 1) return;
    for (std::size_t i = 0; i < count; ++i) std::reverse(data + i * size, data + (i + 1) * size);
}

}  // namespace lucent::io
