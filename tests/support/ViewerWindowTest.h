/// @brief The fixture the viewer tests share: a main window shown and exposed under Xvfb (active for
/// those that type keys), a volume put on its model, its views and the screen points of voxels; main()
/// is ViewerTestMain.cpp.
#pragma once

#include "lucent/ui/MainWindow.h"
#include "lucent/ui/SliceViewWidget.h"

#include <QAction>
#include <QApplication>
#include <QPoint>
#include <QTest>

#include <gtest/gtest.h>

#include <memory>

namespace lucent::testing {

/// The logical mouse point of `voxel` on `view` (truncated, as the tests place their clicks).
inline QPoint screenOf(const ui::SliceViewWidget* view, Vec3 voxel) {
    const auto p = view->view().voxelToScreen(voxel);
    return QPoint(int(p[0] / view->devicePixelRatioF()), int(p[1] / view->devicePixelRatioF()));
}

class ViewerWindowTest : public ::testing::Test {
protected:
    /// Shows the window at `width` x `height`, drawn once exposed.
    void showWindow(int width = 1280, int height = 860) {
        window.resize(width, height);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    }
    /// Makes the window active: Xvfb has no window manager to activate it, and shortcuts need an
    /// active window. Only for tests that type keys: a view that takes the focus becomes the active
    /// view, which the HUD and captures follow.
    void activate() {
        window.activateWindow();
        QApplication::setActiveWindow(&window);
    }
    /// Puts `volume` on the model as a CT series opened without a file.
    void setVolume(std::shared_ptr<Volume> volume) {
        SeriesInfo info;
        info.modality = "CT";
        window.model().setVolume(std::move(volume), info, "");
    }
    ui::SliceViewWidget* view(render::Orientation o) { return window.grid().view(o); }
    ui::SliceViewWidget* axial() { return view(render::Orientation::Axial); }
    QPoint screenOf(Vec3 voxel) { return testing::screenOf(axial(), voxel); }
    QPoint screenOf(const ui::SliceViewWidget* on, Vec3 voxel) { return testing::screenOf(on, voxel); }
    /// The window's action named `name` (its object name), or null.
    QAction* action(const char* name) { return window.findChild<QAction*>(name); }
    template <class T>
    T* child(const char* name) {
        return window.findChild<T*>(name);
    }

    ui::MainWindow window;
};

}  // namespace lucent::testing
