/// @brief What the Segment panel holds between runs: the method chosen, the seeds, every method's
/// parameters, the backend and the iterations per step (a session saves and restores it).
#pragma once

#include "lucent/core/seg/Backend.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <QString>

#include <optional>
#include <vector>

namespace lucent::ui {

/// Engine iterations a frame: the panel's spin box and the session file.
inline constexpr Limit<int> kStepsPerFrame{1, 1, 1000};

/// The snake's domain in the viewer: the drawn rectangle grown on each side by this percentage of its
/// larger side (at least kSnakeMinMarginPixels), so that a box around a structure gives that
/// structure; -1 is the whole slice (the paper's own setting). Small by default: a domain that
/// reaches the skull makes brain against bone the strongest split again.
inline constexpr Limit<int> kSnakeDomainMargin{kSnake3dLimits.marginPercent, -1, 200};
inline constexpr int kSnakeMinMarginPixels = kSnake3dLimits.minMarginVoxels;

/// The 3D snake's box drawn on a slice view reaches through this many slices along the view's normal,
/// centred on the slice it was drawn on: a lateral ventricle's body spans about 20 slices of a head CT.
inline constexpr Limit<int> kSnake3dDepth{15, 1, 2048};

struct SegmentSettings {
    /// The method whose page and view tool are up; none before one was chosen.
    std::optional<Method> mode;
    /// Seeds and the blocks of all four methods (volume and mask pointers stay null).
    SegmentationRequest request;
    QString backend = backendKey(Backend::Auto);  ///< a key of backendTable()
    int stepsPerFrame = kStepsPerFrame.byDefault;
    int snakeDomainMargin = kSnakeDomainMargin.byDefault;  ///< percent; -1: the whole slice
    /// The 3D snake's bubbles (their radii: request.snake3d.radiiMm, one a bubble), the depth of a box
    /// drawn next and the radius of the next bubble; its box and parameters are request.snake3d's.
    std::vector<VoxelIndex> snake3dSeeds;
    int snake3dDepth = kSnake3dDepth.byDefault;
    double snake3dRadius = kSnake3dLimits.radiusMm.byDefault;
    /// A 3D snake run takes the view's window at its start as its clip (request.snake3d.clip keeps the
    /// range the last run used); off: the values as stored.
    bool snake3dClipToWindow = true;
};

}  // namespace lucent::ui
