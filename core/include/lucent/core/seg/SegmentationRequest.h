/// @brief What a segmentation engine is asked to do: volume, seeds or contour, ROI, mask, parameters.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/Volume.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace lucent {

enum class Method { RegionGrowing, FuzzyConnectedness, FuzzyCMeans, Snake };

const char* methodName(Method method);  ///< "srg", "fc", "fcm", "snake"

struct VoxelIndex {
    int i = 0, j = 0, k = 0;
    friend bool operator==(const VoxelIndex&, const VoxelIndex&) = default;
};

/// Inclusive voxel box [lo, hi] limiting where an engine may label voxels.
struct VoxelBox {
    std::array<int, 3> lo{0, 0, 0}, hi{0, 0, 0};
    bool contains(int i, int j, int k) const {
        return i >= lo[0] && i <= hi[0] && j >= lo[1] && j <= hi[1] && k >= lo[2] && k <= hi[2];
    }
};

struct RegionGrowingParams {
    double lower = 0, upper = 0;  ///< inclusion interval in stored units (HU for CT)
    int connectivity = 6;         ///< 6 or 26
};

struct FuzzyConnectednessParams {
    double threshold = 0.5;              ///< object = connectivity >= threshold (0..1)
    std::optional<double> objectMean;    ///< M; estimated around the seeds when absent
    std::optional<double> objectSigma;   ///< S
    std::optional<double> diffSigma;     ///< D
    int estimateRadius = 2;              ///< half-size of the cube around each seed used to estimate
};

struct FuzzyCMeansParams {
    int clusters = 3;
    double fuzziness = 2.0;      ///< m > 1
    double epsilon = 0.005;      ///< stop when no membership changes by more than this
    int maxIterations = 300;
    bool perVoxel = false;       ///< iterate over voxels instead of the intensity histogram (same result)
};

struct SnakeParams {
    int slice = 0;                    ///< k of the slice to segment
    std::array<int, 4> rect{0, 0, 0, 0};  ///< i0, j0, i1, j1: the starting rectangle
    int stepMax = 32;                 ///< initial move distance d (halved down to 1)
    int minSegment = 8;               ///< a node is added in the middle of segments at least this long (pixels)
    bool propagate = false;           ///< continue on neighbouring slices to build a 3D mask
};

/// Every parameter a run needs; engines read the block of their method.
struct SegmentationRequest {
    const Volume* volume = nullptr;
    std::vector<VoxelIndex> seeds;     ///< srg, fc
    std::optional<VoxelBox> roi;       ///< only voxels inside are labelled (all methods)
    const LabelMap* mask = nullptr;    ///< only voxels with a non-zero mask are labelled
    unsigned threads = 0;              ///< 0: all cores
    RegionGrowingParams regionGrowing;
    FuzzyConnectednessParams fuzzyConnectedness;
    FuzzyCMeansParams fuzzyCMeans;
    SnakeParams snake;
};

/// Throws std::invalid_argument with a one-line message when the request cannot be run
/// (no volume, seeds outside it, bad parameters, mask on another grid).
void validateRequest(Method method, const SegmentationRequest& request);

}  // namespace lucent
