/// @brief A scalar image volume (int16 or float32 voxels) with its geometry and descriptive metadata.
#pragma once

#include "lucent/core/Geometry.h"
#include "lucent/core/NamedWindow.h"
#include "lucent/core/VoxelBuffer.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lucent {

enum class PixelType : std::uint8_t { Int16, Float32 };

const char* pixelTypeName(PixelType type);

/// The space a volume's patient coordinates are in, as NIfTI's qform_code and sform_code name it
/// (0 unknown, 1 scanner, 2 aligned, 3 Talairach, 4 MNI-152, 5 another template): kept from a NIfTI
/// input so that what is written for it says the same; 1 (scanner) for every other input.
struct CoordinateCodes {
    std::int16_t qform = 1;
    std::int16_t sform = 1;
    bool operator==(const CoordinateCodes&) const = default;
};

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
    CoordinateCodes codes;         ///< NIfTI's qform / sform codes of the input

    /// The slices k the loader filled in for missing positions (a DICOM series with gaps: no file
    /// names them in sliceFiles), ascending; empty for every other volume. They hold no measurement.
    std::vector<int> filledSlices() const;
};

/// Voxels in stored units after rescale (HU for CT), x fastest, then y, then z.
class Volume {
public:
    Volume() = default;
    /// Zero voxels.
    Volume(const Geometry& geometry, PixelType type);
    /// Takes `voxels` as they are (a reader filled them in place); its size must be the volume's
    /// byte size, else std::invalid_argument.
    Volume(const Geometry& geometry, PixelType type, VoxelBuffer&& voxels);

    const Geometry& geometry() const { return m_geometry; }
    /// Replaces the geometry; the voxel count must not change.
    void setGeometry(const Geometry& geometry);
    PixelType pixelType() const { return m_type; }
    std::size_t voxelCount() const { return m_geometry.voxelCount(); }
    bool empty() const { return voxelCount() == 0; }

    /// The voxels when the type is int16, else nullptr.
    std::int16_t* int16Data() { return m_type == PixelType::Int16 ? reinterpret_cast<std::int16_t*>(m_voxels.data()) : nullptr; }
    const std::int16_t* int16Data() const { return const_cast<Volume*>(this)->int16Data(); }
    /// The voxels when the type is float32, else nullptr.
    float* float32Data() { return m_type == PixelType::Float32 ? reinterpret_cast<float*>(m_voxels.data()) : nullptr; }
    const float* float32Data() const { return const_cast<Volume*>(this)->float32Data(); }
    /// Raw bytes of whichever storage is in use.
    const void* data() const;
    std::size_t byteSize() const;

    double value(std::size_t index) const {
        return m_type == PixelType::Int16 ? reinterpret_cast<const std::int16_t*>(m_voxels.data())[index]
                                          : reinterpret_cast<const float*>(m_voxels.data())[index];
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
    VoxelBuffer m_voxels;
    VolumeMetadata m_metadata;
};

}  // namespace lucent
