/// @brief The label layer as grow from seeds' seeds: the start, the strokes taken as updates, the
/// update's time (GrowCutSeeds.h).
#include "lucent/ui/GrowCutSeeds.h"

#include "lucent/core/seg/Methods.h"
#include "lucent/core/seg/ParameterLimits.h"
#include "lucent/core/StageTimes.h"
#include "lucent/ui/ViewerModel.h"

#include <QTimer>

namespace lucent::ui {

namespace {

/// Labels named in the HUD one by one; more are summed (a line per label would cover the view).
constexpr std::size_t kLabelsNamed = 4;

}  // namespace

GrowCutSeeds::GrowCutSeeds(ViewerModel* viewer, SegmentationRunner* runner, QObject* parent)
    : QObject(parent), m_viewer(viewer), m_runner(runner) {
    // Every dab and the stroke's end say historyChanged; so do undo and redo. The check waits for the
    // event loop: at the end of a stroke the brush still holds it while the signal is emitted.
    connect(viewer, &ViewerModel::historyChanged, this, &GrowCutSeeds::layerEdited);
    connect(viewer, &ViewerModel::labelsChanged, this, &GrowCutSeeds::layerEdited);
    connect(viewer, &ViewerModel::volumeChanged, this, [this] {
        m_startSeeds.reset();
        m_layer.reset();
        m_taken = -1;
    });
}

std::vector<std::pair<int, std::size_t>> GrowCutSeeds::seedLabels(const LabelMap& layer) {
    const std::array<std::size_t, 256> counts = valueCounts(layer);
    std::vector<std::pair<int, std::size_t>> out;
    for (int label = kGrowCutLimits.label.min; label <= kGrowCutLimits.label.max; ++label)
        if (counts[std::size_t(label)]) out.push_back({label, counts[std::size_t(label)]});
    return out;
}

namespace {

std::size_t paintedLabels(const ViewerModel& viewer) {
    const auto layer = viewer.labels();
    return layer ? GrowCutSeeds::seedLabels(*layer).size() : 0;
}

}  // namespace

QString GrowCutSeeds::blocker() const {
    if (!m_viewer->hasVolume()) return ViewerModel::noVolumeMessage;
    const std::size_t labels = paintedLabels(*m_viewer);
    if (labels >= std::size_t(kMinSeedLabels)) return {};
    return QString("Grow from seeds needs strokes of at least %1 labels (%2 painted): paint a few in each structure and "
                   "one in the background with the brush (Labels > Paint brush, B; another label for each), then "
                   "press Start.")
        .arg(kMinSeedLabels)
        .arg(labels);
}

QString GrowCutSeeds::readiness() const {
    if (!m_viewer->hasVolume()) return ViewerModel::noVolumeMessage;
    const std::size_t labels = paintedLabels(*m_viewer);
    if (labels >= std::size_t(kMinSeedLabels)) return "Ready: Start grows the painted labels.";
    return QString("Seeds painted for %1 of the %2 labels needed.").arg(labels).arg(kMinSeedLabels);
}

bool GrowCutSeeds::start(SegmentationRequest request, bool play, QString* error) {
    std::optional<stages::Scope> checked(std::in_place, "grow from seeds: the layer's labels counted (start)");
    if (const QString why = blocker(); !why.isEmpty()) {
        if (error) *error = why;
        return false;
    }
    checked.emplace("grow from seeds: the layer copied (start)");
    m_startSeeds = std::make_shared<const LabelMap>(*m_viewer->labels());
    checked.reset();
    m_layer.reset();
    request.growCut.seeds = m_startSeeds.get();
    request.growCut.changedBox.reset();
    m_taken = m_viewer->labelGeneration();
    m_updates = 0;
    m_figuresOf = {-1, -1};
    m_lastMs.reset();
    m_timing = true;
    m_clock.start();
    const bool ok = m_runner->start(Method::GrowCut, request, play, error);
    if (!ok) m_timing = false;
    emit changed();
    return ok;
}

bool GrowCutSeeds::active() const { return m_runner->active() && m_runner->method() == Method::GrowCut; }

void GrowCutSeeds::layerEdited() {
    if (m_checkQueued || !active()) return;
    m_checkQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_checkQueued = false;
        if (m_strokeInProgress && m_strokeInProgress()) return;  // the stroke's end says historyChanged again
        takeStrokes();
    });
}

bool GrowCutSeeds::takeStrokes() {
    if (!active() || m_viewer->labelGeneration() == m_taken || !m_viewer->labels()) return false;
    const stages::Scope stage("grow from seeds: the stroke taken (the update command)");
    // The update reads the layer in place: the engine copies the seeds it keeps while the GUI waits
    // (LiveSegmentation::update is a command between two advances), so no whole-layer copy per stroke;
    // and only the box the layer changed in since the run took it (the strokes' dabs, an undo's box),
    // so nothing proportional to the volume either. Without a box (the layer replaced, the log of boxes
    // outgrown) the engine compares the whole map.
    m_layer = m_viewer->labels();
    SegmentationRequest r = m_runner->request();
    r.growCut.seeds = m_layer.get();
    r.growCut.changedBox = m_viewer->labelChangeSince(m_taken);
    m_taken = m_viewer->labelGeneration();
    ++m_updates;
    m_timing = true;
    m_clock.start();
    m_runner->update(r);
    const stages::Scope told("grow from seeds: the page told of the stroke");
    emit changed();
    return true;
}

void GrowCutSeeds::noteFrame(bool settled) {
    if (!m_timing || !settled) return;
    m_timing = false;
    m_lastMs = double(m_clock.nsecsElapsed()) / 1e6;
    emit changed();
}

const MethodFigures& GrowCutSeeds::figures(int steps, bool running, const std::function<MethodFigures()>& ask) {
    const std::pair<int, int> now{steps, m_updates};
    const bool due = !running || !m_figuresClock.isValid() || m_figuresClock.elapsed() >= kFiguresIntervalMs;
    if (now != m_figuresOf && due) {
        m_figures = ask();
        m_figuresOf = now;
        m_figuresClock.start();
    }
    return m_figures;
}

QString GrowCutSeeds::figureText(const MethodFigures& figures) const {
    QString text;
    const auto& labels = figures.labelVoxels;
    if (labels.size() <= kLabelsNamed) {
        for (const auto& [label, voxels] : labels) text += QString("%1%2: %3").arg(text.isEmpty() ? "" : "  ").arg(label).arg(voxels);
        if (!text.isEmpty()) text += " vx";
    } else {
        std::size_t total = 0;
        for (const auto& l : labels) total += l.second;
        text = QString("%1 voxels in %2 labels").arg(total).arg(labels.size());
    }
    if (m_lastMs) text += QString("\n%1 %2 ms").arg(lastWasStart() ? "first run" : "last update").arg(*m_lastMs, 0, 'f', 1);
    return text;
}

std::array<std::uint8_t, 256> GrowCutSeeds::sameLabels() {
    std::array<std::uint8_t, 256> to{};
    for (int v = 0; v < 256; ++v) to[std::size_t(v)] = std::uint8_t(v);
    return to;
}

}  // namespace lucent::ui
