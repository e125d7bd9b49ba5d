/// @brief Cine: plays through the slices of the active view at a chosen rate (one QTimer; the
/// frame logic is core's CineStepper).
#pragma once

#include "lucent/core/CineStepper.h"
#include "lucent/render/SliceViewGeometry.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace lucent::ui {

class ViewGrid;
class ViewerModel;

class CinePlayer : public QObject {
    Q_OBJECT
public:
    CinePlayer(ViewerModel* model, ViewGrid* grid, QObject* parent = nullptr);

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
    void tick();
    /// The played view's geometry at the model's cursor (its slices, and how to reach one).
    render::SliceViewGeometry plane() const;

    ViewerModel* m_model;
    ViewGrid* m_grid;
    CineStepper m_stepper;
    QTimer m_timer;
    QElapsedTimer m_clock;
    int m_axis = 2;
    render::Orientation m_orientation = render::Orientation::Axial;
    bool m_throughFrames = false;
    bool m_playingFrames = false;  // this run steps frames (decided at start)
};

}  // namespace lucent::ui
