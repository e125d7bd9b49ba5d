/// @brief The cine items and rate (CineActions.h), bound to the CinePlayer and the model's frames.
#include "lucent/ui/CineActions.h"

#include "ActionBinding.h"

#include "lucent/ui/CinePlayer.h"
#include "lucent/ui/ViewerModel.h"

#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QToolBar>

namespace lucent::ui {

CineActions::CineActions(ViewerModel* model, CinePlayer* cine, QObject* parent)
    : QObject(parent), m_model(model), m_cine(cine) {
    m_play = makeAction(this, "&Cine play / pause", {QKeySequence("P")}, "cinePlay");
    m_play->setCheckable(true);
    connect(m_play, &QAction::triggered, m_cine, [this](bool on) {
        if (m_cine->setPlaying(on)) return;
        checkQuietly(m_play, false);  // checked only while the player plays
        emit message(ViewerModel::noVolumeMessage, 4000);
    });
    connect(m_cine, &CinePlayer::playingChanged, m_play, &QAction::setChecked);
    m_bounce = makeAction(this, "Cine &bounces (else loops)", {}, "cineBounce");
    m_bounce->setCheckable(true);
    connect(m_bounce, &QAction::triggered, m_cine, &CinePlayer::setBounce);
    m_frames = makeAction(this, "Cine through &time frames (4D)", {}, "cineFrames");
    m_frames->setCheckable(true);
    connect(m_frames, &QAction::triggered, m_cine, [this](bool on) {
        const bool was = m_cine->playing();
        m_cine->setPlaying(false);
        m_cine->setThroughFrames(on);
        if (was) m_cine->setPlaying(true);
    });
    connect(m_model, &ViewerModel::frameChanged, this, [this] {
        emit message(QString("Frame %1 / %2").arg(m_model->frame() + 1).arg(m_model->frameCount()), 2000);
    });
}

void CineActions::addTo(QMenu* view) {
    view->addSeparator();
    view->addActions({m_play, m_bounce, m_frames});
}

void CineActions::addRateTo(QToolBar* bar) {
    bar->addWidget(new QLabel("  Cine ", bar));
    m_rate = new QSpinBox(bar);
    m_rate->setRange(1, 60);
    m_rate->setSuffix(" fps");
    m_rate->setValue(int(m_cine->rate()));
    m_rate->setObjectName("cineRate");
    m_rate->setToolTip("Cine rate in slices per second (View > Cine, P)");
    bar->addWidget(m_rate);
    connect(m_rate, &QSpinBox::valueChanged, m_cine, [this](int fps) { m_cine->setRate(fps); });
}

}  // namespace lucent::ui
