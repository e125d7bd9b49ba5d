/// @brief The 3D snake's scrubber in the live run (LiveSegmentation.h, Snake3dHistory.h): the worker queues
/// every state (Snake3dSteps), each frame takes them into the history; an earlier one is written into the
/// preview (the host map, or the device's label buffer for CUDA) and so shown in the slice views, the 3D
/// pane and the HUD. A finished run whose surface found no edge says so.
#include "lucent/ui/LiveSegmentation.h"

#include "lucent/core/StageTimes.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <algorithm>
#include <cstring>

namespace lucent::ui {

static_assert(Snake3dHistory::kLabelBit == gpu::GpuContext::kLabelBit, "one packing of a voxel and its label");

SegmentationSession::StepObserver LiveSegmentation::snake3dObserver(const SegmentationRequest& request) {
    m_history = Snake3dHistory(m_snake3dBytes);
    m_snake3dSteps = std::make_shared<Snake3dSteps>(request, m_snake3dBytes);
    // The worker holds its own reference: a run replaced meanwhile queues into its own, never into ours.
    return [steps = m_snake3dSteps](const Segmenter& engine, const StepReport& report) {
        steps->observe(engine, report.iterations);
    };
}

void LiveSegmentation::takeSnake3dSteps() {
    if (m_method != Method::Snake3d || !m_snake3dSteps) return;
    std::vector<Snake3dState> states = m_snake3dSteps->take();
    if (states.empty()) return;
    if (m_history.shown() >= 0) followSnake3d();  // never while paused for the scrubber; if so, the run leads
    for (Snake3dState& s : states) m_history.record(std::move(s));
}

void LiveSegmentation::writeSnake3dState(const VoxelBox& box) {
    stages::Scope scope("3D snake: a scrubbed state into the preview");
    const Geometry& g = m_volume->geometry();
    const bool onDevice = m_lastOnDevice && m_context;
    // The voxels the steps flipped (8 bytes each), or the box around them (a byte a voxel), whichever is
    // less: a step or a few flip the surface's voxels, far fewer than their box (most of the domain at
    // 1024^3); a jump over many steps flips more than the box holds.
    const bool scattered = m_history.changedCount() * sizeof(std::uint64_t) < box.voxelCount();
    std::vector<std::uint64_t> voxels;
    std::vector<std::uint8_t> labels;
    if (scattered) voxels = m_history.changedVoxels(g, m_request.mask);
    else {
        labels.resize(box.voxelCount());
        m_history.labels(box, m_request.mask, labels.data());
    }
    const std::size_t rowBytes = std::size_t(box.hi[0] - box.lo[0] + 1);
    try {
        // Between the worker's writes (it is paused here, or about to play on from the state written).
        m_worker->read([&] {
            if (onDevice && scattered) return m_context->setLabelsAt(voxels.data(), voxels.size());
            if (onDevice) return m_context->uploadLabels(labels.data(), box);
            if (m_preview.voxelCount() != g.voxelCount()) return;
            if (scattered) {
                for (const std::uint64_t v : voxels) m_preview[v & ~Snake3dHistory::kLabelBit] = std::uint8_t(v >> 63);
                return;
            }
            const std::uint8_t* from = labels.data();
            for (int k = box.lo[2]; k <= box.hi[2]; ++k)
                for (int j = box.lo[1]; j <= box.hi[1]; ++j, from += rowBytes)
                    std::memcpy(m_preview.data() + g.index(box.lo[0], j, k), from, rowBytes);
        });
    } catch (const std::exception& e) {
        emit failed(QString("The step could not be shown: %1").arg(e.what()));
        return;
    }
    m_pending = merge(m_pending, box);
    uploadChanges(m_published);
}

std::optional<LabelMap> LiveSegmentation::shownSnake3dLabels() const {
    if (m_method != Method::Snake3d || m_history.shown() < 0 || !m_volume) return std::nullopt;
    LabelMap shown(m_volume->geometry());
    m_history.labels(wholeBox(m_volume->geometry()), m_request.mask, shown.data());
    return shown;
}

void LiveSegmentation::showSnake3dState(int index) {
    if (m_method != Method::Snake3d || !m_worker || !m_volume) return;
    stages::Scope scope("3D snake: a state shown (scrubber)");
    if (index >= 0 && index < m_history.count() - 1) {
        pause();
        if (m_snake3dSteps) m_snake3dSteps->flush();  // the last step's state, before the history is shown
    }
    takeSnake3dSteps();
    std::optional<stages::Scope> flipping(std::in_place, "3D snake: the history flipped to the state");
    const std::optional<VoxelBox> box = m_history.show(index, [&](auto& words, auto& domain, auto& serial) {
        m_snake3dSteps->latest(words, domain, serial);
    });
    flipping.reset();
    if (box) writeSnake3dState(*box);
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

QString LiveSegmentation::snake3dHistoryText() const {
    if (m_method != Method::Snake3d || m_history.count() == 0) return {};
    if (m_history.dropped() == 0) return QString("Every step of the run: %1 states").arg(m_history.count());
    const std::size_t bound = m_history.budget();
    const QString within = bound >= (std::size_t(1) << 20) ? QString("%1 MiB").arg(bound >> 20) : QString("%1 KiB").arg(bound >> 10);
    return QString("The %1 steps since step %2: the first %3 went to keep the history within %4")
        .arg(m_history.count())
        .arg(m_history.iteration(0))
        .arg(m_history.dropped())
        .arg(within);
}

bool LiveSegmentation::snake3dNoContrast() const {
    if (m_method != Method::Snake3d || m_published.state != SessionState::Finished || m_history.count() == 0) return false;
    return !m_history.state(m_history.count() - 1).contrast.separates();
}

bool LiveSegmentation::snake3dHoldsTheBox() const {
    if (m_method != Method::Snake3d || m_published.state != SessionState::Finished || m_history.count() == 0) return false;
    return m_history.state(m_history.count() - 1).contrast.holdsTheBox();
}

QString LiveSegmentation::snake3dNoEdge(bool brief) const {
    if (!snake3dNoContrast() && !snake3dHoldsTheBox()) return {};
    // What to do differs with the start: a box is drawn across the edge, bubbles go inside the structure.
    const bool box = m_request.snake3d.box.has_value();
    const QString start = box ? "the box" : "the bubbles";
    const QString advice = box ? "Draw the box across the structure's edge." : "Place the bubbles inside the structure.";
    if (brief) return (snake3dNoContrast() ? "No contrast: " : "Holds the whole box: ") + advice;
    const Snake3dContrast& c = m_history.state(m_history.count() - 1).contrast;
    const QString figures = QString("inside %1 ± %2, outside %3")
                                .arg(c.meanInside(), 0, 'f', 1)
                                .arg(c.sdInside(), 0, 'f', 1)
                                .arg(c.meanOutside(), 0, 'f', 1);
    if (snake3dNoContrast())
        return QString("No contrast between %1 and its surroundings (%2): the surface found no edge. %3")
            .arg(start, figures, advice);
    return QString("The surface holds the whole box (%1 %; %2): the box lies inside one tissue, and the surface stopped "
                   "at the next. %3")
        .arg(100.0 * c.boxShare(), 0, 'f', 0)
        .arg(figures, advice);
}

void LiveSegmentation::noteSnake3dFinished() {
    if (m_snake3dSteps) m_snake3dSteps->flush();  // the last step's state: the history is whole when the run ends
    takeSnake3dSteps();
    if (const QString why = snake3dNoEdge(); !why.isEmpty()) emit notice(why);
}

void LiveSegmentation::snake3dHud(render::HudState& h) const {
    const int shown = m_history.shown();
    if (!h.active) return;
    if (shown >= 0) {
        h.iteration = m_history.iteration(shown);
        // Two short lines, as the 2D snake's scrubbed figures: one long line ran past a 2x2 view's edge.
        h.figure = "scrubbed: " + snake3dStateText().replace(": ", "\n").toStdString();
    }
    if (snake3dNoContrast()) h.figure += "\nno contrast: no edge found";
    else if (snake3dHoldsTheBox()) h.figure += "\nholds the whole box: no edge in it";
}

}  // namespace lucent::ui
