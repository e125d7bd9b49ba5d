/// @brief What a segmentation engine is asked to do: volume, seeds or contour, ROI, mask, parameters.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/Volume.h"
#include "lucent/core/seg/HostDevice.h"
#include "lucent/core/seg/Methods.h"
#include "lucent/core/seg/ParameterLimits.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lucent {

struct VoxelIndex {
    int i = 0, j = 0, k = 0;
    friend bool operator==(const VoxelIndex&, const VoxelIndex&) = default;
};

/// Inclusive voxel box [lo, hi] limiting where an engine may label voxels.
struct VoxelBox {
    std::array<int, 3> lo{0, 0, 0}, hi{0, 0, 0};
    LUCENT_HD bool contains(int i, int j, int k) const {
        return i >= lo[0] && i <= hi[0] && j >= lo[1] && j <= hi[1] && k >= lo[2] && k <= hi[2];
    }
    LUCENT_HD bool empty() const { return lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2]; }
    /// Voxels inside the box (0 when empty).
    std::size_t voxelCount() const {
        return empty() ? 0 : std::size_t(hi[0] - lo[0] + 1) * std::size_t(hi[1] - lo[1] + 1) * std::size_t(hi[2] - lo[2] + 1);
    }
    /// Widens the box to hold voxel (i, j, k).
    void add(int i, int j, int k) {
        lo = {i < lo[0] ? i : lo[0], j < lo[1] ? j : lo[1], k < lo[2] ? k : lo[2]};
        hi = {i > hi[0] ? i : hi[0], j > hi[1] ? j : hi[1], k > hi[2] ? k : hi[2]};
    }
    /// A box that holds nothing (lo > hi), to add() voxels to.
    static VoxelBox none() { return {{1 << 30, 1 << 30, 1 << 30}, {-1, -1, -1}}; }
};

/// The smallest box holding `a` and `b`; an empty `b` adds nothing.
inline std::optional<VoxelBox> merge(std::optional<VoxelBox> a, const VoxelBox& b) {
    if (b.empty()) return a;
    if (!a) return b;
    for (int d = 0; d < 3; ++d) {
        a->lo[d] = a->lo[d] < b.lo[d] ? a->lo[d] : b.lo[d];
        a->hi[d] = a->hi[d] > b.hi[d] ? a->hi[d] : b.hi[d];
    }
    return a;
}

/// The voxels both boxes hold (empty when they do not overlap).
inline VoxelBox intersect(const VoxelBox& a, const VoxelBox& b) {
    VoxelBox c;
    for (int d = 0; d < 3; ++d) {
        c.lo[d] = a.lo[d] > b.lo[d] ? a.lo[d] : b.lo[d];
        c.hi[d] = a.hi[d] < b.hi[d] ? a.hi[d] : b.hi[d];
    }
    return c;
}

struct RegionGrowingParams {
    double lower = 0, upper = 0;  ///< inclusion interval in stored units (HU for CT)
    int connectivity = kRegionGrowingLimits.connectivity;  ///< 6 or 26
};

struct FuzzyConnectednessParams {
    double threshold = kFuzzyConnectednessLimits.threshold.byDefault;  ///< object = connectivity >= threshold (0..1)
    std::optional<double> objectMean;    ///< M; estimated around the seeds when absent
    std::optional<double> objectSigma;   ///< S
    std::optional<double> diffSigma;     ///< D
    /// Half-size of the cube around each seed used to estimate.
    int estimateRadius = kFuzzyConnectednessLimits.estimateRadius.byDefault;
    /// The object at `threshold` only, not the connectivity map: the seeds' component over the
    /// face edges whose affinity reaches the threshold (the same voxels), with no 16-bit map of the
    /// volume. For a batch run that writes no map; a new threshold then recomputes, and there is
    /// no soft map. CUDA engines keep their map on the device and ignore it.
    bool objectOnly = false;
};

struct FuzzyCMeansParams {
    int clusters = kFuzzyCMeansLimits.clusters.byDefault;
    double fuzziness = kFuzzyCMeansLimits.fuzziness.byDefault;  ///< m > 1
    double epsilon = kFuzzyCMeansLimits.epsilon.byDefault;      ///< stop when no membership changes by more than this
    int maxIterations = kFuzzyCMeansLimits.maxIterations.byDefault;
    bool perVoxel = false;       ///< iterate over voxels instead of the intensity histogram (same result)
    bool deviceMemberships = false;  ///< CUDA: keep float memberships on the device, written with the labels in one pass
};

struct SnakeParams {
    int slice = 0;                    ///< k of the slice to segment
    std::array<int, 4> rect{0, 0, 0, 0};  ///< i0, j0, i1, j1: the starting rectangle
    int stepMax = kSnakeLimits.stepMax.byDefault;        ///< initial move distance d (halved down to 1)
    /// A node is added in the middle of segments at least this long (pixels).
    int minSegment = kSnakeLimits.minSegment.byDefault;
    bool propagate = false;           ///< continue on neighbouring slices to build a 3D mask
    /// i0, j0, i1, j1 (inclusive) on every slice: the image the method sees; none = the whole slice
    /// (the paper's setting). The starting rectangle is clipped to it.
    std::optional<std::array<int, 4>> domain;
};

