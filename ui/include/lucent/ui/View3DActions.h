/// @brief The View menu's 3D items (a build with VTK): the 3D preset (checked as the pane shows it), slice
/// planes in 3D, reset the 3D view, save a 3D screenshot.
#pragma once

#include <QObject>

#include <vector>

class QAction;
class QMenu;
class QWidget;

namespace lucent::ui {

class View3DWidget;

class View3DActions : public QObject {
    Q_OBJECT
public:
    /// `window` parents the file dialog and the error box.
    View3DActions(View3DWidget* view, QWidget* window, QObject* parent = nullptr);

    /// A separator, the 3D preset submenu, Slice planes in 3D, Reset 3D view, Save 3D screenshot.
    void addTo(QMenu* view);

    const std::vector<QAction*>& presets() const { return m_presets; }
    QAction* planes() const { return m_planes; }

private:
    void saveScreenshot();

    View3DWidget* m_view;
    QWidget* m_window;
    std::vector<QAction*> m_presets;
    QAction *m_planes, *m_reset, *m_screenshot;
};

}  // namespace lucent::ui
