/// @brief The region snake's scrubber: an earlier step of the run shown in place of the latest (its
/// polygon's inside on its slice, rasterised by the engines' rule and clipped to the request as a
/// result is; its pixels and area), and the run's own result put back when the views follow it again.
/// It knows the run and the views only through ScrubbedRun, so it is tested without an engine or GL.
#pragma once

#include "lucent/core/seg/SegmentationRequest.h"
#include "lucent/ui/SegmentationRunner.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace lucent::ui {

/// What the scrubber needs of the run it scrubs (its frame store of polygons) and of the views.
struct ScrubbedRun {
    /// Polygon `index` of the run's history and its slice, -1 the latest; empty without a run.
    std::function<SegmentationRunner::SlicePolygon(int index)> polygon;
    std::function<int()> polygonCount;
    /// The run's request, its volume set; null without a run.
    std::function<const SegmentationRequest*()> request;
    /// A step shown holds the run still.
    std::function<void()> pause;
    /// Shows `fill` (a byte a pixel of the axial slice, 1 inside) on slice `slice` in place of the result.
    std::function<void(int slice, const std::vector<std::uint8_t>& fill)> showFill;
    /// Puts the run's own result back on axial slice `slice`.
    std::function<void(int slice)> restoreSlice;
};

class SnakeScrubber {
public:
    explicit SnakeScrubber(ScrubbedRun run) : m_run(std::move(run)) {}

    /// Shows step `index` (the run pauses); -1 follows the run again, its result back where a step was filled.
    void show(int index);
    /// Puts the run's result back on the slice a step filled; the step stays chosen (Play and Step
    /// forget it once the run moved on).
    void restore();
    /// Nothing shown, nothing to put back: the preview was cleared or replaced.
    void forget();
    /// The step shown, -1 while the views follow the run.
    int shown() const { return m_shown; }
    /// Pixels inside the step shown (0 while following the run).
    std::size_t pixels() const { return m_pixels; }
    /// "step 12 of 39: 2148 px, 1968.2 mm²" for the step shown; empty while following the run.
    QString text() const;

private:
    void fill(int index);

    ScrubbedRun m_run;
    int m_shown = -1;
    int m_filledSlice = -1;  // the slice whose preview holds a step's fill
    std::size_t m_pixels = 0;
};

}  // namespace lucent::ui
