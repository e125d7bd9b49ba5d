/// @brief The Segment panel's state without widgets: the method chosen, its seeds and rectangle,
/// every method's parameters (region growing's interval estimated from the first seed), the backend
/// and iterations per step. It turns them into requests and drives the live run; the panel's pages
/// only bind widgets to it, and tests drive it with no display.
///
/// A seed's way to an engine: SeedTool::press (the view forwards the click) -> seedsEdited() ->
/// the first seed's interval estimate -> request() -> SegmentationRunner::start / update.
#pragma once

#include "lucent/core/ValueHistogram.h"
#include "lucent/core/seg/SegmentationRequest.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/ui/ClusterTargets.h"
#include "lucent/ui/SegmentSettings.h"
#include "lucent/ui/SegmentationRunner.h"
#include "lucent/ui/Snake3dTool.h"
#include "lucent/ui/ViewTool.h"

#include <QObject>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace lucent::ui {

class ViewerModel;

class SegmentationModel : public QObject {
    Q_OBJECT
public:
    SegmentationModel(ViewerModel* viewer, SegmentationRunner* runner, QObject* parent = nullptr);

    // --- the method and its view tool
    /// The method whose page and tool are up; none before one was chosen.
    std::optional<Method> mode() const { return m_mode; }
    /// Chooses `method` (a run of another method is cancelled) and arms its view tool.
    void enterMode(Method method);
    /// The view tool of the mode: seeds (region growing, fuzzy connectedness), the rectangle (snake),
    /// none (fuzzy C-means, no mode, and after an Accept until the method is chosen again: a click
    /// to focus a view then moves the cursor, it plants no seed).
    ViewTool* tool();
    SeedTool& seedTool() { return m_seedTool; }
    RectangleTool& rectangleTool() { return m_rectTool; }
    const std::vector<VoxelIndex>& seeds() const { return m_seedTool.seeds(); }
    /// Removes every seed and ends the run they started.
    void clearSeeds();
    /// Removes seed `index` (a run of its method regrows from the others, or ends without any).
    void removeSeed(int index);
    /// Moves the cursor (every view) to seed `index`.
    void goToSeed(int index);
    /// "48, 40, 20 (slice 21)": a seed as the user reads it (slices numbered from 1, as the views do).
    static QString seedText(const VoxelIndex& seed);

    // --- parameters (each setter emits parametersChanged once when the value changes)
    double lower() const { return m_regionGrowing.lower; }
    double upper() const { return m_regionGrowing.upper; }
    int connectivity() const { return m_regionGrowing.connectivity; }
    /// Region growing's interval, kept at the data's precision (intervalDecimals(); outward for float
    /// data, so a bound never leaves out the seed it came from); a run of region growing regrows (a
    /// lower above the upper waits).
    void setInterval(double lower, double upper);
    /// Decimals of the interval's bounds: 0 for integer voxels, more for float voxels (ValuePrecision.h).
    int intervalDecimals();
    /// Segment > Widen / Narrow interval (+, -): `steps` steps around the first seed's value
    /// (SeedInterval.h's stepInterval). False when region growing has no seed.
    bool stepInterval(int steps);
    void setConnectivity(int connectivity);
    /// The range an interval may take: the data's range widened by its width on each side, so a
    /// dragged interval keeps its width at the ends; none until region growing first needed the
    /// data's range (a pass over the voxels, once per volume).
    std::optional<std::pair<double, double>> intervalLimits() const;
    /// A drag from a seed (MITK's gesture): up widens, down narrows, right raises, left lowers; a
    /// pixel moves 0.5 % of the data's range. `started` on the drag's first move.
    void dragInterval(double dx, double dy, bool started);
    /// The volume's histogram over the data's range, drawn under the interval; none until region
    /// growing first needed the data's range (as intervalLimits).
    const ValueHistogram* valueHistogram();
    const FuzzyConnectednessParams& fuzzyConnectedness() const { return m_fc; }
    /// The fuzzy connectedness threshold (0..1): a live run relabels its stored map.
    void setThreshold(double threshold);
    const FuzzyCMeansParams& fuzzyCMeans() const { return m_fcm; }
    const SnakeParams& snake() const { return m_snake; }
    void setPropagate(bool propagate);
    void setSnakeStepMax(int pixels);
    void setSnakeMinSegment(int pixels);
    /// The snake's domain around the drawn rectangle, in percent of its larger side; -1 the whole
    /// slice (kSnakeDomainMargin). Applies to the next rectangle.
    int snakeDomainMargin() const { return m_snakeMargin; }
    void setSnakeDomainMargin(int percent);
    /// `rect` grown by `percent` of its larger side (at least kSnakeMinMarginPixels) and clipped to
    /// a slice of `width` x `height`; none for a negative percent (the whole slice).
    static std::optional<std::array<int, 4>> snakeDomain(const std::array<int, 4>& rect, int percent, int width,
                                                         int height);
    gpu::Backend backend() const { return m_backend; }
    void setBackend(gpu::Backend backend);
    int stepsPerFrame() const { return m_stepsPerFrame; }
    void setStepsPerFrame(int steps);

