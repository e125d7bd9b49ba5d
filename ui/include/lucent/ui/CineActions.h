/// @brief The View menu's cine items and the tool bar's cine rate, bound to the CinePlayer: play / pause
/// checked as the player plays, bounce, through time frames; the frame shown is said in the status bar.
#pragma once

#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QSpinBox;
class QToolBar;

namespace lucent::ui {

class CinePlayer;
class ViewerModel;

class CineActions : public QObject {
    Q_OBJECT
public:
    CineActions(ViewerModel* model, CinePlayer* cine, QObject* parent = nullptr);

    /// A separator, Cine play / pause, Cine bounces, Cine through time frames.
    void addTo(QMenu* view);
    /// "  Cine " and the rate in slices per second.
    void addRateTo(QToolBar* bar);

    QAction* play() const { return m_play; }
    QAction* bounce() const { return m_bounce; }
    QAction* throughFrames() const { return m_frames; }
    /// Made by addRateTo(); null before.
    QSpinBox* rate() const { return m_rate; }

signals:
    /// A line for the status bar for `timeoutMs` (no volume to play, the frame of a 4D volume shown).
    void message(const QString& text, int timeoutMs);

private:
    ViewerModel* m_model;
    CinePlayer* m_cine;
    QAction *m_play, *m_bounce, *m_frames;
    QSpinBox* m_rate = nullptr;
};

}  // namespace lucent::ui
