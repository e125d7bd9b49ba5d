/// @brief The worker thread's loop: start runs unlocked, advances are time-boxed, and every advance
/// publishes its changed box through the label writer under the publish lock.
#include "lucent/core/seg/SessionWorker.h"

#include "lucent/core/StageTimes.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace lucent {

namespace {

/// Fault injection for tests: LUCENT_FAULT_AFTER_STEPS=N makes the Nth advance of each run fail as
/// an engine failure would (a CUDA launch or allocation mid-run), so that what survives a failed run
/// (the label layer, its history, the measurements) is tested on any backend. 0 or unset: never.
long faultAfterAdvances() {
    const char* text = std::getenv("LUCENT_FAULT_AFTER_STEPS");
    return text ? std::max(0L, std::strtol(text, nullptr, 10)) : 0;
}

}  // namespace

SessionWorker::SessionWorker(std::chrono::microseconds budget, int publishCostFactor, Clock clock)
    : m_budget(budget),
      m_publishCostFactor(std::max(0, publishCostFactor)),
      m_clock(clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); })),
      m_thread([this] { loop(); }) {}

SessionWorker::~SessionWorker() {
    {
        std::lock_guard lock(m_engineMutex);
        m_quit = true;
        m_job.reset();
    }
    m_wake.notify_all();
    m_thread.join();
    m_session.cancel();
}

void SessionWorker::begin(std::unique_ptr<Segmenter> engine, const SegmentationRequest& request, int iterationsPerStep,
                          LabelWriter writer, bool play, SegmentationSession::StepObserver observer) {
    {
        ++m_waiting;
        std::lock_guard lock(m_engineMutex);
        --m_waiting;
        m_job = Job{std::move(engine), request, iterationsPerStep, std::move(writer), play, std::move(observer)};
        m_dropStart = false;
        std::lock_guard published(m_publishMutex);
        m_published = {};
        m_published.starting = true;
        m_published.backend = m_job->engine->backend();
    }
    m_wake.notify_all();
}

void SessionWorker::command(const std::function<void(SegmentationSession&)>& f) {
    {
        ++m_waiting;
        std::optional<stages::Scope> waiting(std::in_place, "worker: a command waits for the engine");
        std::lock_guard lock(m_engineMutex);
        waiting.reset();
        --m_waiting;
        {
            stages::Scope run("worker: a command runs");
            f(m_session);
        }
        publishLocked();
    }
    m_wake.notify_all();
    m_settled.notify_all();
}

void SessionWorker::take(const std::function<void(const Published&)>& use) {
    std::lock_guard lock(m_publishMutex);
    use(m_published);
    m_published.changed.reset();
    m_published.error.clear();  // an error is reported once
}

void SessionWorker::read(const std::function<void()>& use) {
    std::lock_guard lock(m_publishMutex);
    use();
}

void SessionWorker::cancel() {
    command([](SegmentationSession& s) { s.cancel(); });
    std::lock_guard lock(m_engineMutex);
    m_job.reset();
    m_dropStart = true;  // a start() under way is dropped when it returns
    // From now on nothing starts: the GUI must not show the dropped start as a run to come.
    std::lock_guard published(m_publishMutex);
    m_published.starting = false;
}

void SessionWorker::waitUntilSettled() {
    std::unique_lock lock(m_engineMutex);
    m_settled.wait(lock, [this] {
        return m_quit || (!m_job && !m_startRunning && m_session.state() != SessionState::Running);
    });
}

void SessionWorker::publishLocked() {
    // The cost counts the wait for the publish lock too: the GUI holds it while it uploads a box.
    stages::Scope scope("worker: publish (labels of the changed box)");
    const auto started = m_clock();
    const auto box = m_session.takeChanges();
    std::lock_guard lock(m_publishMutex);
    Segmenter* engine = m_session.engine();
    bool writeFailed = false;
    if (box && engine && m_writer) {
        try {
            m_writer(*engine, *box);
            m_published.changed = merge(m_published.changed, *box);
        } catch (const std::exception& e) {
            m_published.error = e.what();
            writeFailed = true;
        }
        m_publishCost = m_clock() - started;
    }
    if (engine) m_published.backend = engine->backend();
    // The views cannot show the run (a device label write that failed): it ends, as a failed advance
    // does, instead of running on unseen and failing at every publish. (Cancel drops the engine.)
    if (writeFailed) m_session.cancel();
    m_published.state = m_session.state();
    m_published.last = m_session.lastReport();
    m_published.steps = int(m_session.convergence().size());
    m_published.msPerStep = m_session.msPerStep();
    m_published.convergence = m_session.convergence();
    m_published.polygons = m_session.polygons().size();
}