    // --- the 3D snake (SegmentationModelSnake3d.cpp): its start is the Snake3dTool's box and bubbles;
    // a changed start or parameter starts the run again from the start.
    Snake3dTool& snake3dTool() { return m_snake3dTool; }
    /// The 3D snake's parameters, with the start drawn (box, one radius a bubble).
    Snake3dParams snake3d() const;
    void setSnake3dIterations(int iterations);
    void setSnake3dSmoothing(int smoothing);
    /// The domain around the start in mm; none: kSnake3dLimits.marginPercent of its largest side.
    void setSnake3dMargin(std::optional<double> mm);
    /// Slices a box drawn next reaches through (kSnake3dDepth), and the radius of the next bubble (mm).
    void setSnake3dDepth(int slices);
    void setSnake3dRadius(double mm);
    /// Whether a run takes the view's window at its start as its clip (Snake3dParams::clip: bone and air
    /// weigh no more than the window's ends, as the reader sees them); a window changed during a run
    /// applies to the next start. On by default; a run started as given (startWith, a session) sets it
    /// by whether its request has a clip. Switching it starts the run again.
    bool snake3dClipsToWindow() const { return m_snake3dClipToWindow; }
    void setSnake3dClipToWindow(bool on);
    /// The view's window as a range, level ± width / 2 (what the next start takes); none without a volume.
    std::optional<ValueRange> windowRange() const;
    /// "0 .. 80 HU" (no unit unless the volume is a CT): a range as the page shows it.
    QString rangeText(const ValueRange& range) const;
    /// Removes the box and every bubble, and ends a run of the 3D snake.
    void clearSnake3dStart();
    /// A 3D snake run's request: the drawn box, the bubbles as seeds with their radii, the parameters.
    SegmentationRequest snake3dRequest() const;

    // --- runs
    /// The request a run of the mode gets: seeds and every method's parameters (no volume or mask).
    SegmentationRequest request() const;
    /// The object statistics around the seeds, for the fuzzy connectedness dialog's defaults (the
    /// values already set win). Needs a volume and seeds.
    AffinityParams fuzzyConnectednessEstimate();
    /// Runs fuzzy connectedness with the dialog's parameters. False with the reason in `error`.
    bool startFuzzyConnectedness(const FuzzyConnectednessParams& params, QString* error = nullptr);
    /// Why fuzzy connectedness cannot run now (no volume, no seeds), empty when it can.
    QString fuzzyConnectednessBlocker() const;
    /// Whether fuzzy C-means can be restricted to the label layer (it holds a label).
    bool layerCanMask() const;
    /// Runs fuzzy C-means with the dialog's parameters, over the label layer's voxels if `maskedByLayer`.
    bool startFuzzyCMeans(const FuzzyCMeansParams& params, bool maskedByLayer, QString* error = nullptr);
    /// Why fuzzy C-means cannot run now (no volume), empty when it can.
    QString fuzzyCMeansBlocker() const;
    /// Starts `method` with `request` as given (scripts, tests): the model takes its parameters.
    bool startWith(Method method, const SegmentationRequest& request, bool play, QString* error = nullptr);
    /// Fuzzy C-means: which clusters Accept writes; all after a new run.
    const std::vector<bool>& clustersChosen() const { return m_clustersChosen; }
    void setClusterChosen(int cluster, bool chosen);
    /// A fuzzy C-means run over the whole volume settled with `centres`: its background cluster (the
    /// air around the body, BackgroundCluster.h) is unticked, once per run, unless the user ticked
    /// clusters already. A run masked by the label layer has no background.
    void clustersSettled(const std::vector<double>& centres);
    /// The settled run's background cluster (1-based), 0 when it has none.
    int backgroundCluster() const { return m_backgroundCluster; }
    /// Fuzzy C-means: where Accept puts the checked clusters (new labels unless chosen otherwise).
    ClusterTarget clusterTarget() const { return m_clusterTarget; }
    void setClusterTarget(ClusterTarget target);
    /// The label each checked cluster goes into; `acceptLabel` (the panel's box) for OneLabel.
    ClusterLabels clusterLabelsFor(std::uint8_t acceptLabel) const;
    /// The label each preview value goes into on Accept, for the preview's colours: the run's 1
    /// into `acceptLabel`; fuzzy C-means' clusters where clusterLabelsFor puts them.
    std::array<std::uint8_t, 256> previewTargets(std::uint8_t acceptLabel) const;
    /// Whether Accept would write something: a run whose result holds voxels (none while it starts
    /// or after parameters the engine refused) and, for fuzzy C-means, a chosen cluster. The panel's
    /// button, the Segment menu's item (Ctrl+Return) and the HUD's button are enabled by it.
    bool canAccept() const;
    /// Writes the run into the label layer: `label` (fuzzy C-means: the chosen clusters) as one
    /// undoable step, and puts the view tool down (toolChanged(); enterMode() arms it again). False,
    /// leaving the run and the tool as they are, when !canAccept(); false when the label is locked
    /// or nothing changed.
    bool accept(std::uint8_t label);

