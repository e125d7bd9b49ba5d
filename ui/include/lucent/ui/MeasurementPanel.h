/// @brief The measurements dock: the list (type, value, slice) of the volume's rulers, angles and
/// ROIs, delete, CSV export; the Tools > Measure menu that picks the measuring tool; and the layer
/// that draws the measurements on every view.
#pragma once

#include "lucent/core/MeasurementSet.h"
#include "lucent/ui/MeasureTool.h"

#include <QDockWidget>

class QAction;
class QActionGroup;
class QMenuBar;
class QTableWidget;

namespace lucent::ui {

class ViewerModel;
class ViewGrid;

class MeasurementPanel : public QDockWidget {
    Q_OBJECT
public:
    /// Table columns.
    enum Column { Id, Type, Value, Slice, ColumnCount };

    MeasurementPanel(ViewerModel* model, ViewGrid* grid, QWidget* parent = nullptr);

    /// Adds Tools > Measure to `bar` (the Tools menu is made before the menu of `before` when no
    /// menu named "toolsMenu" exists yet).
    void buildMenus(QMenuBar* bar, QAction* before);

    /// The volume's measurements (dropped when another volume is loaded).
    const MeasurementSet& measurements() const { return m_set; }
    MeasureTool& tool() { return m_tool; }
    /// Id of the selected row's measurement, 0 when none.
    int selectedId() const;
    /// Adds `m` (a session's measurement) with a fresh id, its figures computed from the volume;
    /// throws std::invalid_argument when its points do not fit its kind or there is no volume.
    int add(Measurement m);
    /// Deletes measurement `id`; false when there is none.
    bool remove(int id);
    /// Writes every measurement as CSV to `path` (atomically); false with `error` naming the file.
    bool exportCsv(const QString& path, QString* error = nullptr);
    /// "HU" for CT, empty (stored units) otherwise.
    std::string unit() const;

signals:
    /// A problem for the status bar (a failed export).
    void message(const QString& text);
    /// A measurement was added, edited or deleted, or the set was replaced (another volume).
    void changed();

private:
    /// Rebuilds the rows from the set, keeping the selection (or selecting `select`), and repaints.
    void refresh(int select = 0);
    void setToolFromActions();
    void repaintViews();

    ViewerModel* m_model;
    ViewGrid* m_grid;
    MeasurementSet m_set;
    MeasureTool m_tool{&m_set};
    QTableWidget* m_table = nullptr;
    QActionGroup* m_toolGroup = nullptr;
    QAction *m_ruler = nullptr, *m_angle = nullptr, *m_ellipse = nullptr, *m_rectangle = nullptr;
    bool m_takingTool = false;  // the grid's activeToolChanged() is our own doing
    std::uint64_t m_shownRevision = 0;  // the set's revision the rows show
};

}  // namespace lucent::ui
