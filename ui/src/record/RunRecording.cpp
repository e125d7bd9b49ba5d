/// @brief The GUI recording: dialog, restart or arm, the progress window's Stop, the closing message.
#include "lucent/ui/RunRecording.h"

#include "lucent/ui/LiveSegmentation.h"
#include "lucent/ui/RecordRunDialog.h"

#include <QDir>
#include <QMessageBox>
#include <QProgressDialog>

#include <exception>

namespace lucent::ui {

RunRecording::RunRecording(LiveSegmentation* live, ViewerModel* model, RunRecorder::Grab grab, QWidget* window)
    : QObject(window), m_live(live), m_model(model), m_grab(std::move(grab)), m_window(window),
      m_lastPath(QDir::home().filePath("lucent-run.mp4")) {
    // Queued: the start that was held returns to its caller (a seed click) before the frames are made.
    connect(m_live, &LiveSegmentation::startHeld, this, &RunRecording::recordHeldRun, Qt::QueuedConnection);
}

void RunRecording::ask() {
    if (m_recording) return;
    RecordRunDialog dialog(m_lastPath, m_lastEvery, m_lastFps, m_window);
    if (dialog.exec() != QDialog::Accepted) return;
    const auto plan = dialog.plan();
    if (!plan) return;
    m_lastEvery = dialog.every();
    m_lastFps = plan->fps();
    record(*plan, dialog.every());
}

void RunRecording::record(const RecordingPlan& plan, int every) {
    if (m_recording) return;
    m_plan = plan;
    m_every = every;
    m_lastPath = plan.fallbackNotice().isEmpty() ? plan.target() : plan.target() + ".mp4";  // as asked
    m_live->holdNextStart();
    if (!m_live->active()) {
        tell(QString("Recording to %1 when the next run starts.").arg(plan.target()), false);
        return;
    }
    // The run shown, again from its start: frame k is the engine's state after step k.
    QString error;
    if (!m_live->start(m_live->method(), m_live->request(), false, &error)) {
        m_live->holdNextStart(false);
        m_plan.reset();
        tell("The run could not be restarted for the recording: " + error, true);
    }
}

void RunRecording::recordHeldRun() {
    if (!m_plan || m_recording) return;
    const RecordingPlan plan = *m_plan;
    m_recording = true;
    int frames = 0;
    bool stopped = false;
    QString error;
    try {
        error = recordInto(plan, frames, stopped);
    } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
    }
    m_plan.reset();
    m_recording = false;
    if (!error.isEmpty()) return tell(QString("The recording to %1 failed: %2").arg(plan.target(), error), true);
    QString message = plan.endMessage(frames);
    if (stopped) message += " (stopped before the run's end)";
    if (!plan.fallbackNotice().isEmpty()) message += "; " + plan.fallbackNotice();
    tell(message, false);
}

QString RunRecording::recordInto(const RecordingPlan& plan, int& frames, bool& stopped) {
    FrameRecorder out(plan);
    QProgressDialog progress(QString("Recording to %1...").arg(plan.target()), "Stop", 0, 0, m_window);
    progress.setObjectName("recordProgress");
    progress.setWindowTitle("Recording the run");
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    progress.show();
    RunRecorder recorder(*m_live, *m_model, m_grab);
    const QString error = recorder.record(out, m_every, -1, [&](int written) {
        progress.setLabelText(QString("Recording to %1: %2 frames written").arg(plan.target()).arg(written));
        stopped = progress.wasCanceled();
        return !stopped;
    });
    frames = out.finish();  // what was recorded is kept, also when stopped or failed mid-run
    return error;
}

void RunRecording::tell(const QString& message, bool failure) {
    m_lastMessage = message;
    // Not modal: the window stays usable (and a presenter can start the next run at once).
    auto* box = new QMessageBox(failure ? QMessageBox::Warning : QMessageBox::Information, "Record this run", message,
                                QMessageBox::Ok, m_window);
    box->setObjectName("recordMessage");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
    if (!m_recording && !armed()) emit finished(message);
}

}  // namespace lucent::ui
