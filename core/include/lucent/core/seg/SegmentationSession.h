/// @brief A segmentation as the viewer runs it, Qt-free (ITK-SNAP's "models step, widgets tick"):
/// owns the engine and its state (idle, running, paused, finished), advances it within a time
/// budget that one UI timer gives it every frame (never from paintGL: three views would step three
/// times), gathers the boxes the steps changed for the renderer, keeps the snake's polygon after
/// every step so any earlier one can be shown again, and accepts the result into a label layer as
/// one undoable change, or cancels it.
#pragma once

#include "lucent/core/LabelHistory.h"
#include "lucent/core/seg/Segmenter.h"

#include <array>
#include <chrono>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lucent {

enum class SessionState { Idle, Running, Paused, Finished };

const char* sessionStateName(SessionState state);  ///< "idle", "running", "paused", "finished"

class SegmentationSession {
public:
    using Polygon = std::vector<std::array<double, 2>>;
    /// What the time budget and the time per step read (steady_clock when empty; a test's fake clock).
    using Clock = std::function<std::chrono::steady_clock::time_point()>;

    explicit SegmentationSession(Clock clock = {});

    /// Called on the session's thread with the engine once it started (a report of no iteration),
    /// after every step, and after an update that restarted or continued the run: the viewer's 3D
    /// snake keeps each state for its scrubber, whatever the frames take. Set before begin().
    using StepObserver = std::function<void(const Segmenter& engine, const StepReport& report)>;
    void setStepObserver(StepObserver observer) { m_observer = std::move(observer); }

    /// Starts `engine` on `request` (what start() throws passes through; the session stays idle).
    void begin(std::unique_ptr<Segmenter> engine, const SegmentationRequest& request, int iterationsPerStep = 1);
    /// While running: steps until `budget` is spent (at least one step), `maxSteps` were made or
    /// the engine finishes. Returns the steps made.
    int advance(std::chrono::microseconds budget, int maxSteps = std::numeric_limits<int>::max());
    /// One step, from running or paused (the single-step button); the session is paused after it.
    void stepOnce();
    void play();
    void pause();
    void setIterationsPerStep(int n) { m_perStep = n < 1 ? 1 : n; }
    /// New parameters for the running method (a slider): the engine keeps what it can; the result
    /// may change anywhere, so the whole volume counts as changed. Restarted or continued runs play.
    /// Parameters the engine refuses (what it throws passes through) leave a finished run of no
    /// step: its result, history, last report and time per step are gone.
    UpdateOutcome update(const SegmentationRequest& request);

    /// Union of the boxes changed since the last call (what the renderer must upload), or none.
    std::optional<VoxelBox> takeChanges();
    /// Snake: the polygon before the first step and after every step since (for the scrubber).
    const std::vector<Polygon>& polygons() const { return m_polygons; }
    /// The slice each of polygons() lies on (a propagating run moves on from slice to slice).
    const std::vector<int>& polygonSlices() const { return m_polygonSlices; }
    /// GL (snake) or the method's convergence figure after every step, for the HUD's plot.
    const std::vector<double>& convergence() const { return m_convergence; }
    const StepReport& lastReport() const { return m_last; }
    /// Mean wall-clock milliseconds of a step over the last advance, or of the last single step
    /// (stepOnce: a recording's steps, the Step button), for the HUD.
    double msPerStep() const { return m_msPerStep; }

    /// Writes the result into `layer`: voxels whose result label r is non-zero get labelFor[r]
    /// (0 leaves the voxel as it is), as one step of `history` named `description`. Ends the
    /// session (idle). Returns false, changing nothing, when the result adds nothing. Voxels of a
    /// label marked in `locked` stay as they are, and nothing is written as a locked label (the
    /// label table's lock). `shown`, when given, is taken instead of the engine's result: the state
    /// the views show (a 3D snake's scrubbed step), on the volume's grid.
    bool accept(LabelMap& layer, LabelHistory& history, const std::array<std::uint8_t, 256>& labelFor,
                const std::string& description, const std::array<bool, 256>& locked = {},
                const LabelMap* shown = nullptr);
    /// The usual case: every non-zero result voxel gets `label`.
    bool accept(LabelMap& layer, LabelHistory& history, std::uint8_t label, const std::string& description);
    /// Drops the run and its result (idle).
    void cancel();

    SessionState state() const { return m_state; }
    Segmenter* engine() const { return m_engine.get(); }

private:
    void afterStep(const StepReport& report);
    void markAllChanged();
    /// Forgets the run's polygons and convergence (a new run, or none after a refused update).
    void clearHistory();
    /// Marks the seeds of `next` that the current request lacks (before m_request becomes `next`).
    void markNewSeedsChanged(const SegmentationRequest& next);

    Clock m_clock;
    StepObserver m_observer;

    std::unique_ptr<Segmenter> m_engine;
    SegmentationRequest m_request;
    SessionState m_state = SessionState::Idle;
    int m_perStep = 1;
    StepReport m_last;
    std::optional<VoxelBox> m_changes;
    std::vector<Polygon> m_polygons;
    std::vector<int> m_polygonSlices;
    std::vector<double> m_convergence;
    double m_msPerStep = 0;
};

}  // namespace lucent
