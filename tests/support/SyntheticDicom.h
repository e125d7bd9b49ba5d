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
    /// Added to every stored value: the time frames of a multi-temporal series differ by it.
    std::int32_t valueOffset = 0;
    /// Multi-temporal tags, written by writeSlice when not negative: TemporalPositionIdentifier,
    /// NumberOfTemporalPositions, AcquisitionNumber, TriggerTime (ms).
    int temporalPosition = -1, temporalPositions = -1, acquisitionNumber = -1;
    double triggerTime = -1;
    /// Multi-echo tags, written by writeSlice when not negative: EchoNumbers, EchoTime (ms).
    int echoNumber = -1;
    double echoTime = -1;

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
/// What tells the time frames of writeTemporalSeries apart (Echo: they are echoes, not time).
enum class TemporalTags { PositionIdentifier, TriggerTime, AcquisitionNumber, None, Echo };

/// Stored-value offset of time frame f in writeTemporalSeries: frames differ everywhere by it.
inline std::int32_t temporalOffset(int frame) { return 3000 * frame; }

/// Writes `frames` time frames of `spec` (same positions; frame f stores storedValue + temporalOffset(f))
/// as one file per image into `folder`, all frames' files in one shuffled order with shuffled
/// names. PositionIdentifier: TemporalPositionIdentifier f + 1 and NumberOfTemporalPositions;
/// TriggerTime: 100 f + 0.25 k ms (slice k: measured per slice, as scanners do); AcquisitionNumber:
/// f + 1; Echo: EchoNumbers f + 1 and EchoTime 12 + 40 f ms. InstanceNumbers are shuffled, except
/// with None, where they rise frame by frame (the only order left) and are shuffled within a
/// frame. Returns the paths, [f][k].
std::vector<std::vector<std::string>> writeTemporalSeries(const SeriesSpec& spec, int frames, TemporalTags tags,
                                                          const std::string& folder, unsigned shuffleSeed = 7);
/// Enhanced multi-frame (functional groups, per-frame positions in shuffled order). With
/// `timeFrames` > 1, every position holds that many frames, told apart by the per-frame
/// TemporalPositionIndex t + 1 (FrameContentSequence) and storing storedValue + temporalOffset(t).
void writeEnhancedMultiFrame(const SeriesSpec& spec, const std::string& path, int timeFrames = 1);
/// Legacy multi-frame: one ImagePositionPatient and SpacingBetweenSlices for all frames.
void writeLegacyMultiFrame(const SeriesSpec& spec, const std::string& path);

}  // namespace lucent::testing
