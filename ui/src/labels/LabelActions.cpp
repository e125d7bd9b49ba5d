/// @brief The Labels menu (LabelActions.h): the panel's tools and the label layer's edits.
#include "lucent/ui/LabelActions.h"

#include "ActionBinding.h"

#include "lucent/ui/LabelPanel.h"

#include <QMenu>

namespace lucent::ui {

LabelActions::LabelActions(LabelPanel* panel, QObject* parent) : QObject(parent), m_panel(panel) {
    // The dock's own show / hide action, named for the menu.
    QAction* show = m_panel->toggleViewAction();
    show->setText("Label &panel");
    show->setShortcut(QKeySequence("L"));
    show->setObjectName("labelPanelAction");
    m_keepLargest = makeAction(this, "Keep &largest island", {}, "keepLargestAction");
    connect(m_keepLargest, &QAction::triggered, m_panel, [this] { m_panel->keepLargest(); });
    m_removeSmall = makeAction(this, "&Remove small islands", {}, "removeSmallAction");
    connect(m_removeSmall, &QAction::triggered, m_panel, [this] { m_panel->removeSmall(m_panel->minIslandVoxels()); });
    m_addLabel = makeAction(this, "&Add label", {}, "addLabelAction");
    connect(m_addLabel, &QAction::triggered, m_panel, [this] { m_panel->addLabel(); });
    m_exportStatistics = makeAction(this, "E&xport statistics...");
    connect(m_exportStatistics, &QAction::triggered, m_panel, &LabelPanel::askExportStatistics);
}

void LabelActions::addTo(QMenu* labels) {
    labels->addAction(m_panel->toggleViewAction());
    labels->addSeparator();
    labels->addActions(m_panel->tools().actions());
    labels->addActions({m_panel->pickRangeAction(), m_keepLargest, m_removeSmall, m_panel->fillAction()});
    labels->addSeparator();
    labels->addActions({m_addLabel, m_exportStatistics});
}

}  // namespace lucent::ui
