/// @brief Multi-temporal DICOM: a series whose slice positions repeat split into time frames on one grid.
#pragma once

#include "lucent/io/DicomRecords.h"

#include <string>
#include <vector>

namespace lucent::io {

/// The time frames found among the images of one grid (one orientation and image size).
struct TemporalSplit {
    /// False when no position repeats, or nothing tells the repeats apart as whole time frames:
    /// the images then form one volume and repeated positions are duplicates, as before.
    bool temporal = false;
    /// Complete time frames in time order, each one image per position, the same positions in all.
    std::vector<std::vector<DicomFrameHeader>> frames;
    /// What told them apart, for the user: "TemporalPositionIdentifier", "InstanceNumber order", ...
    std::string key;
    std::vector<std::string> warnings;  ///< frames dropped as incomplete, counts that disagree
    /// Set when the positions repeat over time but not one time frame has every position.
    std::string unloadableReason;
};

/// The rule. Positions (along `normal`, within 0.01 mm: the assembler's duplicate rule) that repeat
/// are time points, told apart by TemporalPositionIdentifier, else TriggerTime, else
/// AcquisitionNumber: the first tag that every image carries and whose values differ among the
/// images at each position. Images are grouped by its value, in ascending order; a group without
/// an image at every position is dropped with a warning naming it and the positions it lacks (the
/// complete frames load: a viewer shows what is there and says what is not). When the values
/// vary per slice as well (trigger times measured slice by slice) and every position has the same
/// number k of images, the i-th value at each position makes frame i. Without such a tag, k
/// distinct images at every position make k frames in InstanceNumber order. Copies of one SOP
/// instance (a file found twice) count once.
TemporalSplit splitTimeFrames(const std::vector<DicomFrameHeader>& images, Vec3 normal);

/// Adds time frames 1.. to a series whose `slices` (frame 0, fillers included) are built:
/// each frame's images sorted along `normal` take the places of frame 0's images, so every frame
/// has frame 0's grid and gaps. Sets `series.timeFrames` and `series.info.timeFrames`.
void attachTimeFrames(DicomSeries& series, std::vector<std::vector<DicomFrameHeader>> later, Vec3 normal);

}  // namespace lucent::io
