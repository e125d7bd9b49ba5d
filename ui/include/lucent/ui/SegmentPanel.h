/// @brief The Segment menu and dock panel: a page per method (ui/src/segment/) and the common row
/// (backend, play / step, accept / cancel). The state and rules are SegmentationModel's, the run
/// LiveSegmentation's; this class only binds widgets and menus to them.
#pragma once

#include "lucent/ui/LiveSegmentation.h"
#include "lucent/ui/SegmentSettings.h"
#include "lucent/ui/SegmentationModel.h"
#include "lucent/ui/ViewTool.h"

#include <QDockWidget>

class QAction;
class QComboBox;
class QLabel;
class QMenuBar;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace lucent::ui {

class ViewerModel;
class ViewGrid;
class SegmentPage;
class RunRecording;
class GrowCutSeeds;

class SegmentPanel : public QDockWidget {
    Q_OBJECT
public:
    SegmentPanel(ViewerModel* model, ViewGrid* grid, QWidget* parent = nullptr);

    /// Adds the Edit (undo / redo) and Segment menus to `bar`, before the menu of `before`.
    void buildMenus(QMenuBar* bar, QAction* before);
    LiveSegmentation& live() { return *m_live; }
    /// Segment > Record this run... (made with the menus).
    RunRecording* recording() { return m_recording; }
    SegmentationModel& model() { return *m_segmentation; }
    /// Grow from seeds: the label layer's strokes as the run's seeds (issue 46).
    GrowCutSeeds& growCut() { return *m_growCut; }
    SeedTool& seeds() { return m_segmentation->seedTool(); }
    RectangleTool& rectangle() { return m_segmentation->rectangleTool(); }

    /// Enters a method's mode: its page, its tool on the views.
    void enterMode(Method method);
    /// Starts `method` with `request` (scripts and tests). False with `error` when it cannot start.
    bool startWith(Method method, const SegmentationRequest& request, bool play, QString* error = nullptr);
    /// Region growing: the interval (a change regrows live).
    void setInterval(double lower, double upper) { m_segmentation->setInterval(lower, upper); }
    /// Fuzzy connectedness: the live threshold (0..1).
    void setThreshold(double threshold) { m_segmentation->setThreshold(threshold); }
    /// Accept with the label of the label box (FCM: the checked clusters, each its own label).
    bool acceptResult();
    SegmentSettings settings() const { return m_segmentation->settings(); }
    /// Puts saved settings back without starting a run (a live one is cancelled).
    void restoreSettings(const SegmentSettings& settings) { m_segmentation->restoreSettings(settings); }
    /// The voxel overlay of `view`: seeds, the rectangle being dragged, the snake's polygon.
    render::ViewOverlay overlayFor(const render::SliceViewGeometry& view) const {
        return m_segmentation->overlayFor(view);
    }

signals:
    /// A line for the status bar: a problem (a run that failed, a method without its seeds) or a
    /// recording's closing line.
    void message(const QString& text);

private:
    QWidget* buildCommon();
    QSpinBox* buildSpeed(QWidget* parent);
    void bindModel();
    void bindViews();
    void applyMode();
    void askFuzzyConnectedness();
    void askFuzzyCMeans();
    /// Segment > Grow from seeds: its page, and a run of the strokes painted so far (or why not).
    void askGrowCut();
    void refresh();
    void refreshStatus();
    void refreshUndo();
    void setTool(ViewTool* tool);
    void showError(const QString& message);

    ViewerModel* m_model;
    ViewGrid* m_grid;
    LiveSegmentation* m_live;
    SegmentationModel* m_segmentation;
    GrowCutSeeds* m_growCut;

    QStackedWidget* m_pages = nullptr;
    std::vector<SegmentPage*> m_pageOf;  // by int(Method)
    QLabel *m_title = nullptr, *m_status = nullptr;
    QComboBox* m_backend = nullptr;
    QSpinBox* m_label = nullptr;
    QPushButton *m_play = nullptr, *m_step = nullptr, *m_accept = nullptr, *m_cancel = nullptr;
    QAction* m_acceptAction = nullptr;  // Segment > Accept (Ctrl+Return): enabled as m_accept
    QSpinBox* m_perFrame = nullptr;
    QSpinBox* m_speed = nullptr;  // steps per second, 0 shown as "max"
    QAction *m_undo = nullptr, *m_redo = nullptr;
    RunRecording* m_recording = nullptr;
};

}  // namespace lucent::ui
