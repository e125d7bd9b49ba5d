/// @brief The view rooms' action groups without a main window (a model and a view grid in a plain window):
/// layouts checked as the grid is arranged, drawing toggles and the mask opacity bound both ways to the
/// model, cine checked while it plays, the Window/Level menu's scan windows per volume, captures, the 3D
/// pane's items (a build with VTK).
#include "ActionGroupHost.h"

#include "lucent/ui/CaptureActions.h"
#include "lucent/ui/CineActions.h"
#include "lucent/ui/CinePlayer.h"
#include "lucent/ui/ViewActions.h"
#include "lucent/ui/WindowActions.h"
#if LUCENT_HAVE_VTK
#include "lucent/ui/View3DActions.h"
#include "lucent/ui/View3DWidget.h"
#endif

#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QToolBar>

#include <filesystem>

using namespace lucent;
using namespace lucent::ui;
using ViewGroups = lucent::testing::ActionGroupTest;

TEST_F(ViewGroups, LayoutsAreCheckedAsTheGridIsArrangedWhoeverArrangesIt) {
    ViewActions views(&model, grid);
    views.addTo(&menu);
    EXPECT_EQ(item(menu, "Layout 1+3"), views.layout(Layout::OnePlusThree));
    grid->setLayoutMode(Layout::OnePlusThree);  // a session, say
    EXPECT_TRUE(views.layout(Layout::OnePlusThree)->isChecked());
    EXPECT_EQ(QSettings().value("view/layout").toString(), "1+3") << "the next start keeps it";
    views.layout(Layout::Single)->trigger();
    EXPECT_EQ(grid->layoutMode(), Layout::Single);
    EXPECT_FALSE(views.layout(Layout::OnePlusThree)->isChecked());
    EXPECT_EQ(views.layout(Layout::Single)->shortcut(), QKeySequence("Ctrl+1"));
}

TEST_F(ViewGroups, DrawingTogglesAndTheOpacityFollowTheModelAndSetIt) {
    ViewActions views(&model, grid);
    QToolBar bar;
    views.addOpacityTo(&bar);
    model.setLinearInterpolation(false);
    EXPECT_FALSE(views.linearInterpolation()->isChecked());
    views.linearInterpolation()->trigger();
    EXPECT_TRUE(model.linearInterpolation());
    model.setPlaneMode(render::PlaneMode::Patient);
    EXPECT_TRUE(views.anatomicalPlanes()->isChecked());
    EXPECT_TRUE(QSettings().value("view/anatomicalPlanes").toBool());
    views.anatomicalPlanes()->trigger();
    EXPECT_EQ(model.planeMode(), render::PlaneMode::Volume);
    const bool hud = model.hudVisible();
    views.hud()->trigger();
    EXPECT_EQ(model.hudVisible(), !hud);
    model.setHudVisible(hud);
    EXPECT_EQ(views.hud()->isChecked(), hud);
    views.opacity()->setValue(30);
    EXPECT_NEAR(model.overlayOpacity(), 0.3, 1e-6);
    model.setOverlayOpacity(0.8f);
    EXPECT_EQ(views.opacity()->value(), 80);
}

TEST_F(ViewGroups, CineIsCheckedWhileItPlaysAndSaysWhyItCannot) {
    CinePlayer cine(&model, grid);
    CineActions actions(&model, &cine);
    QSignalSpy said(&actions, &CineActions::message);
    actions.play()->trigger();
    EXPECT_FALSE(cine.playing());
    EXPECT_FALSE(actions.play()->isChecked()) << "not playing: not checked";
    ASSERT_EQ(said.count(), 1);
    EXPECT_EQ(said[0][0].toString(), "Open a volume first.");
    loadVolume();
    actions.play()->trigger();
    EXPECT_TRUE(cine.playing());
    EXPECT_TRUE(actions.play()->isChecked());
    cine.setPlaying(false);
    EXPECT_FALSE(actions.play()->isChecked()) << "the player stopped: the menu follows";
    actions.bounce()->trigger();
    EXPECT_TRUE(cine.bounce());
    QToolBar bar;
    actions.addRateTo(&bar);
    actions.rate()->setValue(12);
    EXPECT_EQ(cine.rate(), 12.0);
}

