/// @brief What the Segment model needs of a live run: start, new parameters, accept, cancel, and
/// the snake's polygons. LiveSegmentation is the one the viewer uses; model tests use a recording one.
#pragma once

#include "lucent/core/seg/SegmentationRequest.h"
#include "lucent/gpu/SegmenterFactory.h"

#include <QString>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lucent::ui {

class SegmentationRunner {
public:
    virtual ~SegmentationRunner() = default;

    virtual void setBackend(gpu::Backend backend) = 0;
    virtual void setStepsPerFrame(int steps) = 0;
    /// Starts `method` on the viewer's volume; plays at once unless `play` is false. False with
    /// `error` when it cannot start.
    virtual bool start(Method method, SegmentationRequest request, bool play = true, QString* error = nullptr) = 0;
    /// New parameters for the running method.
    virtual void update(const SegmentationRequest& request) = 0;
    virtual void cancel() = 0;
    /// Writes the result into the label layer (non-zero -> `label`) as one undoable step.
    virtual bool accept(std::uint8_t label, const QString& description) = 0;
    /// Fuzzy C-means: result label r -> labelFor[r] (0 leaves the voxel).
    virtual bool accept(const std::array<std::uint8_t, 256>& labelFor, const QString& description) = 0;

    /// Draws only the result values whose entry in `shown` (value v at v - 1) is true, or that lie
    /// beyond it (fuzzy C-means' ticked clusters); an empty list shows all.
    virtual void showOnlyValues(const std::vector<bool>& shown) = 0;

    virtual bool active() const = 0;  ///< a run exists (starting, running, paused or finished)
    /// Voxels of the run's result as the views show it (0 while starting, or after a refused update).
    virtual std::size_t voxels() const = 0;
    virtual Method method() const = 0;
    virtual const SegmentationRequest& request() const = 0;

    /// A snake polygon and the slice it lies on (a propagating run moves from slice to slice).
    struct SlicePolygon {
        std::vector<std::array<double, 2>> points;
        int slice = -1;
    };
    /// Snake: polygon `index` of the history (the scrubber), -1 the latest; empty without one.
    virtual SlicePolygon polygon(int index = -1) const = 0;
    virtual int polygonCount() const = 0;
    /// The step the scrubber shows, -1 when the view follows the run.
    virtual int shownStep() const = 0;
    /// The polygon the worker published last (no wait for the worker); empty before the first step.
    virtual SlicePolygon latestPolygon() const = 0;
};

}  // namespace lucent::ui
