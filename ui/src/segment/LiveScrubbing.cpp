/// @brief The snake scrubber's side of the live run: a step of the polygon history shown instead of
/// the latest (its outline, its fill on its slice, its step and area), and back to the run.
#include "lucent/ui/LiveSegmentation.h"

#include "LiveBackend.h"
#include "PolygonFill.h"

#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <algorithm>

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

void LiveSegmentation::showStep(int index) {
    if (index >= 0) pause();
    m_shownStep = index;
    if (index >= 0) showStepFill(index);
    else restoreScrubbedSlice();
    m_grid->updateViews();
    emit framed();
}


void LiveSegmentation::showStepFill(int index) {
    const SlicePolygon p = polygon(index);
    const Geometry& g = m_volume->geometry();
    if (p.points.size() < 3 || p.slice < 0 || p.slice >= g.dims[2]) return;
    std::vector<std::uint8_t> slice = polygonFill(p.points, g);
    // What the engine would label at that step: its ROI and mask apply as to every result.
    clipToRequest(slice, p.slice, m_request, g);
    m_shownPixels = std::size_t(std::count(slice.begin(), slice.end(), std::uint8_t(1)));
    if (m_scrubbedSlice >= 0 && m_scrubbedSlice != p.slice) restoreScrubbedSlice();
    m_scrubbedSlice = p.slice;
    m_grid->withGlContext([&](SharedTextures& t) { t.showPreviewSlice(p.slice, slice); });
}

void LiveSegmentation::restoreScrubbedSlice() {
    followSnake3d();  // the 3D snake's scrubber lets go too
    m_shownPixels = 0;
    if (m_scrubbedSlice < 0 || !m_worker) return;
    const auto& d = m_volume->geometry().dims;
    const VoxelBox box{{0, 0, m_scrubbedSlice}, {d[0] - 1, d[1] - 1, m_scrubbedSlice}};
    m_scrubbedSlice = -1;
    m_worker->command([&](SegmentationSession& s) {
        if (s.engine()) writeLabels(*s.engine(), box);
    });
    m_pending = merge(m_pending, box);
    uploadChanges(m_published);
}

QString LiveSegmentation::shownStepText() const {
    if (m_shownStep < 0 || !m_volume) return {};
    const Geometry& g = m_volume->geometry();
    return QString("step %1 of %2: %3 px, %4 mm²")
        .arg(m_shownStep)
        .arg(std::max(0, polygonCount() - 1))
        .arg(m_shownPixels)
        .arg(double(m_shownPixels) * g.spacing.x * g.spacing.y, 0, 'f', 1);
}

}  // namespace lucent::ui