TEST_F(ViewGroups, ATimeFrameShownIsSaid) {
    CinePlayer cine(&model, grid);
    CineActions actions(&model, &cine);
    loadVolume();
    model.setFrames({lucent::testing::ctBallPhantom({48, 40, 12}), lucent::testing::ctBallPhantom({48, 40, 12})});
    QSignalSpy said(&actions, &CineActions::message);
    model.setFrame(1);
    ASSERT_EQ(said.count(), 1);
    EXPECT_EQ(said[0][0].toString(), "Frame 2 / 2");
}

TEST_F(ViewGroups, TheScanWindowsStandAboveThePresetsForEachVolume) {
    WindowActions windows(&model, &window);
    windows.addTo(&menu);
    EXPECT_TRUE(windows.scanWindows().empty());
    auto own = lucent::testing::ctBallPhantom({48, 40, 12});
    own->metadata().windows = {{40, 80, "BRAIN"}};
    SeriesInfo info;
    model.setVolume(own, info, "");
    ASSERT_EQ(windows.scanWindows().size(), 1u);
    QAction* brain = windows.scanWindows().front();
    EXPECT_EQ(menu.findChild<QAction*>("window_file1"), brain);
    EXPECT_LT(menu.actions().indexOf(brain), menu.actions().indexOf(windows.presets().front()));
    brain->trigger();
    EXPECT_EQ(model.preset(), "file1");
    EXPECT_NE(QSettings().value("view/preset").toString(), "file1") << "a scan's window is not remembered";
    ASSERT_TRUE(windows.applyPreset("bone"));
    EXPECT_EQ(QSettings().value("view/preset").toString(), "bone");
    loadVolume();  // no windows of its own
    EXPECT_TRUE(windows.scanWindows().empty());
    EXPECT_EQ(menu.findChild<QAction*>("window_file1"), nullptr) << "gone at once, not at the next event loop";
    EXPECT_TRUE(menu.actions().contains(windows.presets().front()));
}

TEST_F(ViewGroups, CapturesNeedAVolumeAndSaveTheViewAsDrawn) {
    CaptureActions capture(&model, grid, &window);
    QSignalSpy said(&capture, &CaptureActions::message);
    capture.copyView()->trigger();
    ASSERT_EQ(said.count(), 1);
    EXPECT_EQ(said[0][0].toString(), "Open a volume first.");
    QTemporaryDir dir;
    const QString path = dir.filePath("view.png");
    QString error;
    EXPECT_FALSE(capture.saveViewPng(path, &error));
    EXPECT_EQ(error, "Open a volume first.");
    loadVolume();
    QTest::qWait(50);
    ASSERT_TRUE(capture.saveViewPng(path, &error)) << error.toStdString();
    EXPECT_GT(std::filesystem::file_size(path.toStdString()), 100u);
}

#if LUCENT_HAVE_VTK
TEST_F(ViewGroups, The3DPresetIsThePanesAndCheckedAsTheMenuOpens) {
    View3DWidget* pane = grid->view3D();
    ASSERT_NE(pane, nullptr);
    View3DActions actions(pane, &window);
    actions.addTo(&menu);
    QMenu* presets = item(menu, "3D preset") ? item(menu, "3D preset")->menu() : nullptr;
    ASSERT_NE(presets, nullptr);
    const auto presetAction = [&](render::Preset3D p) {
        for (QAction* a : actions.presets())
            if (a->data().toInt() == int(p)) return a;
        return static_cast<QAction*>(nullptr);
    };
    ASSERT_NE(presetAction(render::Preset3D::Mr), nullptr);
    presetAction(render::Preset3D::Mr)->trigger();
    EXPECT_EQ(pane->preset(), render::Preset3D::Mr);
    pane->setPreset(render::Preset3D::CtBone);  // a volume chose its own
    emit presets->aboutToShow();
    EXPECT_TRUE(presetAction(render::Preset3D::CtBone)->isChecked());
    EXPECT_FALSE(presetAction(render::Preset3D::Mr)->isChecked());
    ASSERT_TRUE(actions.planes()->isChecked());
    actions.planes()->trigger();
    EXPECT_FALSE(pane->planesVisible());
}
#endif
