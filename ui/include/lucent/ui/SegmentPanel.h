/// @brief The Segment dock panel: a page per method (ui/src/segment/) and the common row (backend,
/// play / step, accept / cancel). The state and rules are SegmentationModel's, the run
/// LiveSegmentation's; this class only binds widgets to them (the Segment menu: SegmentActions.h).
#pragma once

#include "lucent/ui/LiveSegmentation.h"
#include "lucent/ui/SegmentSettings.h"
#include "lucent/ui/SegmentationModel.h"
#include "lucent/ui/ViewTool.h"

#include <QDockWidget>

class QComboBox;
class QLabel;
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

    LiveSegmentation& live() { return *m_live; }
    /// The run's recording (Segment > Record this run...: RecordActions.h); its frames are the window's.
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
    /// Fuzzy connectedness and fuzzy C-means: their page, then their dialog, then the run (or why not).
    void askFuzzyConnectedness();
    void askFuzzyCMeans();
    /// Grow from seeds: its page, and a run of the strokes painted so far (or why not).
    void askGrowCut();
    /// Says `message` in the panel and the status bar (message()), not in a modal box: a run fails
    /// asynchronously, often while the user drags a slider, and a dialog would steal the drag.
    void showError(const QString& message);
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
    void refresh();
    void refreshStatus();
    void setTool(ViewTool* tool);

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
    QSpinBox* m_perFrame = nullptr;
    QSpinBox* m_speed = nullptr;  // steps per second, 0 shown as "max"
    RunRecording* m_recording = nullptr;
};

}  // namespace lucent::ui
