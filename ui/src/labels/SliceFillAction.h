/// @brief Labels > Fill between slices (I): the active label filled along the axis of the view in
/// use, shown in the views with a Keep / Cancel prompt that does not block them (slices can be
/// scrolled through before deciding).
#pragma once

#include "lucent/ui/SliceFillModel.h"

#include <QObject>

class QAction;
class QMessageBox;
class QWidget;

namespace lucent::ui {

class ViewGrid;

class SliceFillAction : public QObject {
    Q_OBJECT
public:
    SliceFillAction(ViewerModel* model, ViewGrid* grid, QWidget* parent);

    QAction* action() const { return m_action; }
    SliceFillModel& model() { return m_fill; }
    /// Fills now, as the menu item does; false (and a message) when nothing was filled.
    bool trigger();

signals:
    void message(const QString& text);

private:
    void showPrompt();

    ViewerModel* m_model;
    ViewGrid* m_grid;
    QWidget* m_parent;
    SliceFillModel m_fill;
    QAction* m_action;
    QMessageBox* m_prompt = nullptr;
};

}  // namespace lucent::ui
