/// @brief Step-exact recording of a live run: from the run's start state, one frame after every K
/// engine steps (and the last), each drawn after its steps, whatever the speed or the machine; a
/// propagating snake's views follow the slice the run is on. `lucent --record` and
/// Segment > Record this run... both record through this.
#pragma once

#include "lucent/ui/FrameRecorder.h"

#include <QImage>
#include <QString>

#include <functional>
#include <string>

namespace lucent::ui {

class LiveSegmentation;
class ViewerModel;

class RunRecorder {
public:
    /// Renders the frame to record (the window, as it is on screen).
    using Grab = std::function<QImage()>;
    /// After each frame is written, with the frames written so far; false stops the recording there
    /// (the run stays paused, the frames so far are kept).
    using Progress = std::function<bool(int frames)>;

    RunRecorder(LiveSegmentation& live, ViewerModel& model, Grab grab);
    /// An MP4 plays the run at `stepsPerSecond` (the live pace), its start held `holdSeconds` first:
    /// each recorded frame is written as often as the pace needs at the file's frames per second
    /// (never less than once). kUnpaced (the default), and PNG folders: one frame per recorded step.
    void setPace(int stepsPerSecond, double holdSeconds = 0) {
        m_pace = stepsPerSecond;
        m_holdSeconds = holdSeconds;
    }
    /// Records the run of `live` (paused at its start, or just started) into `out`: the start, then
    /// one frame per `every` engine steps and the last, to the end or `maxSteps` steps (< 0: no
    /// limit). Returns an error message, empty on success; what out.add() throws passes through.
    QString record(FrameRecorder& out, int every = 1, int maxSteps = -1, const Progress& progress = {});

    /// frames.json's line for a frame: its number, the step, and the run's figures after it.
    std::string frameNote(int frame, int step) const;

private:
    void followRunSlice();
    /// How many times the frame after `step` steps goes into `out`, which held `firstFrame` frames
    /// when this run's recording began (the pace's copies).
    int copiesOf(int step, const FrameRecorder& out, int firstFrame) const;

    LiveSegmentation& m_live;
    ViewerModel& m_model;
    Grab m_grab;
    int m_pace = 0;  // kUnpaced
    double m_holdSeconds = 0;
};

}  // namespace lucent::ui
