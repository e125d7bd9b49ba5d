/// @brief The 3D snake's scrubber in the live run (LiveSegmentation.h, Snake3dHistory.h): each state a frame
/// took goes into the history; an earlier one is shown in the slice views, the 3D pane and the HUD.
#include "lucent/ui/LiveSegmentation.h"

#include "lucent/core/LabelReduction.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <algorithm>
#include <cstring>

namespace lucent::ui {

void LiveSegmentation::recordSnake3d(const VoxelBox& changed, int iteration) {
    // Under the publish lock (frameNow's take): the labels are the state this frame shows.
    if (!m_volume || m_history.shown() >= 0) return;
    const Geometry& g = m_volume->geometry();
    const VoxelBox box = m_previewWhole ? wholeBox(g) : changed;
    const bool onDevice = m_lastOnDevice && m_context;
    try {
        m_history.record(g, iteration, box, [&](LabelMap& mirror) {
            if (onDevice) return m_context->downloadLabels(mirror, &box);
            if (m_preview.voxelCount() != mirror.voxelCount()) return;
            for (int k = std::max(0, box.lo[2]); k <= std::min(box.hi[2], g.dims[2] - 1); ++k)
                for (int j = std::max(0, box.lo[1]); j <= std::min(box.hi[1], g.dims[1] - 1); ++j) {
                    const std::size_t row = g.index(std::max(0, box.lo[0]), j, k);
                    std::memcpy(mirror.data() + row, m_preview.data() + row,
                                std::size_t(std::min(box.hi[0], g.dims[0] - 1) - std::max(0, box.lo[0]) + 1));
                }
        });
    } catch (const std::exception&) {
        m_history.clear();  // no host memory or no download: the run goes on without its scrubber
    }
}

void LiveSegmentation::showSnake3dState(int index) {
    if (m_method != Method::Snake3d || !m_worker || !m_volume) return;
    const int last = m_history.count() - 1;
    if (index >= 0 && index < last) pause();  // a frame taken meanwhile joins the history first
    const std::optional<VoxelBox> box = m_history.show(index);
    // The mirror holds the state shown, or the latest, which is what the engine wrote: either way the
    // texture takes the voxels that changed from it.
    if (box)
        m_grid->withGlContext([&](SharedTextures& t) {
            QString why;
            t.sync(*m_model, why);
            t.uploadPreview(m_history.mirror(), *box);
        });
    m_grid->updateViews();
    emit framed();
}

void LiveSegmentation::followSnake3d() {
    if (m_history.shown() >= 0) showSnake3dState(-1);
}

QString LiveSegmentation::snake3dStateText() const {
    const int shown = m_history.shown();
    if (m_method != Method::Snake3d || shown < 0 || !m_volume) return {};
    const std::size_t voxels = m_history.voxels(shown);
    return QString("step %1 of %2: %3 voxels, %4 mL")
        .arg(m_history.iteration(shown))
        .arg(m_history.iteration(m_history.count() - 1))
        .arg(voxels)
        .arg(double(voxels) * m_volume->geometry().voxelVolumeMl(), 0, 'f', 1);
}

void LiveSegmentation::snake3dHud(render::HudState& h) const {
    const int shown = m_history.shown();
    if (!h.active || shown < 0) return;
    h.iteration = m_history.iteration(shown);
    // Two short lines, as the 2D snake's scrubbed figures: one long line ran past a 2x2 view's edge.
    h.figure = "scrubbed: " + snake3dStateText().replace(": ", "\n").toStdString();
}

bool LiveSegmentation::reduceSnake3dState(const LabelReduction& plan, LabelMap& out) const {
    if (m_method != Method::Snake3d || m_history.shown() < 0) return false;
    reduceLabels(m_history.mirror(), plan, out);
    return true;
}

}  // namespace lucent::ui
