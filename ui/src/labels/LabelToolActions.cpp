/// @brief The label tools' actions (LabelToolActions.h), bound to the views' active tool.
#include "lucent/ui/LabelToolActions.h"

#include "ActionBinding.h"

#include "lucent/ui/ViewGrid.h"

namespace lucent::ui {

LabelToolActions::LabelToolActions(ViewerModel* model, ViewGrid* grid, QObject* parent)
    : QObject(parent), m_grid(grid), m_brush(model), m_pick(model) {
    const QList<QAction*> tools = makeToolGroup(
        this, {{"&Paint brush", "B", "paintAction"}, {"&Eraser", "E", "eraseAction"}, {"Keep &clicked island", "K", "keepClickedAction"}},
        [this] { setToolFromActions(); });
    m_paint = tools[0];
    m_erase = tools[1];
    m_keepClicked = tools[2];
    m_group = m_paint->actionGroup();
    // Another panel's tool took the views (a segmentation mode, a measurement): ours lets go.
    connect(m_grid, &ViewGrid::activeToolChanged, this, [this](ViewTool* tool) {
        if (!m_takingTool && tool != &m_brush && tool != &m_pick && m_group->checkedAction())
            m_group->checkedAction()->setChecked(false);
    });
}

bool LabelToolActions::brushChosen() const {
    const QAction* checked = m_group->checkedAction();
    return checked && (checked == m_paint || checked == m_erase);
}

void LabelToolActions::setToolFromActions() {
    QAction* checked = m_group->checkedAction();
    ViewTool* tool = nullptr;
    if (checked == m_paint || checked == m_erase) {
        m_brush.setErase(checked == m_erase);
        tool = &m_brush;
    } else if (checked == m_keepClicked) {
        tool = &m_pick;
    }
    if (tool != &m_brush) m_brush.leave();  // no outline left behind
    // Unchecked: the views go back to navigating, unless another panel's tool has them already.
    const ViewTool* held = m_grid->activeTool();
    if (!tool && held != &m_brush && held != &m_pick) return;
    m_takingTool = true;
    m_grid->setActiveTool(tool);
    m_takingTool = false;
    if (tool) emit taken();
}

}  // namespace lucent::ui
