/// @brief A segmentation evolving live in the views: the run steps on a SessionWorker thread, and
/// one GUI timer per frame takes the changed box and puts it into the preview texture, through
/// CUDA-OpenGL interop for CUDA engines (no host round trip) or a box upload from host memory for
/// CPU engines and for GL that CUDA cannot map. Accept writes the result into the model's label
/// layer as one undoable step. The widgets only show what this object holds.
#pragma once

#include "lucent/core/seg/RunSpeed.h"
#include "lucent/core/seg/SessionWorker.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/render/HudState.h"
#include "lucent/ui/LiveHud.h"
#include "lucent/ui/LivePreviewSource.h"
#include "lucent/ui/SegmentationRunner.h"
#include "lucent/ui/Snake3dHistory.h"
#include "lucent/ui/Snake3dSteps.h"
#include "lucent/ui/SnakeScrubber.h"
#include "lucent/ui/SoftMapOverlay.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace lucent {
struct LabelReduction;
}

namespace lucent::gpu {
class GpuContext;
}

namespace lucent::ui {

class ViewerModel;
class ViewGrid;

class LiveSegmentation : public QObject, public SegmentationRunner, public LivePreviewSource {
    Q_OBJECT
public:
    LiveSegmentation(ViewerModel* model, ViewGrid* grid, QObject* parent = nullptr);
    ~LiveSegmentation() override;

    void setBackend(gpu::Backend backend) override { m_backend = backend; }
    gpu::Backend backendChoice() const { return m_backend; }
    /// Starts `method` on the model's volume (volume and mask of `request` are set here); the run
    /// plays at once unless `play` is false. False with `error` when it cannot start (no volume,
    /// cuda asked for where there is none); a start that fails later (bad seeds) emits failed().
    bool start(Method method, SegmentationRequest request, bool play = true, QString* error = nullptr) override;
    /// New parameters for the running method (a slider); the engine keeps what it can.
    void update(const SegmentationRequest& request) override;
    /// How the engine took the last update() (grow from seeds: Continued when a stroke only added
    /// seeds); none before one, or when it failed.
    std::optional<UpdateOutcome> lastUpdateOutcome() const { return m_lastOutcome; }
    void play();
    void pause();
    /// One step, then paused (the single-step button).
    void step();
    void setStepsPerFrame(int steps) override;
    /// The run's pace: steps per second (kMinSpeed..kMaxSpeed, RunSpeed.h) or kUnpaced. Once set,
    /// it holds for every later run; until then each run starts at its method's watchableSpeed().
    /// Takes effect at once; parameter changes, Step, Pause and Accept are never paced.
    void setSpeed(int stepsPerSecond);
    int speed() const { return m_speed; }
    /// A method was chosen (no run yet): the Speed box shows the pace its run will start at, not
    /// the last run's (unless a pace was chosen, which every run keeps).
    void showSpeedFor(Method method);
    /// Writes the result into the label layer (non-zero result -> `label`) as one undoable step: the
    /// result shown, so a 3D snake scrubbed back to an earlier state accepts that state.
    bool accept(std::uint8_t label, const QString& description) override;
    /// FCM: result label r -> labelFor[r] (0 leaves the voxel).
    bool accept(const std::array<std::uint8_t, 256>& labelFor, const QString& description) override;
    void cancel() override;

    void showOnlyValues(const std::vector<bool>& shown) override;
    bool active() const override;  ///< a run exists (starting, running, paused or finished)
    bool running() const;
    Method method() const override { return m_method; }
    const SegmentationRequest& request() const override { return m_request; }
    const SessionWorker::Published& published() const { return m_published; }
    /// Voxels of the live result and their volume (counted as the result changes).
    std::size_t voxels() const override { return m_voxels.load(); }
    double volumeMl() const;
    /// Snake: polygon `index` of the history (the scrubber), -1 the latest; empty without one.
    SlicePolygon polygon(int index = -1) const override;
    int polygonCount() const override { return int(m_published.polygons); }
    SlicePolygon latestPolygon() const override { return {m_published.last.polygon, m_published.last.polygonSlice}; }
    /// Snake scrubber (SnakeScrubber.h): show step `index` instead of the latest (-1 follows the run
    /// again): its outline, its fill on its slice (rasterised by the engines' rule), its step and area in the HUD.
    void showStep(int index);
    int shownStep() const override { return m_scrubber.shown(); }
    /// Pixels inside the step the scrubber shows (0 while the views follow the run).
    std::size_t shownStepPixels() const { return m_scrubber.pixels(); }
    /// "step 12 of 39: 2148 px, 1968.2 mm²" for the step the scrubber shows; empty while following.
    QString shownStepText() const { return m_scrubber.text(); }
    /// The engine's figures (estimated parameters, centres, GL).
    MethodFigures figures() const;
    /// The engine's soft maps (memberships, connectivity), computed on request.
    std::vector<Volume> softMaps() const;
    /// Shows soft map `index` (FC: 0 the connectivity map; FCM: the membership of cluster
    /// index + 1) as a heat overlay (SoftMapOverlay.h), -1 hides it. False when the run has no such map.
    bool showSoftMap(int index) { return m_softMap.show(index); }
    int softMapShown() const { return m_softMap.shown(); }
    /// Whether the soft map shown came from the device through CUDA-OpenGL interop (CUDA fc / fcm on
    /// a GL that CUDA maps), not through host memory.
    bool softMapFromDevice() const { return m_softMap.fromDevice(); }
    render::HudState hudState() const;
    /// Why the last run failed (start or step), empty when it did not.
    const QString& lastError() const { return m_lastError; }
    /// Whether the last frames reached the screen through CUDA-OpenGL interop.
    bool usedInterop() const { return m_interop; }
    /// A coarse host copy of the live result for the 3D view, at most `maxCells` cells
    /// (LabelReduction.h): reduced on the device for a CUDA engine (cells are downloaded, never the
    /// volume), from the host map for a CPU engine. False while no run has a result (none, starting)
    /// or when the device cannot make it.
    bool copyPreviewReduced(std::size_t maxCells, LabelMap& out) override;

