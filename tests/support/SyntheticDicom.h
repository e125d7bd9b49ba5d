/// @brief Writes synthetic DICOM series with DCMTK for tests and benchmarks: known geometry and values.
#pragma once

#include "lucent/core/Vec3.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lucent::testing {

enum class Encoding { ExplicitLittle, ImplicitLittle, ExplicitBig, Deflated, Rle, JpegLossless, JpegLs };

/// Describes a series; stored value of voxel (i, j, k) is storedValue(i, j, k).
struct SeriesSpec {
    int columns = 16, rows = 12, slices = 8;
    double columnSpacing = 0.8, rowSpacing = 0.7, sliceSpacing = 2.5;
    Vec3 rowCosine{1, 0, 0}, columnCosine{0, 1, 0};
    Vec3 origin{-20, -30, 40};
    std::string seriesUid = "1.2.826.0.1.3680043.2.1125.9.1";
    std::string frameOfReferenceUid = "1.2.826.0.1.3680043.2.1125.9.3";  ///< empty: none written
    std::string modality = "CT";
    std::string description = "synthetic";
    int bitsAllocated = 16, bitsStored = 16;
    bool isSigned = true;
    double slope = 1.0, intercept = 0.0;
    Encoding encoding = Encoding::ExplicitLittle;
    /// WindowCenter / WindowWidth / WindowCenterWidthExplanation, written verbatim when not empty
    /// (multi-valued with a backslash: "40\\400").
    std::string windowCenter, windowWidth, windowExplanation;

    Vec3 normal() const { return normalized(cross(rowCosine, columnCosine)); }
    Vec3 position(int k) const { return origin + normal() * (sliceSpacing * k); }
    /// A pattern that differs along every axis and stays inside the stored range.
    std::int32_t storedValue(int i, int j, int k) const;
};

/// Writes slice k of `spec` as one single-frame file at `path` with the given position.
void writeSlice(const SeriesSpec& spec, int k, const Vec3& position, int instanceNumber, const std::string& path);
/// Writes the whole series as one file per slice into `folder`, in shuffled order with shuffled
/// names and InstanceNumbers that do not follow the position. Returns the file paths.
std::vector<std::string> writeSeries(const SeriesSpec& spec, const std::string& folder, unsigned shuffleSeed = 7);
/// Enhanced multi-frame (functional groups, per-frame positions in shuffled order).
void writeEnhancedMultiFrame(const SeriesSpec& spec, const std::string& path);
/// Legacy multi-frame: one ImagePositionPatient and SpacingBetweenSlices for all frames.
void writeLegacyMultiFrame(const SeriesSpec& spec, const std::string& path);

}  // namespace lucent::testing
