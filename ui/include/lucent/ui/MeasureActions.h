/// @brief Tools > Measure: the measuring tools as one exclusive but optional group bound to the views'
/// active tool (Ruler D, Angle A, Ellipse ROI O, Rectangle ROI Q; another panel's tool taking the views
/// unchecks them), the measurement panel and the CSV export.
#pragma once

#include <QObject>

class QAction;
class QActionGroup;
class QMenu;

namespace lucent::ui {

class MeasurementPanel;
class ViewGrid;

class MeasureActions : public QObject {
    Q_OBJECT
public:
    MeasureActions(MeasurementPanel* panel, ViewGrid* grid, QObject* parent = nullptr);

    /// The tools, a separator, Measurement panel, Export measurements.
    void addTo(QMenu* measure);

    QAction* ruler() const { return m_ruler; }
    QAction* angle() const { return m_angle; }

private:
    void setToolFromActions();

    MeasurementPanel* m_panel;
    ViewGrid* m_grid;
    QActionGroup* m_group;
    QAction *m_ruler, *m_angle, *m_ellipse, *m_rectangle, *m_export;
    bool m_takingTool = false;  // the grid's activeToolChanged() is our own doing
};

}  // namespace lucent::ui
