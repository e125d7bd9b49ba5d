/// @brief The Segment menu: a method's mode (G, S, Shift+S) or its dialog (F, C, grow from seeds), the run's
/// Play / pause, Step, Accept (enabled as the model offers it: SegmentationModel::canAccept) and Cancel,
/// region growing's interval a step wider or narrower, and the panel. The panel asks what a method needs
/// (its dialogs, the label to accept into); the model and the live run do the rest.
#pragma once

#include <QObject>

class QAction;
class QMenu;

namespace lucent::ui {

class SegmentPanel;

class SegmentActions : public QObject {
    Q_OBJECT
public:
    explicit SegmentActions(SegmentPanel* panel, QObject* parent = nullptr);

    /// The methods, a separator, Play / pause, Step, Accept, Cancel, a separator, Widen and Narrow
    /// interval, a separator.
    void addTo(QMenu* segment);
    /// Show the panel.
    void addPanelTo(QMenu* segment);

    QAction* accept() const { return m_accept; }
    QAction* playPause() const { return m_play; }

private:
    void makeMethods();
    void makeRun();
    /// Accept's state as the model offers it (its run, its voxels, the clusters ticked).
    void followAccept();

    SegmentPanel* m_panel;
    QAction *m_regionGrowing, *m_snake, *m_snake3d, *m_fc, *m_fcm, *m_growCut;
    QAction *m_play, *m_step, *m_accept, *m_cancel, *m_widen, *m_narrow, *m_show;
};

}  // namespace lucent::ui
