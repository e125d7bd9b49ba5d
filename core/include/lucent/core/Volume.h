/// @brief A scalar image volume (int16 or float32 voxels) with its geometry and descriptive metadata.
#pragma once

#include "lucent/core/Geometry.h"
#include "lucent/core/NamedWindow.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lucent {

enum class PixelType : std::uint8_t { Int16, Float32 };

const char* pixelTypeName(PixelType type);

/// What a viewer shows about where a volume came from.
struct VolumeMetadata {
    std::string modality;          ///< DICOM Modality (CT, MR, ...) or empty
    std::string description;       ///< SeriesDescription or file name
    std::string seriesUid;         ///< SeriesInstanceUID or empty
    std::string patientName;
    std::string studyDescription;
    std::string sourcePath;        ///< folder or file it was read from
    std::vector<std::string> sliceFiles;  ///< DICOM: the file of each slice k (empty for gaps)
    /// The scan's own display windows (DICOM Window Center / Width), first = the one to open with.
    std::vector<NamedWindow> windows;
};

/// Voxels in stored units after rescale (HU for CT), x fastest, then y, then z.
class Volume {
public:
    Volume() = default;
    Volume(const Geometry& geometry, PixelType type);

    const Geometry& geometry() const { return m_geometry; }
    /// Replaces the geometry; the voxel count must not change.
    void setGeometry(const Geometry& geometry);
    PixelType pixelType() const { return m_type; }
    std::size_t voxelCount() const { return m_geometry.voxelCount(); }
    bool empty() const { return voxelCount() == 0; }

    std::int16_t* int16Data() { return m_int16.data(); }
    const std::int16_t* int16Data() const { return m_int16.data(); }
    float* float32Data() { return m_float32.data(); }
    const float* float32Data() const { return m_float32.data(); }
    /// Raw bytes of whichever storage is in use.
    const void* data() const;
    std::size_t byteSize() const;

    double value(std::size_t index) const {
        return m_type == PixelType::Int16 ? m_int16[index] : m_float32[index];
    }
    double value(int i, int j, int k) const { return value(m_geometry.index(i, j, k)); }
    void setValue(std::size_t index, double v);

    /// Smallest and largest voxel value.
    std::pair<double, double> range() const;

    VolumeMetadata& metadata() { return m_metadata; }
    const VolumeMetadata& metadata() const { return m_metadata; }

private:
    Geometry m_geometry;
    PixelType m_type = PixelType::Int16;
    std::vector<std::int16_t> m_int16;
    std::vector<float> m_float32;
    VolumeMetadata m_metadata;
};

}  // namespace lucent
