/// @brief The label panel (a dock): the labels with colour, name, visibility, lock and opacity,
/// add / remove, the active label (the selected row), brush and eraser controls, the island tools,
/// and per-label statistics with a CSV export; plus the Labels menu with its shortcuts.
#pragma once

#include "lucent/core/LabelStatistics.h"
#include "lucent/ui/BrushTool.h"
#include "lucent/ui/IslandPickTool.h"

#include <QDockWidget>

#include <vector>

class QAction;
class QActionGroup;
class QComboBox;
class QDoubleSpinBox;
class QMenuBar;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace lucent::ui {

class ViewerModel;
class ViewGrid;
class SliceFillAction;
class BrushRange;
class SliceFillModel;

class LabelPanel : public QDockWidget {
    Q_OBJECT
public:
    /// Table columns.
    enum Column { Colour, Name, Visible, Locked, Opacity, Voxels, Millilitres, Mean, StdDev, ColumnCount };

    LabelPanel(ViewerModel* model, ViewGrid* grid, QWidget* parent = nullptr);

    /// Adds the Labels menu to `bar`, before the menu of `before`.
    void buildMenus(QMenuBar* bar, QAction* before);
    BrushTool& brush() { return m_brush; }
    /// The statistics as last computed (they follow edits after a short pause; refreshStatistics()
    /// computes them now).
    const std::vector<LabelStatistics>& statistics() const { return m_statistics; }
    void refreshStatistics();
    /// Writes the statistics as CSV to `path` (atomically); false with `error` naming the file.
    bool exportStatistics(const QString& path, QString* error = nullptr);
    /// Island tools on the active label; false when nothing changed (or the label is locked).
    bool keepLargest();
    bool removeSmall(int minVoxels);
    /// Labels > Fill between slices' model (after buildMenus(); null before).
    SliceFillModel* sliceFill();
    /// Adds a label with the smallest free value and makes it active; 0 when all 255 are taken.
    std::uint8_t addLabel();

signals:
    /// A problem for the status bar (a locked label, a failed export).
    void message(const QString& text);

private:
    QWidget* buildTable();
    QWidget* buildTools();
    /// Rebuilds the rows from the model's table (names, colours, checks) and the statistics.
    void rebuildRows();
    void selectActiveRow();
    /// Refills the "Paint over" choices from the table, keeping the chosen value while it exists.
    void fillPaintOver();
    /// Gives the brush the chosen "Paint over" value.
    void applyPaintOver();
    void fillStatistics();
    /// Reads row `row` back into the model's table (the user edited a cell).
    void applyRow(int row);
    void chooseColour(int row);
    void setToolFromActions();
    bool activeLabelEditable();
    std::uint8_t valueOfRow(int row) const;

    ViewerModel* m_model;
    ViewGrid* m_grid;
    BrushTool m_brush;
    IslandPickTool m_pick;
    std::vector<LabelStatistics> m_statistics;
    QTableWidget* m_table = nullptr;
    QComboBox* m_shape = nullptr;
    QComboBox* m_over = nullptr;
    QDoubleSpinBox* m_diameter = nullptr;
    QSpinBox* m_minVoxels = nullptr;
    QTimer* m_statsTimer = nullptr;
    QActionGroup* m_toolGroup = nullptr;
    SliceFillAction* m_fill = nullptr;
    BrushRange* m_range = nullptr;
    QAction *m_paintAction = nullptr, *m_eraseAction = nullptr, *m_pickAction = nullptr;
    bool m_syncing = false;
    bool m_statisticsStale = true;
    bool m_takingTool = false;  // the grid's activeToolChanged() is our own doing
};

}  // namespace lucent::ui
