/// @brief The Window/Level menu (WindowActions.h): presets and the scan's own windows, bound to the model.
#include "lucent/ui/WindowActions.h"

#include "ActionBinding.h"

#include "lucent/render/WindowLevel.h"
#include "lucent/ui/ViewerModel.h"

#include <QMenu>
#include <QMessageBox>
#include <QSettings>

#include <cmath>
#include <optional>

namespace lucent::ui {

WindowActions::WindowActions(ViewerModel* model, QWidget* window, QObject* parent)
    : QObject(parent), m_model(model), m_window(window) {
    int key = 1;
    for (const auto& p : render::windowPresets()) {
        const QString name = QString::fromStdString(p.name);
        QAction* a = makeAction(this, QString::fromStdString(p.label), {QKeySequence(QString::number(key++))}, "preset_" + name);
        a->setData(name);
        a->setCheckable(true);
        connect(a, &QAction::triggered, this, [this, name] {
            if (!applyPreset(name)) QMessageBox::critical(m_window, "Window preset", ViewerModel::noVolumeMessage);
        });
        m_presets.push_back(a);
    }
}

void WindowActions::addTo(QMenu* menu) {
    m_menu = menu;
    for (QAction* a : m_presets) menu->addAction(a);
    m_scanWindowsEnd = menu->insertSeparator(m_presets.front());
    connect(m_model, &ViewerModel::volumeChanged, this, &WindowActions::rebuildScanWindows);
    connect(menu, &QMenu::aboutToShow, this, &WindowActions::checkCurrentWindow);
    rebuildScanWindows();
}

bool WindowActions::applyPreset(const QString& name) {
    if (!m_model->applyPreset(name)) return false;
    // A scan's own window belongs to that scan: only the named presets are remembered.
    if (!name.startsWith("file")) QSettings().setValue("view/preset", name);
    return true;
}

void WindowActions::rebuildScanWindows() {
    for (QAction* a : m_scanWindows) {
        m_menu->removeAction(a);
        a->setParent(nullptr);  // gone from findChild() at once, deleted once its signals are done
        a->deleteLater();
    }
    m_scanWindows.clear();
    const std::vector<NamedWindow> none;
    const auto& own = m_model->hasVolume() ? m_model->volume()->metadata().windows : none;
    for (std::size_t i = 0; i < own.size(); ++i) {
        const QString name = QString::fromStdString(render::fileWindowName(i));
        // The menu's own, as the Recent menu's paths are: they last as long as the volume.
        QAction* a = makeAction(m_menu, QString::fromStdString(render::fileWindowLabel(own[i], i)), {}, "window_" + name);
        a->setData(name);
        a->setCheckable(true);
        a->setToolTip("The scan's own window (DICOM Window Center / Width)");
        connect(a, &QAction::triggered, this, [this, name] { applyPreset(name); });
        m_menu->insertAction(m_scanWindowsEnd, a);
        m_scanWindows.push_back(a);
    }
    m_scanWindowsEnd->setVisible(!own.empty());
    checkCurrentWindow();
}

void WindowActions::checkCurrentWindow() {
    // Checked: the entry last applied, while its window is still the one shown (a right-drag
    // leaves none checked). "auto" is computed only when it is the one to compare.
    const render::WindowLevel now = m_model->window();
    for (QAction* a : m_menu->actions()) {
        if (!a->isCheckable()) continue;
        const QString name = a->data().toString();
        std::optional<render::WindowLevel> w;
        if (m_model->hasVolume() && name == m_model->preset()) w = render::presetWindow(name.toStdString(), *m_model->volume());
        a->setChecked(w && std::abs(w->level - now.level) < 1e-6 && std::abs(w->width - now.width) < 1e-6);
    }
}

}  // namespace lucent::ui
