/// @brief The live run's side of the snake's scrubber (SnakeScrubber.h): the polygons it scrubs, the
/// preview slices it fills and puts back, and the step it shows in the views.
#include "lucent/ui/LiveSegmentation.h"

#include "lucent/ui/ViewGrid.h"

namespace lucent::ui {

LiveSegmentation::SlicePolygon LiveSegmentation::polygon(int index) const {
    SlicePolygon out;
    if (!m_worker) return out;
    m_worker->command([&](SegmentationSession& s) {
        const auto& all = s.polygons();
        if (all.empty()) return;
        const std::size_t i = std::size_t(index < 0 || index >= int(all.size()) ? int(all.size()) - 1 : index);
        out.points = all[i];
        out.slice = s.polygonSlices()[i];
    });
    return out;
}

ScrubbedRun LiveSegmentation::scrubbedRun() {
    ScrubbedRun run;
    run.polygon = [this](int index) { return polygon(index); };
    run.polygonCount = [this] { return polygonCount(); };
    run.request = [this]() -> const SegmentationRequest* { return m_volume ? &m_request : nullptr; };
    run.pause = [this] { pause(); };
    run.showFill = [this](int slice, const std::vector<std::uint8_t>& fill) {
        m_grid->withGlContext([&](SharedTextures& t) { t.showPreviewSlice(slice, fill); });
    };
    run.restoreSlice = [this](int slice) {
        if (!m_worker || !m_volume) return;
        const auto& d = m_volume->geometry().dims;
        const VoxelBox box{{0, 0, slice}, {d[0] - 1, d[1] - 1, slice}};
        m_worker->command([&](SegmentationSession& s) {
            if (s.engine()) writeLabels(*s.engine(), box);
        });
        m_pending = merge(m_pending, box);
        uploadChanges(m_published);
    };
    return run;
}

void LiveSegmentation::showStep(int index) {
    if (index < 0) followSnake3d();  // the 3D snake's scrubber lets go too
    m_scrubber.show(index);
    m_grid->updateViews();
    emit framed();
}

void LiveSegmentation::restoreScrubbedSlice() {
    followSnake3d();  // the 3D snake's scrubber lets go too
    m_scrubber.restore();
}

void LiveSegmentation::forgetShownStep() { m_scrubber.forget(); }

}  // namespace lucent::ui
