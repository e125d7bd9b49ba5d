/// @brief The region snake's finished slices and its propagation to neighbouring slices, shared by
/// the CPU and CUDA engines: which slice comes next and from which polygon, the contours JSON, and
/// the labels the polygons enclose.
#pragma once

#include "lucent/core/JsonWriter.h"
#include "lucent/core/seg/SegmentationRequest.h"
#include "lucent/core/seg/SnakeCriterion.h"
#include "lucent/core/seg/SnakeGeometry.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace lucent {

/// The pixels the snake sees on every slice: the request's snake.domain, or the whole slice.
SnakeBounds snakeBounds(const SegmentationRequest& request);
/// The starting rectangle (i0, j0, i1, j1) clipped to snakeBounds; i0 > i1 or j0 > j1 when they
/// do not meet.
std::array<int, 4> snakeStartRect(const SegmentationRequest& request);
/// snakeStartRect as the first polygon, clockwise in image coordinates (y down): the orientation
/// whose region sums come out positive.
std::vector<PixelPoint> snakeStartPolygon(const SegmentationRequest& request);

/// The finished polygon of one slice and the GL values of its steps.
struct SnakeSliceResult {
    int slice = 0;
    std::vector<PixelPoint> polygon;
    std::vector<double> glHistory;  ///< GL after every step, the start first
};

/// Where the snake goes after a slice: the slice, the polygon it starts from, the move distance.
struct SnakeNextSlice {
    int slice = 0;
    std::vector<PixelPoint> polygon;
    int d = 1;
};

/// Sets to 1 the pixels inside `polygon` on a `width` x `height` slice (x fastest), by the row
/// crossings every snake backend labels with; pixels outside are left as they are.
void rasterisePolygon(const std::vector<PixelPoint>& polygon, int width, int height, std::uint8_t* slice);

class SnakeSlices {
public:
    /// Forgets every slice; `request` must outlive this object's use of it.
    void reset(const SegmentationRequest& request);

    /// Records a finished slice. Without propagation the run ends (nullopt). With it, the snake goes
    /// on to the neighbour while the same object is still there (enough area, enough contrast, a
    /// mean within 3 sigma of the first slice's), first upwards, then downwards from the first
    /// slice, never beyond the ROI's slices k0..k1 (whose labels would be dropped); a slice that
    /// lost the object is dropped. `target` and `background` are the region
    /// sums of the finished polygon (exact for int16, converted to double).
    std::optional<SnakeNextSlice> finish(SnakeSliceResult slice, const RegionSums& target,
                                         const RegionSums& background);
    /// Records the slice in progress as it is (cancel keeps what was reached).
    void keep(SnakeSliceResult slice) { m_done.push_back(std::move(slice)); }

    const std::vector<SnakeSliceResult>& done() const { return m_done; }
    /// The voxels whose labels the slices finished since done()[from] set: their polygons' box on
    /// their slices (a step's StepReport::changed); nullopt when none finished.
    std::optional<VoxelBox> changedSince(std::size_t from) const;
    /// {"slices": [{"slice", "polygon", "gl"}]}
    void writeContours(JsonWriter& json) const;
    /// Labels on the volume's grid: 1 inside every finished polygon (pixel (i, y) is inside when
    /// ceil(x_left) <= i < ceil(x_right), the rule of the region sums), 0 elsewhere and outside
    /// the request's ROI and mask. Every voxel is written.
    void rasterise(std::uint8_t* labels) const;

private:
    const SegmentationRequest* m_request = nullptr;
    std::vector<SnakeSliceResult> m_done;
    int m_direction = 0;  // 0: first slice; +1 / -1: propagating
    double m_startArea = 0, m_startContrast = 0, m_startMean = 0, m_startSigma = 0;
};

}  // namespace lucent
