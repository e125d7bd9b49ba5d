/// @brief Cine playback: the timer turns elapsed time into slices on the model's cursor.
#include "lucent/ui/CinePlayer.h"

#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <algorithm>
#include <cmath>

namespace lucent::ui {

CinePlayer::CinePlayer(ViewerModel* model, ViewGrid* grid, QObject* parent)
    : QObject(parent), m_model(model), m_grid(grid) {
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &CinePlayer::tick);
    // Another volume has other slices: playing on would jump through a volume nobody asked to play.
    connect(m_model, &ViewerModel::volumeChanged, this, [this] { setPlaying(false); });
    setRate(10.0);
    setClock({});
}

void CinePlayer::setClock(Clock clock) {
    m_clock = clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); });
    m_lastTick = m_clock();
}

bool CinePlayer::setPlaying(bool playing) {
    if (playing == this->playing()) return true;
    if (!playing) {
        m_timer.stop();
        emit playingChanged(false);
        return true;
    }
    if (!m_model->hasVolume()) return false;
    SliceViewWidget* view = m_grid->activeView() ? m_grid->activeView() : m_grid->view(render::Orientation::Axial);
    m_axis = view->view().normalAxis();
    m_orientation = view->orientation();
    m_playingFrames = m_throughFrames && m_model->frameCount() > 1;
    if (m_playingFrames)
        m_stepper.start(m_model->frameCount(), m_model->frame());
    else
        m_stepper.start(plane().sliceCount(), plane().slice());
    m_lastTick = m_clock();
    m_timer.start();
    emit playingChanged(true);
    return true;
}

void CinePlayer::setRate(double fps) {
    m_stepper.setRate(fps);
    // Ticks twice per frame (at most every 5 ms): the stepper counts time, so a late tick only
    // delays a frame by part of a period instead of slowing the whole loop.
    m_timer.setInterval(std::clamp(int(500.0 / m_stepper.rate()), 5, 250));
}

void CinePlayer::setBounce(bool bounce) {
    m_stepper.setMode(bounce ? CineStepper::Mode::Bounce : CineStepper::Mode::Loop);
}

void CinePlayer::tick() {
    if (!playing()) return;
    if (!m_model->hasVolume()) return void(setPlaying(false));
    // The user scrolled meanwhile: play on from where they went.
    const render::SliceViewGeometry g = plane();
    const int here = m_playingFrames ? m_model->frame() : g.slice();
    // (The view may have switched between its own and resliced planes, which number slices apart.)
    const int count = m_playingFrames ? m_stepper.count() : g.sliceCount();
    if (here != m_stepper.position() || count != m_stepper.count()) m_stepper.start(count, here);
    const auto now = m_clock();
    const double seconds = std::chrono::duration<double>(now - m_lastTick).count();
    m_lastTick = now;
    if (m_stepper.advance(seconds) == 0) return;
    if (m_playingFrames) return m_model->setFrame(m_stepper.position());
    m_model->setCursor(g.cursorOnSlice(m_stepper.position()));
}

render::SliceViewGeometry CinePlayer::plane() const {
    // A copy: a view hidden by the layout has never drawn, so it learns the volume and cursor here.
    render::SliceViewGeometry g = m_grid->view(m_orientation)->view();
    g.setVolume(m_model->volume()->geometry());
    g.setCursor(m_model->cursor());
    return g;
}

}  // namespace lucent::ui