void SessionWorker::setSpeed(int stepsPerSecond) {
    {
        ++m_waiting;
        std::lock_guard lock(m_engineMutex);
        --m_waiting;
        m_pacer.setSpeed(stepsPerSecond, m_clock());
        m_speed = m_pacer.speed();
    }
    m_wake.notify_all();
}

void SessionWorker::finishUnpaced() {
    {
        ++m_waiting;
        std::lock_guard lock(m_engineMutex);
        --m_waiting;
        m_unpacedToEnd = m_session.state() == SessionState::Running;
    }
    m_wake.notify_all();
}

bool SessionWorker::advanceLocked(std::unique_lock<std::mutex>& lock, long& faultIn) {
    if (!m_wasRunning) m_pacer.restart(m_clock());  // started or played again: the first step waits a period
    m_wasRunning = true;
    const bool paced = m_pacer.paced() && !m_unpacedToEnd;
    if (paced) {
        const auto now = m_clock();
        if (!m_pacer.due(now)) {
            // Waits for the step's time, or for a command (which notifies), whichever comes first.
            const auto wait = std::min<std::chrono::steady_clock::duration>(m_pacer.untilNext(now), kPacedPoll);
            m_wake.wait_for(lock, wait);
            return false;
        }
    }
    try {
        if (faultIn > 0 && --faultIn == 0)
            throw std::runtime_error("injected fault during the run (LUCENT_FAULT_AFTER_STEPS); the run ended");
        stages::Scope scope("worker: advance");
        m_session.advance(m_budget, paced ? 1 : std::numeric_limits<int>::max());
    } catch (const std::exception& e) {
        m_session.cancel();
        std::lock_guard published(m_publishMutex);
        m_published.error = e.what();
    }
    return true;
}

void SessionWorker::loop() {
    std::unique_lock lock(m_engineMutex);
    long faultIn = 0;  // advances until the injected fault, 0: none
    while (!m_quit) {
        if (m_job) {
            Job job = std::move(*m_job);
            m_job.reset();
            faultIn = faultAfterAdvances();
            m_session.cancel();
            m_startRunning = true;
            // start() runs unlocked: commands and the GUI's frames wait for an advance, never for a
            // connectivity map or an upload.
            lock.unlock();
            SegmentationSession fresh;
            fresh.setStepObserver(std::move(job.observer));
            std::string error;
            try {
                stages::Scope scope("worker: engine start");
                fresh.begin(std::move(job.engine), job.request, job.perStep);
                if (!job.play) fresh.pause();
            } catch (const std::exception& e) {
                error = e.what();
            }
            lock.lock();
            m_startRunning = false;
            if (m_job || m_dropStart || m_quit) {  // superseded or cancelled while starting
                fresh.cancel();
                if (!m_job) {  // cancelled: nothing starts any more (a new job's begin says starting itself)
                    std::lock_guard published(m_publishMutex);
                    m_published.starting = false;
                    m_published.state = m_session.state();
                }
                m_settled.notify_all();
                continue;
            }
            m_session = std::move(fresh);
            m_wasRunning = false;
            m_unpacedToEnd = false;
            m_writer = std::move(job.writer);
            {
                std::lock_guard published(m_publishMutex);
                m_published.starting = false;
                m_published.error = error;
            }
            m_lastPublish = m_clock();  // the next publish waits after this one too
            publishLocked();
            m_settled.notify_all();
            continue;
        }
        if (m_session.state() != SessionState::Running) {
            m_wasRunning = false;
            m_unpacedToEnd = false;
            m_settled.notify_all();
            m_wake.wait(lock, [this] { return m_quit || m_job || m_session.state() == SessionState::Running; });
            continue;
        }
        if (!advanceLocked(lock, faultIn)) continue;
        // Writing the changed box costs a pass over it: publish at most once per frame interval
        // (the GUI takes at most that often), and less often when writing is slow, and always when
        // the run stops.
        const auto now = m_clock();
        const auto wait =
            std::max<std::chrono::steady_clock::duration>(kPublishInterval, m_publishCostFactor * m_publishCost);
        if (m_session.state() != SessionState::Running || now - m_lastPublish >= wait) {
            publishLocked();
            m_lastPublish = now;
        }
        // std::mutex is not fair: without this a command could wait for many advances.
        lock.unlock();
        while (m_waiting.load() > 0) std::this_thread::yield();
        lock.lock();
    }
    m_settled.notify_all();
}

}  // namespace lucent
