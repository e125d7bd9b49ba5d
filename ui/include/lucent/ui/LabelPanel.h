/// @brief The label panel (a dock): the labels with colour, name, visibility, lock and opacity,
/// add / remove, the active label (the selected row), brush and eraser controls, the island tools,
/// and per-label statistics with a CSV export (the Labels menu: LabelActions.h).
#pragma once

#include "lucent/core/LabelStatistics.h"
#include "lucent/ui/LabelToolActions.h"

#include <QDockWidget>

#include <vector>

class QAction;
class QComboBox;
class QDoubleSpinBox;
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

    BrushTool& brush() { return m_tools->brush(); }
    /// Paint brush, Eraser, Keep clicked island: the panel's buttons and the Labels menu.
    LabelToolActions& tools() { return *m_tools; }
    /// Labels > Pick brush range at cursor (V) and Fill between slices (I).
    QAction* pickRangeAction() const;
    QAction* fillAction() const;
    /// The statistics as last computed (they follow edits after a short pause; refreshStatistics()
    /// computes them now).
    const std::vector<LabelStatistics>& statistics() const { return m_statistics; }
    void refreshStatistics();
    /// Writes the statistics as CSV to `path` (atomically); false with `error` naming the file.
    bool exportStatistics(const QString& path, QString* error = nullptr);
    /// Asks where, then exportStatistics(); a failure is said in message().
    void askExportStatistics();
    /// Island tools on the active label; false when nothing changed (or the label is locked).
    bool keepLargest();
    bool removeSmall(int minVoxels);
    /// The size the panel's "Remove islands under" box says.
    int minIslandVoxels() const;
    /// Labels > Fill between slices' model.
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
    bool activeLabelEditable();
    std::uint8_t valueOfRow(int row) const;

    ViewerModel* m_model;
    ViewGrid* m_grid;
    LabelToolActions* m_tools;
    std::vector<LabelStatistics> m_statistics;
    QTableWidget* m_table = nullptr;
    QComboBox* m_shape = nullptr;
    QComboBox* m_over = nullptr;
    QDoubleSpinBox* m_diameter = nullptr;
    QSpinBox* m_minVoxels = nullptr;
    QTimer* m_statsTimer = nullptr;
    SliceFillAction* m_fill = nullptr;
    BrushRange* m_range = nullptr;
    bool m_syncing = false;
    bool m_statisticsStale = true;
};

}  // namespace lucent::ui
