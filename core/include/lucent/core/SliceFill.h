/// @brief Fill between slices: a label drawn on some slices of one axis is filled on the slices
/// between them by shape-based interpolation, label by label (issue 41).
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/Progress.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lucent {

/// How the shape between two labelled slices is made.
enum class FillMethod {
    /// Albu et al. 2008: regions moved onto each other's centroid, their morphological median,
    /// recursively. The default: the better on the shapes measured (tests/core/SliceFillTest.cpp).
    Morphological,
    /// The baseline: a weighted mean of the two slices' signed distance maps, thresholded at 0.
    SignedDistance,
};

/// "morphological" or "signed-distance" (`lucent interpolate --method`).
const char* fillMethodKey(FillMethod method);
/// The method whose key is `key`; std::invalid_argument naming the keys otherwise.
FillMethod fillMethodFromKey(const std::string& key);

struct SliceFillOptions {
    int axis = -1;                     ///< 0 (i), 1 (j), 2 (k); -1: sparseAxis()
    std::vector<std::uint8_t> labels;  ///< the labels to fill; empty: every label present
    FillMethod method = FillMethod::Morphological;
    unsigned threads = 0;  ///< 0: all cores
};

struct LabelFillFigures {
    std::uint8_t label = 0;
    int labelledSlices = 0;  ///< slices of the axis holding the label before the fill
    int filledSlices = 0;    ///< slices between them that gained a voxel
    std::size_t voxelsAdded = 0;
};

struct SliceFillReport {
    int axis = 2;
    std::vector<LabelFillFigures> labels;  ///< in the order of the labels filled
};

/// The axis along which `labels` (empty: every label) are sparse: the one with the largest share of
/// empty slices within each label's span (from the first slice holding it to the last), summed over
/// the labels, so that a label drawn on every slice does not hide another's gaps. Ties go to k, then
/// j. -1 when no chosen label has a voxel.
int sparseAxis(const LabelMap& map, const std::vector<std::uint8_t>& labels = {});

/// The axis's letter, "i", "j" or "k".
const char* axisName(int axis);

/// What a fill does: the axis and each chosen label's labelled slices, from one pass over the map.
/// The CPU and CUDA fills both start from it, so they pick the same axis and gaps.
struct SliceFillPlan {
    int axis = 2;
    /// Chosen labels holding a voxel, ascending, each with its labelled slices (ascending).
    std::vector<std::pair<std::uint8_t, std::vector<int>>> labels;
    std::size_t gaps = 0;  ///< pairs of consecutive labelled slices with a slice between, all labels
};

/// The plan for `options` (its axis, or the sparse axis; k when nothing is labelled).
/// std::invalid_argument for an axis outside 0..2.
SliceFillPlan planSliceFill(const LabelMap& map, const SliceFillOptions& options);

/// The pairs (first, last) of consecutive labelled slices with a slice between them.
std::vector<std::pair<int, int>> sliceGaps(const std::vector<int>& labelled);

/// Fills each chosen label between its labelled slices on the axis, in place.
///
/// Rules: a label's labelled slices are the slices of the axis holding a voxel of it; only slices
/// strictly between two consecutive ones are filled, never past the first or the last (no
/// extrapolation), and labelled slices are left exactly as they were. On each such pair of slices the
/// label's 8-connected regions are matched by overlap: regions that overlap (directly or through
/// another region: one region on one slice and two on the next, a branch) are interpolated
/// together; a region that overlaps none ends (or starts) between the slices, shrinking to nothing
/// halfway. Only background voxels (0) change: other labels are never overwritten, and where two
/// chosen labels reach the same voxel the lower label value has it.
///
/// Gaps run on `threads` threads; `progress` gets (gaps done, gaps) and may cancel: Cancelled is
/// thrown then, with `map` filled only in part (run it on a copy to keep the original).
/// std::invalid_argument for an axis outside 0..2.
SliceFillReport fillBetweenSlices(LabelMap& map, const SliceFillOptions& options,
                                  const ProgressCallback& progress = {});

}  // namespace lucent
