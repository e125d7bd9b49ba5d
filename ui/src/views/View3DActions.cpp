/// @brief The View menu's 3D items (View3DActions.h), bound to the 3D pane.
#include "lucent/ui/View3DActions.h"

#include "ActionBinding.h"

#include "lucent/render/Preset3D.h"
#include "lucent/ui/View3DWidget.h"

#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>

namespace lucent::ui {

View3DActions::View3DActions(View3DWidget* view, QWidget* window, QObject* parent)
    : QObject(parent), m_view(view), m_window(window) {
    auto* group = new QActionGroup(this);
    for (render::Preset3D p : render::presets3D()) {
        QAction* a = makeAction(this, render::preset3DLabel(p), {}, QString("preset3d_") + render::preset3DName(p));
        a->setCheckable(true);
        a->setData(int(p));
        group->addAction(a);
        connect(a, &QAction::triggered, m_view, [this, p] { m_view->setPreset(p); });
        m_presets.push_back(a);
    }
    m_planes = makeAction(this, "Slice planes in 3D", {}, "planes3d");
    m_planes->setCheckable(true);
    m_planes->setChecked(true);
    connect(m_planes, &QAction::triggered, m_view, &View3DWidget::setPlanesVisible);
    m_reset = makeAction(this, "Reset 3D &view", {}, "reset3d");
    connect(m_reset, &QAction::triggered, m_view, &View3DWidget::resetCamera);
    m_screenshot = makeAction(this, "Save 3D &screenshot...");
    connect(m_screenshot, &QAction::triggered, this, &View3DActions::saveScreenshot);
}

void View3DActions::addTo(QMenu* view) {
    view->addSeparator();
    QMenu* presets = view->addMenu("3D &preset");
    for (QAction* a : m_presets) presets->addAction(a);
    connect(presets, &QMenu::aboutToShow, this, [this] {  // the volume may have chosen one
        for (QAction* a : m_presets) a->setChecked(a->data().toInt() == int(m_view->preset()));
    });
    view->addActions({m_planes, m_reset, m_screenshot});
}

void View3DActions::saveScreenshot() {
    const QString path = QFileDialog::getSaveFileName(m_window, "Save 3D screenshot", "lucent-3d.png", "PNG images (*.png)");
    QString error;
    if (!path.isEmpty() && !m_view->saveScreenshot(path, &error))
        QMessageBox::critical(m_window, "Cannot save the 3D screenshot", error);
}

}  // namespace lucent::ui
