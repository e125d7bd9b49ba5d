/// @brief Runs a SegmentationSession on a thread of its own, so that neither a CPU engine's steps
/// nor a GPU engine's synchronisation ever blocks the GUI: the GUI's frame timer only takes what
/// was published since its last frame (the changed box, already written to the label sink, and
/// the figures), and its commands (play, pause, a slider's update, accept) wait for one advance at
/// most. Qt-free, so it is tested without a window.
#pragma once

#include "lucent/core/seg/SegmentationSession.h"
#include "lucent/core/seg/StepPacer.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace lucent {

class SessionWorker {
public:
    /// Writes the labels of `box` from `engine` to wherever the views read them (a host map, the
    /// GPU context's label buffer). Called on the worker, or on the caller of command(), with the
    /// published state locked, so the GUI never reads a half-written box.
    using LabelWriter = std::function<void(const Segmenter& engine, const VoxelBox& box)>;

    /// What the GUI reads each frame.
    struct Published {
        std::optional<VoxelBox> changed;   ///< written to the sink since the last take; reset by take()
        SessionState state = SessionState::Idle;
        bool starting = false;             ///< start() of the engine is running
        std::string error;                 ///< why start() or a step failed (the run is then idle)
        std::string backend;               ///< the engine's backend now ("cuda" / "cpu")
        StepReport last;                   ///< the last step's report
        int steps = 0;                     ///< steps since begin
        double msPerStep = 0;
        std::vector<double> convergence;   ///< per step (the HUD's plot)
        std::size_t polygons = 0;          ///< snake: polygons kept for the scrubber
    };

    /// The time source of the publish pacing (the engine's advance keeps its own time budget).
    using Clock = std::function<std::chrono::steady_clock::time_point()>;
    /// While running, publishes come at most once per this interval (the GUI takes at most that often).
    static constexpr std::chrono::microseconds kPublishInterval{12000};
    /// A paced run waiting for its next step looks at the clock again after at most this long (a
    /// command wakes it at once; an injected clock may move without telling it).
    static constexpr std::chrono::microseconds kPacedPoll{20000};

    /// `budget`: the time an advance may take. `publishCostFactor`: while running, a publish waits
    /// at least this many times as long as the last one took (0: every kPublishInterval, however
    /// long publishing takes; for comparison in benchmarks and tests). `clock`: what the pacing
    /// reads (steady_clock when empty); a test's fake clock makes the pacing independent of real time.
    explicit SessionWorker(std::chrono::microseconds budget = std::chrono::microseconds(8000),
                           int publishCostFactor = kPublishCostFactor, Clock clock = {});
    /// Stops the run and joins the thread (closing the window mid-run is clean).
    ~SessionWorker();
    SessionWorker(const SessionWorker&) = delete;
    SessionWorker& operator=(const SessionWorker&) = delete;

    /// Starts `engine` on `request` on the worker (start() may be long: a connectivity map, an
    /// upload); the previous run is cancelled. `request` must stay valid (its volume, mask) until
    /// the run ends. `play`: run on after starting, else wait paused. `observer` sees the engine after
    /// its start and every step, on the worker (SegmentationSession::setStepObserver).
    void begin(std::unique_ptr<Segmenter> engine, const SegmentationRequest& request, int iterationsPerStep,
               LabelWriter writer, bool play = true, SegmentationSession::StepObserver observer = {});
    /// Runs `f` on the session between two advances, then publishes what it changed. For play,
    /// pause, a single step, update(), polygons(), accept() and cancel().
    void command(const std::function<void(SegmentationSession&)>& f);
    /// Takes what was published since the last take (the changed box and the error are reset); `use` runs with
    /// the published state locked (upload the box there: the worker does not write meanwhile).
    void take(const std::function<void(const Published&)>& use);
    /// Runs `use` with the published state and the label sink locked, taking nothing: a view that
    /// needs the sink again (another plane of it) reads it between the worker's writes.
    void read(const std::function<void()>& use);
    /// Waits until the run is neither starting nor running (tests, --live without a display loop).
    void waitUntilSettled();
    /// Cancels the run (the engine's cancel, then the session's).
    void cancel();
    /// Paces the run: at most `stepsPerSecond` steps a second (kMinSpeed..kMaxSpeed, RunSpeed.h),
    /// one engine step each, or kUnpaced: advances as long as the time budget lets them. Takes
    /// effect at once; commands (a slider's update, a single step) are never paced.
    void setSpeed(int stepsPerSecond);
    int speed() const { return m_speed.load(); }
    /// The run goes on unpaced until it stops (finishes, is paused or replaced): what a parameter
    /// change (a slider, a seed) left to do shows at once, whatever the speed.
    void finishUnpaced();

private:
    void loop();
    void publishLocked();  // engine lock held
    /// One advance of a running session: paced (one step when due, else a wait for it or a command)
    /// or as many steps as the budget allows. Engine lock held; false when it only waited.
    /// `faultIn`: advances left until the injected fault (LUCENT_FAULT_AFTER_STEPS), 0 for none.
    bool advanceLocked(std::unique_lock<std::mutex>& lock, long& faultIn);

    std::chrono::microseconds m_budget;
    /// While running, the next publish waits at least this many times as long as the last one took
    /// (the wait for the publish lock, which the GUI holds while it uploads, and the write), so that
    /// publishing takes at most about a fifth of the worker's time. A fuzzy connectedness map
    /// changes boxes that grow to the whole volume: published every frame interval, writing took
    /// more and more of the run (lucent_bench_engines --worker).
    static constexpr int kPublishCostFactor = 4;
    int m_publishCostFactor;
    Clock m_clock;
    std::chrono::steady_clock::duration m_publishCost{};
    std::chrono::steady_clock::time_point m_lastPublish{};
    std::mutex m_engineMutex;   // the session and its engine
    std::mutex m_publishMutex;  // m_published and the label sink
    std::condition_variable m_wake;
    std::condition_variable m_settled;
    SegmentationSession m_session;
    LabelWriter m_writer;
    Published m_published;
    std::atomic<bool> m_quit{false};
    std::atomic<int> m_waiting{0};   // callers waiting for the engine lock (the worker yields to them)
    bool m_startRunning = false;      // guarded by m_engineMutex
    bool m_dropStart = false;         // cancel() during start(): drop its result
    StepPacer m_pacer;                // guarded by m_engineMutex
    std::atomic<int> m_speed{0};
    bool m_wasRunning = false;        // the last loop saw the session running (a new play restarts the pacer)
    bool m_unpacedToEnd = false;      // finishUnpaced(): until the session stops running

    struct Job {
        std::unique_ptr<Segmenter> engine;
        SegmentationRequest request;
        int perStep = 1;
        LabelWriter writer;
        bool play = true;
        SegmentationSession::StepObserver observer;
    };
    std::optional<Job> m_job;  // guarded by m_engineMutex
    std::thread m_thread;
};

}  // namespace lucent
