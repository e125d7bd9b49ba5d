/// @brief The steppable engine interface shared by every method and backend.
#pragma once

#include "lucent/core/JsonWriter.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace lucent {

/// What one call of step() did; cheap to make every frame.
struct StepReport {
    int iterations = 0;          ///< iterations done since start()
    double progress = 0.0;       ///< 0..1, an estimate
    double convergence = 0.0;    ///< method's figure: front size (srg), voxels settled (fc),
                                 ///< largest membership change (fcm), GL criterion (snake)
    bool finished = false;
    /// Snake: the current polygon (pixel coordinates on the slice); empty for other methods.
    std::vector<std::array<double, 2>> polygon;
};

class Segmenter {
public:
    virtual ~Segmenter() = default;
    virtual Method method() const = 0;
    virtual const char* backend() const = 0;  ///< "cpu" or "cuda"
    /// Validates and prepares; throws std::invalid_argument with a clear message.
    virtual void start(const SegmentationRequest& request) = 0;
    /// Advances by up to maxIterations of the method's own iterations.
    virtual StepReport step(int maxIterations) = 0;
    virtual bool finished() const = 0;
    /// Stops early; result() then holds the state reached so far.
    virtual void cancel() = 0;
    /// Labels: 0/1 (srg, fc, snake) or 0..C (fcm), on the volume's grid.
    virtual void result(LabelMap& out) const = 0;
    /// Soft maps on the volume's grid: fc one connectivity map (0..1), fcm one membership map per
    /// cluster (in label order); none for srg and snake.
    virtual std::vector<Volume> softMaps() const { return {}; }
    /// Adds method-specific figures (estimated parameters, centres) to an open JSON object.
    virtual void describe(JsonWriter&) const {}
    /// Snake: writes {"slices": [{"slice", "polygon", "gl"}]}; false for methods without contours.
    virtual bool writeContours(JsonWriter&) const { return false; }
    /// Runs step() until finished; returns the last report.
    StepReport run(int iterationsPerStep = 64);
};

}  // namespace lucent
