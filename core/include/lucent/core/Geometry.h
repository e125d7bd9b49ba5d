/// @brief Voxel grid geometry in DICOM patient coordinates (LPS, millimetres).
#pragma once

#include "lucent/core/Vec3.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace lucent {

/// Dimensions, spacing, origin and direction cosines of a voxel grid.
/// Index (i, j, k): i runs along columns (x), j along rows (y), k along slices (z).
/// patient = origin + direction * (spacing (.) index); direction's columns are the unit vectors of
/// the i, j and k axes in LPS (for DICOM: row cosine, column cosine, slice normal).
struct Geometry {
    std::array<int, 3> dims{0, 0, 0};
    Vec3 spacing{1, 1, 1};
    Vec3 origin{0, 0, 0};
    Mat3 direction{};

    std::size_t voxelCount() const {
        return static_cast<std::size_t>(dims[0]) * static_cast<std::size_t>(dims[1]) *
               static_cast<std::size_t>(dims[2]);
    }
    std::size_t sliceSize() const {
        return static_cast<std::size_t>(dims[0]) * static_cast<std::size_t>(dims[1]);
    }
    /// Linear index of voxel (i, j, k), x fastest.
    std::size_t index(int i, int j, int k) const {
        return (static_cast<std::size_t>(k) * dims[1] + j) * dims[0] + i;
    }
    bool contains(int i, int j, int k) const {
        return i >= 0 && j >= 0 && k >= 0 && i < dims[0] && j < dims[1] && k < dims[2];
    }

    /// Patient position (mm) of a continuous voxel index.
    Vec3 voxelToPatient(Vec3 ijk) const;
    /// Continuous voxel index of a patient position.
    Vec3 patientToVoxel(Vec3 patient) const;
    /// Same grid (dimensions, and positions within tolerance mm over the whole extent).
    bool sameGrid(const Geometry& other, double toleranceMm = 1e-3) const;
    /// Volume of one voxel in millilitres.
    double voxelVolumeMl() const { return spacing.x * spacing.y * spacing.z / 1000.0; }
};

}  // namespace lucent