    // --- what the views show
    /// Seeds, the rectangle being dragged and the snake's polygon (the scrubber's step) on `view`.
    render::ViewOverlay overlayFor(const render::SliceViewGeometry& view) const;

    SegmentSettings settings() const;
    /// Puts saved settings back without starting a run (a live one is cancelled).
    void restoreSettings(const SegmentSettings& settings);

signals:
    void modeChanged();
    /// tool() changed with the mode unchanged: put down after an Accept.
    void toolChanged();
    /// A parameter changed (the interval, connectivity, threshold, propagate, backend, steps, the
    /// parameters of a started run): pages re-read them.
    void parametersChanged();
    void seedsChanged();
    /// The clusters to accept were reset (a new fuzzy C-means run) or one was ticked.
    void clustersChanged();
    /// A problem for the user (a run that could not start, a method without its seeds).
    void message(const QString& text);

private:
    void seedsEdited();
    void regrow();
    void startSnake(int slice, std::array<int, 4> rect);
    // the 3D snake (SegmentationModelSnake3d.cpp)
    void restartSnake3d();
    void takeSnake3d(const SegmentationRequest& request);
    void saveSnake3d(SegmentSettings& settings) const;
    void restoreSnake3d(const SegmentSettings& settings);
    bool start(Method method, const SegmentationRequest& request, QString* error);
    void takeParameters(Method method, const SegmentationRequest& request);
    std::pair<double, double> dataRange();
    void fail(const QString& why);
    void resetClusters();
    /// Label values in use (voxels in the layer or a name of the user's), cached per layer and table.
    const TakenLabels& takenLabels() const;
    bool refuseLocked(std::uint8_t label);

    ViewerModel* m_viewer;
    SegmentationRunner* m_runner;
    std::optional<Method> m_mode;
    bool m_armed = false;  // tool() is the mode's tool (chosen, no Accept since)
    SeedTool m_seedTool;
    RectangleTool m_rectTool;
    RegionGrowingParams m_regionGrowing;
    FuzzyConnectednessParams m_fc;
    FuzzyCMeansParams m_fcm;
    SnakeParams m_snake;  // the last rectangle and the step rules
    Snake3dTool m_snake3dTool;
    Snake3dParams m_snake3d;  // iterations, smoothing, margin, the last start's clip (the start is the tool's)
    bool m_snake3dClipToWindow = true;
    gpu::Backend m_backend = gpu::Backend::Auto;
    int m_stepsPerFrame = kStepsPerFrame.byDefault;
    int m_snakeMargin = kSnakeDomainMargin.byDefault;
    std::shared_ptr<LabelMap> m_fcmMask;
    std::vector<bool> m_clustersChosen;
    bool m_clustersSettled = false;  // clustersSettled() has looked at this run (or the user ticked)
    int m_backgroundCluster = 0;
    ClusterTarget m_clusterTarget = ClusterTarget::NewLabels;
    mutable TakenLabels m_taken{};
    mutable std::pair<int, int> m_takenKey{-1, -1};  // the layer's and the table's generations
    std::optional<std::pair<double, double>> m_range;  // the data's range, once per volume
    std::optional<ValueHistogram> m_histogram;          // over m_range, once per volume
    std::array<double, 2> m_dragFrom{0, 0};             // the interval when a drag began
    // snake polygons are cached per frame so that three views do not each ask the worker
    mutable SegmentationRunner::SlicePolygon m_polygonCache;
    mutable int m_polygonCacheKey = -2;
    mutable int m_polygonCacheCount = 0;
};

}  // namespace lucent::ui
