#include "PanelScroll.h"

#include <QDockWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>

namespace lucent::ui {

void setScrollingBody(QDockWidget* dock, QWidget* body) {
    auto* area = new QScrollArea(dock);
    area->setObjectName(dock->objectName() + "Scroll");
    area->setFrameShape(QFrame::NoFrame);
    area->setWidgetResizable(true);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setWidget(body);
    // The width the body needs beside a vertical scroll bar, so that scrolling never hides a column.
    const int bar = area->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, area);
    area->setMinimumWidth(body->minimumSizeHint().width() + bar);
    if (body->maximumWidth() < QWIDGETSIZE_MAX) area->setMaximumWidth(body->maximumWidth() + bar);
    dock->setWidget(area);
}

}  // namespace lucent::ui
