/// @brief A multi-temporal DICOM folder in the viewer under Xvfb: it opens as time frames on one grid,
/// and cine through frames shows each frame's voxels (checked on rendered pixels).
#include "EventLoopWait.h"
#include "SyntheticDicom.h"
#include "TempDir.h"

#include "lucent/ui/CinePlayer.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/OpenGlSetup.h"

#include <gtest/gtest.h>
#include <QAction>
#include <QApplication>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTest>

#include <chrono>
#include <cmath>
#include <map>

using namespace lucent;
using namespace lucent::ui;
using lucent::testing::TempDir;
using lucent::testing::waitFor;
using render::Orientation;

namespace {

/// A 24 x 20 x 6 MR series over 3 time points (TemporalPositionIdentifier): voxel (5, 4, 3) stores
/// 3616 mod 32768 - 16384 = -12768 at time point 0, and 3000 more at each later one.
lucent::testing::SeriesSpec dynamicSpec() {
    lucent::testing::SeriesSpec spec;
    spec.columns = 24;
    spec.rows = 20;
    spec.slices = 6;
    spec.modality = "MR";
    spec.description = "dynamic";
    return spec;
}

const Vec3 kVoxel{5, 4, 3};
/// Level 3000, width 50000: every frame's values inside the window, 3000 apart = 15.3 grey levels.
const render::WindowLevel kWindow{3000, 50000};

double expectedGrey(int frame) {
    const double value = -12768 + lucent::testing::temporalOffset(frame);
    return (value - (kWindow.level - kWindow.width / 2)) / kWindow.width * 255;
}

int greyAt(SliceViewWidget* view, Vec3 voxel) {
    const QImage img = view->grabFramebuffer();
    const auto p = view->view().voxelToScreen(voxel);
    return qGray(img.pixel(int(p[0]), int(p[1])));
}

class Dicom4D : public ::testing::Test {
protected:
    void SetUp() override {
        QSettings().clear();
        window = std::make_unique<MainWindow>();
        window->resize(900, 700);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        // One view: the 3D pane's ray casting on Xvfb's software GL would hold every frame up.
        window->grid().setActiveView(window->grid().view(Orientation::Axial));
        window->setLayoutMode(Layout::Single);
        lucent::testing::writeTemporalSeries(dynamicSpec(), 3, lucent::testing::TemporalTags::PositionIdentifier,
                                             dir.path());
    }
    SliceViewWidget* axial() { return window->grid().view(Orientation::Axial); }
    QAction* action(const char* name) { return window->findChild<QAction*>(name); }

    TempDir dir;
    std::unique_ptr<MainWindow> window;
};

}  // namespace

TEST_F(Dicom4D, OpensAsTimeFramesAndCinePlaysThemOnScreen) {
    QString error;
    ASSERT_TRUE(window->openPath(QString::fromStdString(dir.path()), {}, true, &error)) << error.toStdString();
    ViewerModel& model = window->model();
    ASSERT_EQ(model.frameCount(), 3);
    EXPECT_EQ(model.frame(), 0);
    EXPECT_EQ(model.volume()->geometry().dims, (std::array<int, 3>{24, 20, 6}));
    EXPECT_EQ(model.volume()->value(5, 4, 3), -12768);
    EXPECT_TRUE(window->statusBar()->currentMessage().contains("3 volumes (4D)"))
        << window->statusBar()->currentMessage().toStdString();
    model.setWindow(kWindow);
    model.setCursor({12, 10, kVoxel.z});  // the slice of the voxel; its crosshair elsewhere
    QApplication::processEvents();

    // Each frame on screen: the voxel's grey follows its value at that time point.
    std::map<int, int> grey;
    for (int f : {0, 1, 2}) {
        model.setFrame(f);
        QApplication::processEvents();
        grey[f] = greyAt(axial(), kVoxel);
        EXPECT_NEAR(grey[f], expectedGrey(f), 3) << "frame " << f;
    }

    // Cine through frames: every step shows the next frame's pixels, nothing else moves.
    model.setFrame(0);
    QApplication::processEvents();
    const Vec3 cursor = model.cursor();
    action("cineFrames")->trigger();
    window->findChild<QSpinBox*>("cineRate")->setValue(5);
    std::vector<std::pair<int, int>> shown;  // (frame, grey at the voxel) as each frame is drawn
    QObject::connect(&model, &ViewerModel::frameChanged, window.get(),
                     [&] { shown.emplace_back(model.frame(), greyAt(axial(), kVoxel)); });
    // A fake clock, 210 ms a tick at 200 ms a frame: one frame each, however late the timer runs.
    std::chrono::steady_clock::time_point now{};
    window->cine().setClock([&now] { return now; });
    action("cinePlay")->trigger();
    ASSERT_TRUE(window->cine().playing());
    for (int n = 0; n < 4; ++n) {
        now += std::chrono::milliseconds(210);
        window->cine().tick();
    }
    action("cinePlay")->trigger();
    window->cine().setClock({});
    EXPECT_FALSE(window->cine().playing());
    std::vector<int> frames;
    for (const auto& step : shown) frames.push_back(step.first);
    EXPECT_EQ(frames, (std::vector<int>{1, 2, 0, 1}));
    for (const auto& [frame, g] : shown) EXPECT_EQ(g, grey[frame]) << "frame " << frame;
    EXPECT_NE(grey[0], grey[1]);
    EXPECT_NE(grey[1], grey[2]);
    EXPECT_EQ(model.cursor(), cursor);
    EXPECT_DOUBLE_EQ(model.window().level, kWindow.level);
}

TEST_F(Dicom4D, BackgroundOpenDeliversTheFramesAndAPlainSeriesHasOne) {
    ViewerModel& model = window->model();
    window->openPath(QString::fromStdString(dir.path()));
    ASSERT_TRUE(waitFor([&] { return model.volume() && model.frameCount() == 3; }, 10000));
    EXPECT_EQ(model.frame(), 0);
    model.setFrame(2);
    EXPECT_EQ(model.volume()->value(5, 4, 3), -12768 + 6000);

    TempDir plain;
    lucent::testing::writeSeries(dynamicSpec(), plain.path());
    QString error;
    ASSERT_TRUE(window->openPath(QString::fromStdString(plain.path()), {}, true, &error)) << error.toStdString();
    EXPECT_EQ(model.frameCount(), 1);
    EXPECT_EQ(model.volume()->value(5, 4, 3), -12768);
}

int main(int argc, char** argv) {
    lucent::ui::prepareOpenGl();
    QApplication app(argc, argv);
    app.setOrganizationName("Lucent-tests");
    app.setApplicationName("dicom4d");  // never touch the user's settings, nor the other tests'
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
