/// @brief What the Segment panel holds between runs: the method chosen, the seeds, every method's
/// parameters, the backend and the iterations per step (a session saves and restores it).
#pragma once

#include "lucent/core/seg/SegmentationRequest.h"

#include <QString>

#include <optional>

namespace lucent::ui {

struct SegmentSettings {
    /// The method whose page and view tool are up; none before one was chosen.
    std::optional<Method> mode;
    /// Seeds and the blocks of all four methods (volume and mask pointers stay null).
    SegmentationRequest request;
    QString backend = "auto";  ///< "auto", "cpu" or "cuda"
    int stepsPerFrame = 1;
};

}  // namespace lucent::ui