    /// Scripts and tests: advances synchronously, taking every frame (calling `onFrame` after each
    /// is drawn), `steps` single steps, or to the end when steps < 0. Returns false on failure.
    bool runFrames(int steps, const std::function<void()>& onFrame, QString* error = nullptr);
    /// Step-exact frames (recordings): from the start state of a paused (or just started) run, `every`
    /// engine steps between frames, to the end or `maxSteps` steps (< 0: no limit), whatever the
    /// speed or the machine. `onFrame(step)` runs after each frame is drawn: step 0 is the start,
    /// then every, 2 every, ... and the last step. Stops early, leaving the run paused, when onFrame
    /// returns false. Returns false on failure (`error` says why).
    bool stepFrames(int every, int maxSteps, const std::function<bool(int step)>& onFrame, QString* error = nullptr);
    /// One frame now (what the timer does): take the changes, upload them, redraw the views.
    void frameNow();
    using RecordedPace = ui::RecordedPace;  // LiveHud.h
    /// While a recording steps the run (paused between its frames), the HUD and the recording's
    /// notes show the run as its audience reads it: running (finished at its end), at the video's
    /// frames and steps per second. std::nullopt when the recording ends.
    void setRecordedPace(std::optional<RecordedPace> pace) { m_recordedPace = pace; }
    /// "running", "paused", "finished" or "starting" as the HUD says it (recordedPace applied).
    std::string shownState() const;
    /// Draws each preview value in the colour of the label it goes into (VolumeTextures::setPreviewTargets).
    void setPreviewTargets(const std::array<std::uint8_t, 256>& targets);
    const std::array<std::uint8_t, 256>& previewTargets() const override { return m_previewTargets; }
    /// Voxels of the result so far; the snake's before it writes labels: pixels inside its polygon;
    /// a settled fuzzy C-means run's: those of the clusters shown (the ones Accept takes).
    std::size_t shownVoxels() const;
    /// The next start() begins paused whatever it asks and emits startHeld() (a recording armed by
    /// Segment > Record this run... steps that run from its start); false disarms.
    void holdNextStart(bool hold = true) { m_holdNextStart = hold; }
    bool holdingNextStart() const { return m_holdNextStart; }

