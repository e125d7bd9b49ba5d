/// @brief Volume storage and value access.
#include "lucent/core/Volume.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace lucent {

std::vector<int> VolumeMetadata::filledSlices() const {
    std::vector<int> out;
    for (std::size_t k = 0; k < sliceFiles.size(); ++k)
        if (sliceFiles[k].empty()) out.push_back(int(k));
    return out;
}

const char* pixelTypeName(PixelType type) {
    return type == PixelType::Int16 ? "int16" : "float32";
}

namespace {
std::size_t voxelBytes(PixelType type) { return type == PixelType::Int16 ? sizeof(std::int16_t) : sizeof(float); }
}  // namespace

// Zero bits are 0 in int16 and 0.0f in float32.
Volume::Volume(const Geometry& geometry, PixelType type)
    : m_geometry(geometry), m_type(type), m_voxels(VoxelBuffer::zeroed(geometry.voxelCount() * voxelBytes(type))) {}

Volume::Volume(const Geometry& geometry, PixelType type, VoxelBuffer&& voxels)
    : m_geometry(geometry), m_type(type), m_voxels(std::move(voxels)) {
    if (m_voxels.size() != geometry.voxelCount() * voxelBytes(type))
        throw std::invalid_argument("Volume: voxel buffer size differs from the geometry's");
}

void Volume::setGeometry(const Geometry& geometry) {
    if (geometry.voxelCount() != m_geometry.voxelCount())
        throw std::invalid_argument("Volume::setGeometry: voxel count differs");
    m_geometry = geometry;
}

const void* Volume::data() const { return m_voxels.data(); }

std::size_t Volume::byteSize() const { return m_voxels.size(); }

void Volume::setValue(std::size_t index, double v) {
    if (m_type == PixelType::Int16) {
        const double r = std::clamp(std::round(v), double(std::numeric_limits<std::int16_t>::min()),
                                    double(std::numeric_limits<std::int16_t>::max()));
        int16Data()[index] = static_cast<std::int16_t>(r);
    } else {
        float32Data()[index] = static_cast<float>(v);
    }
}

std::pair<double, double> Volume::range() const {
    if (empty()) return {0.0, 0.0};
    const std::size_t n = voxelCount();
    if (m_type == PixelType::Int16) {
        const auto [lo, hi] = std::minmax_element(int16Data(), int16Data() + n);
        return {*lo, *hi};
    }
    const auto [lo, hi] = std::minmax_element(float32Data(), float32Data() + n);
    return {*lo, *hi};
}

}  // namespace lucent
