/// @brief The live run shown in the 3D pane (LivePreviewWiring.h).
#include "lucent/ui/LivePreviewWiring.h"

#include "lucent/ui/LiveSegmentation.h"
#include "lucent/ui/View3DWidget.h"

namespace lucent::ui {

void showLiveIn3D(LiveSegmentation* live, View3DWidget* view) {
    view->followLive(live);
    QObject::connect(live, &LiveSegmentation::framed, view, &View3DWidget::onLiveFrame);
    QObject::connect(live, &LiveSegmentation::stateChanged, view, &View3DWidget::onLiveState);
    QObject::connect(live, &LiveSegmentation::shownValuesChanged, view, &View3DWidget::onLiveShownValues);
    QObject::connect(live, &LiveSegmentation::previewTargetsChanged, view, &View3DWidget::onLiveTargets);
    QObject::connect(live, &QObject::destroyed, view, &View3DWidget::forgetLive);
}

}  // namespace lucent::ui
