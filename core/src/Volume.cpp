/// @brief Volume storage and value access.
#include "lucent/core/Volume.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace lucent {

const char* pixelTypeName(PixelType type) {
    return type == PixelType::Int16 ? "int16" : "float32";
}

Volume::Volume(const Geometry& geometry, PixelType type) : m_geometry(geometry), m_type(type) {
    if (type == PixelType::Int16)
        m_int16.assign(geometry.voxelCount(), 0);
    else
        m_float32.assign(geometry.voxelCount(), 0.0f);
}

void Volume::setGeometry(const Geometry& geometry) {
    if (geometry.voxelCount() != m_geometry.voxelCount())
        throw std::invalid_argument("Volume::setGeometry: voxel count differs");
    m_geometry = geometry;
}

const void* Volume::data() const {
    return m_type == PixelType::Int16 ? static_cast<const void*>(m_int16.data())
                                      : static_cast<const void*>(m_float32.data());
}

std::size_t Volume::byteSize() const {
    return m_type == PixelType::Int16 ? m_int16.size() * sizeof(std::int16_t)
                                      : m_float32.size() * sizeof(float);
}

void Volume::setValue(std::size_t index, double v) {
    if (m_type == PixelType::Int16) {
        const double r = std::clamp(std::round(v), double(std::numeric_limits<std::int16_t>::min()),
                                    double(std::numeric_limits<std::int16_t>::max()));
        m_int16[index] = static_cast<std::int16_t>(r);
    } else {
        m_float32[index] = static_cast<float>(v);
    }
}

std::pair<double, double> Volume::range() const {
    if (empty()) return {0.0, 0.0};
    if (m_type == PixelType::Int16) {
        const auto [lo, hi] = std::minmax_element(m_int16.begin(), m_int16.end());
        return {*lo, *hi};
    }
    const auto [lo, hi] = std::minmax_element(m_float32.begin(), m_float32.end());
    return {*lo, *hi};
}

}  // namespace lucent
