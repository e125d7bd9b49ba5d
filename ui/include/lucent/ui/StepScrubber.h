/// @brief The scrubber over a live run's steps and its Replay button, the "Step" row of the snake pages
/// (the region snake's polygons, the 3D snake's states): every way of moving the handle (a drag, a click
/// on the track, the keys) shows that step, and its last step follows the run again; a replay moves the
/// handle from the first step to the last at the run's pace until the user takes it.
#pragma once

#include "lucent/core/seg/Methods.h"

#include <QObject>

#include <functional>

class QFormLayout;
class QPushButton;
class QSlider;
class QTimer;

namespace lucent::ui {

class StepScrubber : public QObject {
public:
    /// Adds the row to `form` (widgets owned by the form's widget, named `name` + "Scrubber" and `name` +
    /// "Replay"). `show(i)` shows step i, -1 the run's latest; `count()` is the number of steps the run holds.
    StepScrubber(const QString& name, QFormLayout* form, std::function<void(int)> show, std::function<int()> count);

    /// The handle over `count` steps, on step `shown` (-1: the last), without showing it again (signals blocked).
    void setSteps(int count, int shown);
    /// From step 0 to the last, a step a tick at `speed` (steps a second) of a run of `method`.
    void replay(Method method, int speed);
    /// The time between two steps of a replay at the run's pace `speed` (kUnpaced: the method's watchable pace).
    static int replayIntervalMs(Method method, int speed);

    QSlider* slider() const { return m_slider; }
    /// Its clicks are the page's to answer: the page knows whether its run can be replayed.
    QPushButton* replayButton() const { return m_replay; }

private:
    QSlider* m_slider;
    QPushButton* m_replay;
    QTimer* m_timer;
};

}  // namespace lucent::ui
