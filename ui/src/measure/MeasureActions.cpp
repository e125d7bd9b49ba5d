/// @brief Tools > Measure (MeasureActions.h), bound to the views' active tool and the measurement panel.
#include "lucent/ui/MeasureActions.h"

#include "ActionBinding.h"

#include "lucent/ui/MeasurementPanel.h"
#include "lucent/ui/ViewGrid.h"

#include <QMenu>

namespace lucent::ui {

MeasureActions::MeasureActions(MeasurementPanel* panel, ViewGrid* grid, QObject* parent)
    : QObject(parent), m_panel(panel), m_grid(grid) {
    const QList<QAction*> tools = makeToolGroup(this,
                                                {{"&Ruler (drag)", "D", "measureRulerAction"},
                                                 {"&Angle (three clicks)", "A", "measureAngleAction"},
                                                 {"&Ellipse ROI (drag)", "O", "measureEllipseAction"},
                                                 {"Re&ctangle ROI (drag)", "Q", "measureRectangleAction"}},
                                                [this] { setToolFromActions(); });
    m_ruler = tools[0];
    m_angle = tools[1];
    m_ellipse = tools[2];
    m_rectangle = tools[3];
    m_group = m_ruler->actionGroup();
    // The dock's own show / hide action, named for the menu.
    QAction* show = m_panel->toggleViewAction();
    show->setText("Measurement &panel");
    show->setObjectName("measurementPanelAction");
    m_export = makeAction(this, "E&xport measurements...", {}, "exportMeasurementsAction");
    connect(m_export, &QAction::triggered, m_panel, &MeasurementPanel::askExportCsv);
    // Another panel's tool took the views (the brush, a segmentation mode): ours lets go.
    connect(m_grid, &ViewGrid::activeToolChanged, this, [this](ViewTool* tool) {
        if (!m_takingTool && tool != &m_panel->tool() && m_group->checkedAction())
            m_group->checkedAction()->setChecked(false);
    });
}

void MeasureActions::addTo(QMenu* measure) {
    measure->addActions({m_ruler, m_angle, m_ellipse, m_rectangle});
    measure->addSeparator();
    measure->addActions({m_panel->toggleViewAction(), m_export});
}

void MeasureActions::setToolFromActions() {
    QAction* checked = m_group->checkedAction();
    MeasureTool& tool = m_panel->tool();
    m_takingTool = true;
    if (!checked) {
        tool.cancel();
        // The views go back to navigating, unless another panel's tool has them already.
        if (m_grid->activeTool() == &tool) m_grid->setActiveTool(nullptr);
        m_takingTool = false;
        return m_panel->repaintViews();
    }
    tool.setKind(checked == m_angle       ? MeasurementKind::Angle
                 : checked == m_ellipse   ? MeasurementKind::Ellipse
                 : checked == m_rectangle ? MeasurementKind::Rectangle
                                          : MeasurementKind::Ruler);
    m_grid->setActiveTool(&tool);  // the other panels' tools let go (activeToolChanged)
    m_takingTool = false;
    m_panel->show();
    m_panel->raise();
    m_panel->repaintViews();
}

}  // namespace lucent::ui
