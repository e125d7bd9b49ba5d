/// @brief The measurements dock: the list (type, value, slice) of the volume's rulers, angles and
/// ROIs, delete, CSV export, and the layer that draws the measurements on every view (the Tools >
/// Measure menu that picks the measuring tool: MeasureActions.h).
#pragma once

#include "lucent/core/MeasurementSet.h"
#include "lucent/ui/MeasureTool.h"

#include <QDockWidget>

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
    /// Asks where, then exportCsv(); a failure is said in message().
    void askExportCsv();
    /// The views draw again (the measurements' overlay, the selected one).
    void repaintViews();
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

    ViewerModel* m_model;
    ViewGrid* m_grid;
    MeasurementSet m_set;
    MeasureTool m_tool{&m_set};
    QTableWidget* m_table = nullptr;
    std::uint64_t m_shownRevision = 0;  // the set's revision the rows show
};

}  // namespace lucent::ui