    // --- the 3D snake's scrubber (LiveSnake3d.cpp): every state of the run, kept as flipped voxels
    const Snake3dHistory& snake3dHistory() const { return m_history; }
    /// Shows state `index` of the history in the slice views, the 3D pane and the HUD (the run pauses);
    /// -1 (or the last state) follows the run again.
    void showSnake3dState(int index);
    /// "step 12 of 34: 20410 voxels, 28.1 mL" for the state shown; empty while following the run.
    QString snake3dStateText() const;
    /// What the scrubber holds: "every step", or how many of the first steps its bound let go.
    QString snake3dHistoryText() const;
    /// The bound of the next runs' histories, in bytes of flipped voxels (kSnake3dHistoryBytes unless set).
    void setSnake3dHistoryBytes(std::size_t bytes) { m_snake3dBytes = bytes; }
    /// The finished run's surface does not set its inside apart from its surroundings
    /// (Snake3dContrast::separates): said in the HUD, the panel and the status bar.
    bool snake3dNoContrast() const;
    /// The finished run's surface holds (nearly) the whole start box (Snake3dContrast::holdsTheBox): the box
    /// lay inside one tissue. Said as the above.
    bool snake3dHoldsTheBox() const;
    /// What the status bar says of a finished run that found no edge of its own (why, with the means, and what
    /// to do), or `brief`ly, as the panel says it; empty when it found one.
    QString snake3dNoEdge(bool brief = false) const;

signals:
    /// A frame brought news (panels refresh their figures).
    void framed();
    /// The state changed (running, paused, finished, idle).
    void stateChanged();
    /// The pace changed (the panel's control, the HUD's buttons, --speed).
    void speedChanged(int stepsPerSecond);
    void failed(const QString& message);
    /// A run started paused because holdNextStart() asked it to.
    void startHeld();
    /// An accepted result changed the label layer (the autosave keeps it at once).
    void accepted();
    /// showOnlyValues() changed which preview values are drawn (the 3D pane rebuilds its surfaces).
    void shownValuesChanged();
    /// setPreviewTargets() changed the colours the preview is drawn in (the 3D pane follows).
    void previewTargetsChanged();
    /// Something the user should know about the run that is not a failure (a 3D snake that found no edge).
    void notice(const QString& message);

private:
    // the 3D snake's scrubber (LiveSnake3d.cpp)
    SegmentationSession::StepObserver snake3dObserver(const SegmentationRequest& request);  // a new run's queue
    void takeSnake3dSteps();        // the states the worker queued, into the history
    void writeSnake3dState(const VoxelBox& box);  // the shown state's labels of box into the preview
    std::optional<LabelMap> shownSnake3dLabels() const;  // a scrubbed state's labels (what Accept takes), else none
    void followSnake3d();           // the views back at the run's latest state
    void snake3dHud(render::HudState& h) const;
    void noteSnake3dFinished();     // a run that found no edge says so, once
    Snake3dHistory m_history;
    std::shared_ptr<Snake3dSteps> m_snake3dSteps;  // the run's queue (an old run's worker keeps its own)
    std::size_t m_snake3dBytes = kSnake3dHistoryBytes;
    /// What the soft maps' overlay shows them from (LiveSoftMaps.cpp): the engine's maps, the heat texture.
    SoftMapSource softMapSource();
    /// The soft map written by a CUDA engine into device scratch and copied into the heat texture
    /// through interop; false when the engine or the GL cannot (the host path then runs).
    bool showSoftMapFromDevice(int index);
    int m_heatSlot = -1;  // the context's scratch slot for soft maps (GpuContext::reserveScratch)
    void uploadChanges(const SessionWorker::Published& p);
    void writeLabels(const Segmenter& engine, const VoxelBox& box);
    /// What the snake's scrubber scrubs (LiveScrubbing.cpp): the polygons, the preview's slices.
    ScrubbedRun scrubbedRun();
    /// Back to the engine's result on the slice the scrubber had filled (and the 3D snake's latest state).
    void restoreScrubbedSlice();
    /// Back to the run's latest step (the scrubber lets go; nothing to restore).
    void forgetShownStep();
    /// Nothing of a run published, counted or scrubbed.
    void forgetRun();
    std::size_t chosenClusterVoxels() const;
    void resetForVolume();

    ViewerModel* m_model;
    ViewGrid* m_grid;
    QPointer<ViewGrid> m_gridAlive;  // the grid may go first when the window closes
    QTimer m_timer;
    gpu::Backend m_backend = gpu::Backend::Auto;
    std::unique_ptr<SessionWorker> m_worker;
    std::shared_ptr<const Volume> m_volume;
    std::shared_ptr<const LabelMap> m_mask;
    std::shared_ptr<gpu::GpuContext> m_context;
    Method m_method = Method::RegionGrowing;
    SegmentationRequest m_request;
    LabelMap m_preview;                  // host copy of the live result: CPU engines write it; empty for
                                         // a CUDA run unless GL cannot map the device buffer
    std::atomic<std::size_t> m_voxels{0};
    std::atomic<bool> m_lastOnDevice{false};
    // The run left the GPU (backend auto: out of memory, a failed launch) and the CPU engine wrote the
    // whole preview on the host: why, until the GUI says it. Guarded by the worker's publish lock.
    std::string m_movedToCpu;
    bool m_previewWhole = false;  // the next upload is the whole preview (same lock)
    std::optional<VoxelBox> m_pending;   // changed, not yet in the texture (no GL context yet)
    SessionWorker::Published m_published;
    SessionState m_lastState = SessionState::Idle;
    std::array<std::uint32_t, 8> m_hiddenValues{};  // preview values not drawn (bit v of word v / 32)
    mutable std::vector<std::size_t> m_clusterVoxels;  // fcm: each cluster's voxels, once the run settled
    std::array<std::uint8_t, 256> m_previewTargets{};  // as last given to the textures (all 0: none yet)
    SnakeScrubber m_scrubber;
    SoftMapOverlay m_softMap;
    std::optional<UpdateOutcome> m_lastOutcome;
    QString m_lastError;
    bool m_interop = false;
    int m_speed = kUnpaced;
    int m_runSerial = 0;  // a new run's HUD panel chooses its place anew (HudState::run)
    bool m_holdNextStart = false;
    std::optional<RecordedPace> m_recordedPace;
    mutable std::pair<std::size_t, std::size_t> m_polygonPixels{~std::size_t(0), 0};  // (polygons, pixels)
    bool m_speedChosen = false;  // setSpeed() was called: runs keep that pace instead of their method's
    QElapsedTimer m_clock;
    double m_fps = 0;
    qint64 m_lastFrameNs = 0, m_lastCountNs = 0;
};

}  // namespace lucent::ui