/// The 3D snake: a binary level set started from a box and / or bubbles (the request's seeds, each a
/// ball of radius radiiMm), evolved over a domain (the request's ROI, or the start grown by a margin).
struct Snake3dParams {
    std::optional<VoxelBox> box;     ///< start box, corners included (voxel indices)
    /// Bubble radii in mm: none = kSnake3dLimits.radiusMm.byDefault for every seed, one = every seed,
    /// else one a seed in the seeds' order.
    std::vector<double> radiiMm;
    /// The domain around the start, in mm on each side; none = the 2D snake's percentage rule. An ROI wins.
    std::optional<double> marginMm;
    int iterations = kSnake3dLimits.iterations.byDefault;  ///< 0: until convergence
    int smoothing = kSnake3dLimits.smoothing.byDefault;    ///< curvature operators an iteration
    /// The values the run sees: each voxel's value clamped to [lower, upper] in the statistics and the
    /// region term (on int16 data the bounds rounded to whole values: Snake3dClamp), so that bone or air
    /// in the domain weighs no more than the range's end (the viewer passes its window); none: as stored.
    std::optional<ValueRange> clip;
};

/// Grow from seeds: every voxel takes the label of the seed it reaches along the least summed change.
struct GrowCutParams {
    /// The seeds: a label volume on the volume's grid (kGrowCutLimits.label: 1..255; 0 = no seed).
    /// Not owned; engines copy what they keep, so a caller may paint into it between update()s.
    const LabelMap* seeds = nullptr;
    /// For update(): the seeds differ from those of the engine's last start or update only inside this
    /// box (the viewer knows the box of the strokes since), so only the box is compared and uploaded;
    /// none: the whole map is. A promise: a change outside the box is not seen.
    std::optional<VoxelBox> changedBox;
};

/// Every parameter a run needs; engines read the block of their method.
struct SegmentationRequest {
    const Volume* volume = nullptr;
    std::vector<VoxelIndex> seeds;     ///< srg, fc; snake3d: bubble centres
    std::optional<VoxelBox> roi;       ///< only voxels inside are labelled (all methods)
    const LabelMap* mask = nullptr;    ///< only voxels with a non-zero mask are labelled
    unsigned threads = 0;              ///< 0: all cores
    RegionGrowingParams regionGrowing;
    FuzzyConnectednessParams fuzzyConnectedness;
    FuzzyCMeansParams fuzzyCMeans;
    SnakeParams snake;
    Snake3dParams snake3d;
    GrowCutParams growCut;
};

/// Throws std::invalid_argument with a one-line message when the request cannot be run
/// (no volume, seeds outside it, a parameter outside its limits (ParameterLimits.h), mask on
/// another grid).
void validateRequest(Method method, const SegmentationRequest& request);

/// The checks of validateRequest that need no volume: the method's parameters within their limits
/// (ParameterLimits.h), srg's lower bound not above its upper; std::invalid_argument otherwise. The
/// CLI calls it before loading anything, so that an option out of range is a usage error.
void validateParameters(Method method, const SegmentationRequest& request);

/// True when both requests segment the same volume inside the same ROI and mask (what every
/// incremental update() needs before it can keep its state).
bool sameScope(const SegmentationRequest& a, const SegmentationRequest& b);

/// Region growing: `next` only widens `now` (interval, seeds; same connectivity and scope), so a
/// run grows on from its region instead of starting again. Shared by the CPU and CUDA engines.
bool growsOn(const SegmentationRequest& now, const SegmentationRequest& next);
/// Fuzzy connectedness: `next` keeps the connectivity map of `now` (only the threshold differs).
bool keepsConnectivityMap(const SegmentationRequest& now, const SegmentationRequest& next);
/// Grow from seeds: when `next` only adds seeds to `now` (every seed of `now` kept with its label, same
/// scope), the box of the voxels whose seed is new (empty when none is), so a run goes on from its
/// distances instead of starting again; nullopt otherwise. `nowSeeds` is the copy of now's seeds the
/// engine kept (the caller may have painted into now's map since). One pass on all cores over
/// next.growCut.changedBox, or over the whole map without one.
std::optional<VoxelBox> addedSeeds(const std::vector<std::uint8_t>& nowSeeds, const SegmentationRequest& now,
                                   const SegmentationRequest& next);

/// The snake's ROI is the image it sees (its statistics and nodes stay within i0..i1, j0..j1 on
/// every slice), not only a clip of its result: the whole slice's strongest two-region split would
/// otherwise win. Its k0..k1 still limit the result and the propagation. Sets the snake's domain
/// from the request's ROI (nothing without one); the CLI and the Python module both call it.
inline void snakeDomainFromRoi(SegmentationRequest& request) {
    if (request.roi) request.snake.domain = {request.roi->lo[0], request.roi->lo[1], request.roi->hi[0], request.roi->hi[1]};
}

/// The box of the whole grid.
inline VoxelBox wholeBox(const Geometry& g) { return {{0, 0, 0}, {g.dims[0] - 1, g.dims[1] - 1, g.dims[2] - 1}}; }

}  // namespace lucent
