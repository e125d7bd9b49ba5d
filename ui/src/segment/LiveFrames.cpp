/// @brief Scripts, tests and recordings advance a live run synchronously: every frame taken (runFrames),
/// or a frame every N engine steps from the start, whatever the pace or the machine (stepFrames).
#include "lucent/ui/LiveSegmentation.h"
#include "lucent/ui/RecordingPlan.h"

#include <QThread>

namespace lucent::ui {

bool LiveSegmentation::runFrames(int steps, const std::function<void()>& onFrame, QString* error) {
    if (!m_worker) return false;
    m_timer.stop();
    m_worker->waitUntilSettled();  // the start (paused or playing) is done, or the run finished
    frameNow();
    if (onFrame) onFrame();
    if (steps >= 0) {
        for (int i = 0; i < steps && m_published.state == SessionState::Paused; ++i) {
            m_worker->command([](SegmentationSession& s) { s.stepOnce(); });
            frameNow();
            if (onFrame) onFrame();
        }
    } else {
        play();
        m_timer.stop();
        while (true) {
            QThread::msleep(5);
            frameNow();
            if (onFrame) onFrame();
            if (m_published.state != SessionState::Running && !m_published.starting) break;
        }
    }
    frameNow();
    if (!m_lastError.isEmpty() && error) *error = m_lastError;
    return m_lastError.isEmpty() && m_published.state != SessionState::Idle;
}

bool LiveSegmentation::stepFrames(int every, int maxSteps, const std::function<bool(int step)>& onFrame, QString* error) {
    if (!m_worker) return false;
    m_timer.stop();
    m_worker->waitUntilSettled();  // a paused start is done (a playing one ran to its end)
    // A run that was playing is held: every frame must follow its own steps.
    m_worker->command([](SegmentationSession& s) { s.pause(); });
    frameNow();
    int step = 0;
    bool more = !onFrame || onFrame(step);
    while (more && m_published.state == SessionState::Paused) {
        const int n = RecordingPlan::stepsToNextFrame(step, every, maxSteps);
        if (n == 0) break;
        m_worker->command([n, &step](SegmentationSession& s) {
            for (int i = 0; i < n && s.state() == SessionState::Paused; ++i) {
                s.stepOnce();
                ++step;
            }
        });
        frameNow();
        more = !onFrame || onFrame(step);
    }
    frameNow();
    if (!m_lastError.isEmpty() && error) *error = m_lastError;
    return m_lastError.isEmpty() && m_published.state != SessionState::Idle;
}

}  // namespace lucent::ui
