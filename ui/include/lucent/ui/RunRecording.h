/// @brief Segment > Record this run...: asks where and how (RecordRunDialog), then records the run
/// shown from its start (restarted paused) or, with none, the next run started, step-exact through
/// RunRecorder as `--record` does, with a progress window (frames written; Stop keeps the frame
/// being drawn and those before) and a closing message saying how many frames went where.
#pragma once

#include "lucent/ui/RecordingPlan.h"
#include "lucent/ui/RunRecorder.h"

#include <QObject>
#include <QString>

#include <optional>

class QWidget;

namespace lucent::ui {

class RunRecording : public QObject {
    Q_OBJECT
public:
    /// `window`: the parent of the dialogs; `grab` renders a frame (the window).
    RunRecording(LiveSegmentation* live, ViewerModel* model, RunRecorder::Grab grab, QWidget* window);

    /// The menu's action: the dialog, then record() with its answers.
    void ask();
    /// Records the run shown from its start now, or arms for the next run started; `every`: engine
    /// steps per frame.
    void record(const RecordingPlan& plan, int every);
    /// A recording is waiting for the next run to start.
    bool armed() const { return m_plan.has_value() && !m_recording; }
    bool recording() const { return m_recording; }
    /// The last recording's closing line ("recorded 40 frames to ..."), or why it failed.
    const QString& lastMessage() const { return m_lastMessage; }

signals:
    /// A recording ended (finished, stopped or failed) with its closing line.
    void finished(const QString& message);

private:
    void recordHeldRun();
    QString recordInto(const RecordingPlan& plan, int& frames, bool& stopped);
    void tell(const QString& message, bool failure);

    LiveSegmentation* m_live;
    ViewerModel* m_model;
    RunRecorder::Grab m_grab;
    QWidget* m_window;
    std::optional<RecordingPlan> m_plan;  // asked for, not yet written
    int m_every = 1;
    bool m_recording = false;
    QString m_lastPath, m_lastMessage;
    int m_lastEvery = 1, m_lastFps = RecordingPlan::kDefaultFps;
};

}  // namespace lucent::ui
