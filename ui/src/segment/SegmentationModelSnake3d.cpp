/// @brief The Segment panel's 3D snake: its start (Snake3dTool), parameters, runs and saved settings
/// (SegmentationModel.h).
#include "lucent/ui/SegmentationModel.h"

#include "lucent/core/seg/ParameterLimits.h"
#include "lucent/ui/ViewerModel.h"

#include <algorithm>

namespace lucent::ui {

Snake3dParams SegmentationModel::snake3d() const {
    Snake3dParams p = m_snake3d;
    p.box = m_snake3dTool.box();
    p.radiiMm.clear();
    for (const auto& b : m_snake3dTool.bubbles()) p.radiiMm.push_back(b.radiusMm);
    return p;
}

SegmentationRequest SegmentationModel::snake3dRequest() const {
    SegmentationRequest r = request();
    r.seeds.clear();
    for (const auto& b : m_snake3dTool.bubbles()) r.seeds.push_back(b.centre);
    return r;
}

void SegmentationModel::setSnake3dIterations(int iterations) {
    const int v = std::clamp(iterations, kSnake3dLimits.iterations.min, kSnake3dLimits.iterations.max);
    if (v == m_snake3d.iterations) return;
    m_snake3d.iterations = v;
    emit parametersChanged();
    restartSnake3d();
}

void SegmentationModel::setSnake3dSmoothing(int smoothing) {
    const int v = std::clamp(smoothing, kSnake3dLimits.smoothing.min, kSnake3dLimits.smoothing.max);
    if (v == m_snake3d.smoothing) return;
    m_snake3d.smoothing = v;
    emit parametersChanged();
    restartSnake3d();
}

void SegmentationModel::setSnake3dMargin(std::optional<double> mm) {
    if (mm) mm = std::clamp(*mm, kSnake3dLimits.marginMm.min, kSnake3dLimits.marginMm.max);
    if (mm == m_snake3d.marginMm) return;
    m_snake3d.marginMm = mm;
    emit parametersChanged();
    restartSnake3d();
}

void SegmentationModel::setSnake3dDepth(int slices) {
    const int v = std::clamp(slices, kSnake3dDepth.min, kSnake3dDepth.max);
    if (v == m_snake3dTool.depth()) return;
    m_snake3dTool.setDepth(v);
    emit parametersChanged();  // for the box drawn next: the one drawn keeps its slices
}

void SegmentationModel::setSnake3dRadius(double mm) {
    const double v = std::clamp(mm, kSnake3dLimits.radiusMm.min, kSnake3dLimits.radiusMm.max);
    if (v == m_snake3dTool.radius()) return;
    m_snake3dTool.setRadius(v);
    emit parametersChanged();  // for the bubble clicked next
}

void SegmentationModel::setSnake3dClipToWindow(bool on) {
    if (on == m_snake3dClipToWindow) return;
    m_snake3dClipToWindow = on;
    emit parametersChanged();
    restartSnake3d();
}

std::optional<ValueRange> SegmentationModel::windowRange() const {
    if (!m_viewer->hasVolume()) return std::nullopt;
    const render::WindowLevel w = m_viewer->window();  // its width is positive (ViewerModel::setWindow)
    return ValueRange{w.level - w.width / 2, w.level + w.width / 2};
}

QString SegmentationModel::rangeText(const ValueRange& range) const {
    const QString unit = m_viewer->hasVolume() && m_viewer->isCt() ? " HU" : "";
    return QString("%1 .. %2%3").arg(range.lower, 0, 'g', 6).arg(range.upper, 0, 'g', 6).arg(unit);
}

void SegmentationModel::clearSnake3dStart() {
    m_snake3dTool.clear();
    if (m_runner->active() && m_runner->method() == Method::Snake3d) m_runner->cancel();
    emit parametersChanged();
}

void SegmentationModel::restartSnake3d() {
    // Every edit of the start or of a parameter runs the snake again from its start, as a new
    // seed regrows region growing: the views always show the run of what the page says.
    if (m_mode != Method::Snake3d || !m_viewer->hasVolume()) return;
    if (!m_snake3dTool.hasStart()) {
        if (m_runner->active() && m_runner->method() == Method::Snake3d) m_runner->cancel();
        return;
    }
    // The values as the reader sees them now: the window at this start (a later window, the next start's).
    m_snake3d.clip = m_snake3dClipToWindow ? windowRange() : std::nullopt;
    emit parametersChanged();
    QString error;
    if (!m_runner->start(Method::Snake3d, snake3dRequest(), true, &error)) fail(error);
}

void SegmentationModel::takeSnake3d(const SegmentationRequest& request) {
    const Snake3dParams& p = request.snake3d;
    std::vector<Snake3dTool::Bubble> bubbles;
    for (std::size_t n = 0; n < request.seeds.size(); ++n)
        bubbles.push_back({request.seeds[n], p.radiiMm.empty() ? kSnake3dLimits.radiusMm.byDefault
                                             : p.radiiMm.size() == 1 ? p.radiiMm[0] : p.radiiMm.at(n)});
    m_snake3dTool.setStart(p.box, std::move(bubbles));
    m_snake3d = p;
    m_snake3dClipToWindow = p.clip.has_value();  // a run as given: a later start keeps to its choice
}

void SegmentationModel::saveSnake3d(SegmentSettings& s) const {
    s.request.snake3d = snake3d();
    s.snake3dSeeds.clear();
    for (const auto& b : m_snake3dTool.bubbles()) s.snake3dSeeds.push_back(b.centre);
    s.snake3dDepth = m_snake3dTool.depth();
    s.snake3dRadius = m_snake3dTool.radius();
    s.snake3dClipToWindow = m_snake3dClipToWindow;
}

void SegmentationModel::restoreSnake3d(const SegmentSettings& s) {
    SegmentationRequest r;
    r.seeds = s.snake3dSeeds;
    r.snake3d = s.request.snake3d;
    takeSnake3d(r);
    m_snake3dTool.setDepth(std::clamp(s.snake3dDepth, kSnake3dDepth.min, kSnake3dDepth.max));
    m_snake3dTool.setRadius(s.snake3dRadius);
    m_snake3dClipToWindow = s.snake3dClipToWindow;
}

}  // namespace lucent::ui
