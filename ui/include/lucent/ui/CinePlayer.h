/// @brief Cine: plays through the slices of the active view at a chosen rate (one QTimer; the
/// frame logic is core's CineStepper).
#pragma once

#include "lucent/core/CineStepper.h"
#include "lucent/render/SliceViewGeometry.h"

#include <QObject>
#include <QTimer>

#include <chrono>
#include <functional>

namespace lucent::ui {

class ViewGrid;
class ViewerModel;

class CinePlayer : public QObject {
    Q_OBJECT
public:
    /// The time source the frames follow (steady_clock by default).
    using Clock = std::function<std::chrono::steady_clock::time_point()>;

    CinePlayer(ViewerModel* model, ViewGrid* grid, QObject* parent = nullptr);

    /// Replaces the time source (tests: a fake clock, so that the slices shown follow its time and
    /// not the machine's load); empty restores steady_clock. Time before the call is not played.
    void setClock(Clock clock);
    /// What the timer calls: turns the time since the last tick into slices. Public so that tests
    /// can tick deterministically; does nothing while stopped.
    void tick();

    /// Starts from the cursor's slice along the active view's normal (the axial view when none is
    /// active); false when there is no volume. Stopping keeps the slice it reached.
    bool setPlaying(bool playing);
    bool playing() const { return m_timer.isActive(); }
    /// Frames (slices) per second; applies at once while playing.
    void setRate(double fps);
    double rate() const { return m_stepper.rate(); }
    /// Bounce between the first and last slice instead of wrapping around.
    void setBounce(bool bounce);
    bool bounce() const { return m_stepper.mode() == CineStepper::Mode::Bounce; }
    /// The volume axis being played (valid while playing; on resliced planes the nearest one).
    int axis() const { return m_axis; }
    /// Plays the frames of a 4D volume instead of slices (when the model has several frames).
    void setThroughFrames(bool frames) { m_throughFrames = frames; }
    bool throughFrames() const { return m_throughFrames; }

signals:
    void playingChanged(bool playing);

private:
    /// The played view's geometry at the model's cursor (its slices, and how to reach one).
    render::SliceViewGeometry plane() const;

    ViewerModel* m_model;
    ViewGrid* m_grid;
    CineStepper m_stepper;
    QTimer m_timer;
    Clock m_clock;
    std::chrono::steady_clock::time_point m_lastTick{};
    int m_axis = 2;
    render::Orientation m_orientation = render::Orientation::Axial;
    bool m_throughFrames = false;
    bool m_playingFrames = false;  // this run steps frames (decided at start)
};

}  // namespace lucent::ui
