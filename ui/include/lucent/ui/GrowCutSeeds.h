/// @brief Grow from seeds in the viewer (issue 46), as 3D Slicer's effect works: the seeds are the
/// label layer itself (every painted voxel, of any label), the grown result is a preview over it until
/// Accept writes every label at once, and each brush stroke (an undo or redo too) goes into the run
/// as an update from its previous result, not a new run. This object binds the layer to the run: the
/// seeds it starts from, the strokes it feeds, and the time each update took to settle.
#pragma once

#include "lucent/core/seg/MethodFigures.h"
#include "lucent/core/seg/SegmentationRequest.h"
#include "lucent/ui/SegmentationRunner.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace lucent::ui {

class ViewerModel;

class GrowCutSeeds : public QObject {
    Q_OBJECT
public:
    /// Seeds of at least this many labels start a run (one of them usually the background): with one,
    /// every voxel would take it.
    static constexpr int kMinSeedLabels = 2;

    GrowCutSeeds(ViewerModel* viewer, SegmentationRunner* runner, QObject* parent = nullptr);

    /// Whether the brush is inside a stroke now: the run takes a stroke when it ends, not every dab.
    void setStrokeInProgress(std::function<bool()> inProgress) { m_strokeInProgress = std::move(inProgress); }
    /// The labels with seed voxels in `layer` and their counts (ascending labels).
    static std::vector<std::pair<int, std::size_t>> seedLabels(const LabelMap& layer);
    /// Why a run cannot start now (no volume, seeds of fewer than kMinSeedLabels labels), empty when it can.
    QString blocker() const;
    /// The page's one line before a run: what is still missing (seeds of how many labels), or ready.
    QString readiness() const;
    /// Starts grow from seeds on the label layer as it is (a copy: the run starts on the worker while
    /// the user may paint); `request` gives the scope (ROI, mask), its seeds are set here. False with
    /// `error` when it cannot start.
    bool start(SegmentationRequest request, bool play, QString* error = nullptr);
    /// A grow-from-seeds run exists.
    bool active() const;
    /// The layer changed since the run took its seeds (a stroke ended, an undo): the run updates from
    /// its previous result with the layer as its seeds. False when there was nothing to take.
    bool takeStrokes();
    /// A frame of the run: when it has settled, the time since the start or the last update ends.
    void noteFrame(bool settled);
    /// Milliseconds from the last update (or the start) to its result, once settled.
    std::optional<double> lastUpdateMs() const { return m_lastMs; }
    /// Whether lastUpdateMs() is the first run's (no stroke taken since the start).
    bool lastWasStart() const { return m_updates == 0; }
    /// Strokes (layer changes) taken into the run since it started.
    int updates() const { return m_updates; }
    /// The HUD's figure: voxels of each label (the total when there are many), and the last update's time.
    QString figureText(const MethodFigures& figures) const;
    /// The engine's figures for the HUD, asked (`ask`: a command that waits for the worker's advance, and
    /// a count over the volume) only when the run has taken a step or a stroke since, and while it runs
    /// at most every kFiguresIntervalMs: the frames of a run, a stroke's update among them, do not wait.
    const MethodFigures& figures(int steps, bool running, const std::function<MethodFigures()>& ask);
    static constexpr int kFiguresIntervalMs = 250;
    /// Accept: every result value into the label of the same number.
    static std::array<std::uint8_t, 256> sameLabels();

signals:
    /// A stroke went into the run, or its time became known.
    void changed();

private:
    void layerEdited();

    ViewerModel* m_viewer;
    SegmentationRunner* m_runner;
    std::function<bool()> m_strokeInProgress;
    std::shared_ptr<const LabelMap> m_startSeeds;  // the copy the run started from (its request points at it)
    std::shared_ptr<const LabelMap> m_layer;       // the layer the updates point at, kept while the run may read it
    int m_taken = -1;                              // the layer's generation the run holds
    bool m_checkQueued = false;
    QElapsedTimer m_clock;
    bool m_timing = false;
    std::optional<double> m_lastMs;
    int m_updates = 0;
    MethodFigures m_figures;
    std::pair<int, int> m_figuresOf{-1, -1};  // the steps and updates m_figures were asked at
    QElapsedTimer m_figuresClock;
};

}  // namespace lucent::ui
