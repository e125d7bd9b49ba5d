/// @brief The label tools as one exclusive but optional group of checkable actions bound to the views'
/// active tool: Paint brush (B), Eraser (E), Keep clicked island (K). The checked one is the views' tool;
/// another panel's tool taking the views unchecks it. The label panel's buttons and the Labels menu show
/// the same actions.
#pragma once

#include "lucent/ui/BrushTool.h"
#include "lucent/ui/IslandPickTool.h"

#include <QList>
#include <QObject>

class QAction;
class QActionGroup;

namespace lucent::ui {

class ViewerModel;
class ViewGrid;

class LabelToolActions : public QObject {
    Q_OBJECT
public:
    LabelToolActions(ViewerModel* model, ViewGrid* grid, QObject* parent = nullptr);

    BrushTool& brush() { return m_brush; }
    IslandPickTool& pick() { return m_pick; }
    QAction* paint() const { return m_paint; }
    QAction* erase() const { return m_erase; }
    QAction* keepClicked() const { return m_keepClicked; }
    /// Paint brush, Eraser, Keep clicked island.
    QList<QAction*> actions() const { return {m_paint, m_erase, m_keepClicked}; }
    /// Whether the brush (painting or erasing) is the checked tool: its outline is drawn then.
    bool brushChosen() const;

signals:
    /// A tool was checked and holds the views (the label panel shows itself).
    void taken();

private:
    void setToolFromActions();

    ViewGrid* m_grid;
    BrushTool m_brush;
    IslandPickTool m_pick;
    QActionGroup* m_group;
    QAction *m_paint, *m_erase, *m_keepClicked;
    bool m_takingTool = false;  // the grid's activeToolChanged() is our own doing
};

}  // namespace lucent::ui
