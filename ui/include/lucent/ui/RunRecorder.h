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
    /// Records the run of `live` (paused at its start, or just started) into `out`: the start, then
    /// one frame per `every` engine steps and the last, to the end or `maxSteps` steps (< 0: no
    /// limit). Returns an error message, empty on success; what out.add() throws passes through.
    QString record(FrameRecorder& out, int every = 1, int maxSteps = -1, const Progress& progress = {});

    /// frames.json's line for a frame: its number, the step, and the run's figures after it.
    std::string frameNote(int frame, int step) const;

private:
    void followRunSlice();

    LiveSegmentation& m_live;
    ViewerModel& m_model;
    Grab m_grab;
};

}  // namespace lucent::ui
