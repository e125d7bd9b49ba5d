/// @brief The Segment menu, its dock panel and the view tools: region growing (seeds and an
/// interval that regrows while the sliders move), the snake (rectangle, play / pause / step,
/// scrubber), fuzzy connectedness (dialog, then a live threshold) and fuzzy C-means (dialog, then
/// clusters to accept), with Accept / Cancel and the backend choice. The run itself is
/// LiveSegmentation's; this class only turns widgets into its calls.
#pragma once

#include "lucent/ui/LiveSegmentation.h"
#include "lucent/ui/SegmentSettings.h"
#include "lucent/ui/ViewTool.h"

#include <QDockWidget>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QMenu;
class QMenuBar;
class QPushButton;
class QSlider;
class QSpinBox;
class QStackedWidget;

namespace lucent::ui {

class ViewerModel;
class ViewGrid;

class SegmentPanel : public QDockWidget {
    Q_OBJECT
public:
    SegmentPanel(ViewerModel* model, ViewGrid* grid, QWidget* parent = nullptr);

    /// Adds the Edit (undo / redo) and Segment menus to `bar`, before the menu of `before`.
    void buildMenus(QMenuBar* bar, QAction* before);
    LiveSegmentation& live() { return *m_live; }
    SeedTool& seeds() { return m_seedTool; }
    RectangleTool& rectangle() { return m_rectTool; }

    /// Enters a method's mode: its page, its tool on the views. FCM and FC ask for their
    /// parameters first (interactive) unless `ask` is false (scripts use the request as given).
    void enterMode(Method method);
    /// Starts `method` with `request` (scripts and tests; the interactive path builds the request
    /// from the widgets). False with `error` when it cannot start.
    bool startWith(Method method, const SegmentationRequest& request, bool play, QString* error = nullptr);
    /// Region growing: the interval the sliders show (a change regrows live).
    void setInterval(double lower, double upper);
    /// Fuzzy connectedness: the live threshold (0..1).
    void setThreshold(double threshold);
    /// Accept with the label of the label box (FCM: the checked clusters, each its own label).
    bool acceptResult();
    /// The method chosen, seeds, every method's parameters, backend and iterations per step (what a
    /// session saves; the snake's rectangle is the last one dragged or run).
    SegmentSettings settings() const;
    /// Puts saved settings back without starting a run (a live one is cancelled): the widgets, the
    /// seeds, and the method's page and view tool when one was chosen.
    void restoreSettings(const SegmentSettings& settings);
    /// The voxel overlay of `view`: seeds, the rectangle being dragged, the snake's polygon.
    render::ViewOverlay overlayFor(const render::SliceViewGeometry& view) const;

signals:
    /// A problem to show in the status bar (a run that failed, a method without its seeds).
    void message(const QString& text);

private:
    QWidget* buildCommon();
    QWidget* buildRegionGrowingPage();
    QWidget* buildSnakePage();
    QWidget* buildFcPage();
    QWidget* buildFcmPage();
    void seedsChanged();
    void intervalMoved();
    void snakeRectangle(int slice, std::array<int, 4> rect);
    void askFuzzyConnectedness();
    void askFuzzyCMeans();
    void refresh();
    void refreshUndo();
    void setTool(ViewTool* tool);
    /// The volume's value range (computed once per volume) and the interval widgets' range.
    std::pair<double, double> dataRange();
    SegmentationRequest baseRequest() const;
    void showError(const QString& message);

    ViewerModel* m_model;
    ViewGrid* m_grid;
    LiveSegmentation* m_live;
    SeedTool m_seedTool;
    RectangleTool m_rectTool;
    Method m_mode = Method::RegionGrowing;
    bool m_modeChosen = false;
    // snake polygons are cached per frame so that three views do not each ask the worker
    mutable LiveSegmentation::SlicePolygon m_polygonCache;
    mutable int m_polygonCacheKey = -2;
    mutable std::size_t m_polygonCacheCount = 0;

    QStackedWidget* m_pages = nullptr;
    QLabel *m_title = nullptr, *m_status = nullptr;
    QComboBox* m_backend = nullptr;
    QSpinBox* m_label = nullptr;
    QPushButton *m_play = nullptr, *m_step = nullptr, *m_accept = nullptr, *m_cancel = nullptr;
    QSpinBox* m_perFrame = nullptr;
    QSpinBox *m_lower = nullptr, *m_upper = nullptr;
    QSlider *m_lowerSlider = nullptr, *m_upperSlider = nullptr;
    QComboBox* m_connectivity = nullptr;
    QLabel* m_seedCount = nullptr;
    QSlider* m_scrubber = nullptr;
    QCheckBox* m_propagate = nullptr;
    QSlider* m_threshold = nullptr;
    QLabel* m_thresholdText = nullptr;
    QLabel* m_fcFigures = nullptr;
    QListWidget* m_clusters = nullptr;
    QComboBox* m_fcmHeat = nullptr;
    QCheckBox* m_fcHeat = nullptr;
    QAction *m_undo = nullptr, *m_redo = nullptr;
    FuzzyConnectednessParams m_fcParams;
    FuzzyCMeansParams m_fcmParams;
    SnakeParams m_snakeParams;  // the last rectangle and the step rules the interactive snake uses
    bool m_fcmMasked = false;
    std::shared_ptr<LabelMap> m_fcmMask;
    bool m_syncing = false;
    std::array<double, 2> m_dragInterval{0, 0};
    std::optional<std::pair<double, double>> m_range;  // the interval when a drag on a view began
};

}  // namespace lucent::ui
