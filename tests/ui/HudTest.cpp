/// @brief The Dear ImGui HUD over a real slice view under Xvfb, checked on rendered pixels:
/// annotations in their corners, the run panel, the screen overlay, and a click on Pause.
#include "EventLoopWait.h"
#include "SyntheticVolumes.h"

#include "lucent/render/Hud.h"
#include "lucent/render/ViewAnnotations.h"
#include "lucent/ui/OpenGlSetup.h"
#include "lucent/ui/SharedTextures.h"
#include "lucent/ui/SliceViewWidget.h"
#include "lucent/ui/ViewerModel.h"

#include <gtest/gtest.h>
#include <QApplication>
#include <QTest>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <vector>

using namespace lucent;
using namespace lucent::ui;
using render::HudAction;

namespace {

using lucent::testing::waitFor;

/// Pixels of `img` inside `r` for which `test` holds.
int count(const QImage& img, QRect r, const std::function<bool(QRgb)>& test) {
    int n = 0;
    r = r.intersected(img.rect());
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) n += test(img.pixel(x, y));
    return n;
}

bool isLetter(QRgb c) { return qRed(c) > 200 && qGreen(c) > 150 && qBlue(c) < 120; }  // orange-yellow
bool isName(QRgb c) { return qBlue(c) > 200 && qRed(c) < 170 && qGreen(c) > 150; }    // light blue
bool isText(QRgb c) { return qRed(c) > 150 && qGreen(c) > 150 && qBlue(c) > 150; }    // light grey
bool isGreen(QRgb c) { return qGreen(c) > 200 && qRed(c) < 80 && qBlue(c) < 80; }
bool isMagenta(QRgb c) { return qRed(c) > 200 && qBlue(c) > 200 && qGreen(c) < 80; }

/// Saves a frame for eyes when LUCENT_HUD_SHOTS names a folder.
void keep(const QImage& img, const char* name) {
    if (const char* dir = std::getenv("LUCENT_HUD_SHOTS")) img.save(QString("%1/%2.png").arg(dir, name));
}

render::HudState runningState() {
    render::HudState s;
    s.active = true;
    s.backend = "CPU (2 threads)";
    s.method = "Snake";
    s.state = "running";
    s.iteration = 42;
    s.msPerStep = 0.37;
    s.framesPerSecond = 60;
    s.figure = "GL 1.234e+05  24 nodes";
    for (int i = 0; i < 40; ++i) s.plot.push_back(100.0f / float(i + 1));
    s.plotLabel = "GL";
    s.canStep = true;
    s.canAccept = true;
    s.running = true;
    return s;
}

class HudView : public ::testing::Test {
protected:
    void SetUp() override {
        view = std::make_unique<SliceViewWidget>(&model, &textures, render::Orientation::Axial);
        view->resize(520, 440);
        view->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(view.get()));
        view->activateWindow();
        QApplication::setActiveWindow(view.get());
    }
    void TearDown() override { view.reset(); }

    /// A dark 96 x 96 x 24 volume (air) with a mid-grey disc in the middle, 0.8 mm voxels.
    void loadVolume() {
        auto volume = std::make_shared<Volume>(lucent::testing::shapeVolume(
            {96, 96, 24}, [](int i, int j, int) { return (i - 48) * (i - 48) + (j - 48) * (j - 48) < 20 * 20; }, 60,
            -1000, 0));
        volume->metadata().modality = "CT";
        SeriesInfo info;
        info.modality = "CT";
        model.setVolume(volume, info, "abdomen");
        QApplication::processEvents();
    }
    /// Two frames: an ImGui window sizes itself in the frame it appears and shows in the next.
    QImage frame() {
        view->grabFramebuffer();
        return view->grabFramebuffer();
    }
    QRect rectOf(const std::array<float, 4>& r) const {
        return QRect(QPoint(int(r[0]), int(r[1])), QPoint(int(r[2]) - 1, int(r[3]) - 1));
    }

    ViewerModel model;
    SharedTextures textures;
    std::unique_ptr<SliceViewWidget> view;
};

}  // namespace

TEST_F(HudView, AnnotationsSitInTheirCorners) {
    loadVolume();
    model.setCursor({30, 30, 12});  // the yellow crosshair away from the yellow letters
    const QImage img = frame();
    keep(img, "annotations");
    const int w = img.width(), h = img.height();
    // The crosshair is yellow too: leave its lines out of the letters' count.
    const auto cross = view->view().voxelToScreen(model.cursor());
    const auto letter = [&](QRect r) {
        int n = 0;
        for (int y = r.top(); y <= r.bottom(); ++y)
            for (int x = r.left(); x <= r.right(); ++x)
                n += std::abs(x - cross[0]) > 3 && std::abs(y - cross[1]) > 3 && isLetter(img.pixel(x, y));
        return n;
    };
    // Radiological axial view: the patient's left on the screen's right, anterior on top.
    EXPECT_GT(letter(QRect(w - 30, h / 2 - 15, 30, 30)), 5) << "no 'L' on the right edge";
    EXPECT_GT(letter(QRect(0, h / 2 - 15, 30, 30)), 5) << "no 'R' on the left edge";
    EXPECT_GT(letter(QRect(w / 2 - 15, 0, 30, 28)), 5) << "no 'A' on the top edge";
    EXPECT_GT(letter(QRect(w / 2 - 15, h - 28, 30, 28)), 5) << "no 'P' on the bottom edge";
    EXPECT_GT(count(img, QRect(0, 0, 100, 28), isName), 10) << "no view name top-left";
    EXPECT_GT(count(img, QRect(w - 140, 0, 140, 28), isText), 20) << "no 'slice k / n' top-right";
    EXPECT_GT(count(img, QRect(0, h - 28, 140, 28), isText), 20) << "no window/level bottom-left";
    EXPECT_EQ(count(img, QRect(w / 2 - 40, h / 2 - 40, 80, 80), isText), 0) << "text over the middle";

    // The scale bar: the longest light run in the bottom-right corner is its length in pixels.
    const render::SliceViewGeometry& geometry = view->view();
    const double mm = render::scaleBarMm(geometry.width(), geometry.pixelsPerMm());
    const int expected = int(std::lround(mm * geometry.pixelsPerMm()));
    int longest = 0;
    for (int y = h - 60; y < h; ++y) {
        int run = 0;
        for (int x = w / 2; x < w; ++x) {
            run = isText(img.pixel(x, y)) ? run + 1 : 0;
            longest = std::max(longest, run);
        }
    }
    EXPECT_NEAR(longest, expected, 3) << mm << " mm bar";
    EXPECT_GE(expected, w / 10);
    EXPECT_LE(expected, w / 5 + 1);
}

TEST_F(HudView, HintWithoutAVolume) {
    const QImage img = frame();
    keep(img, "empty");
    const int w = img.width(), h = img.height();
    EXPECT_GT(count(img, QRect(w / 4, h / 2 - 30, w / 2, 60), [](QRgb c) { return qGray(c) > 100; }), 50);
    EXPECT_EQ(count(img, QRect(w - 30, h / 2 - 15, 30, 30), isLetter), 0) << "letters without a volume";
    EXPECT_GT(count(img, QRect(0, 0, 100, 28), isName), 10) << "the view name stays";
}

TEST_F(HudView, PanelShowsWhileActiveAndHides) {
    loadVolume();
    const QImage before = frame();
    view->setHudState(runningState());
    const QImage with = frame();
    keep(with, "panel");
    const auto panel = view->hud().panelRect();
    ASSERT_TRUE(panel.has_value());
    const QRect r = rectOf(*panel);
    EXPECT_GT(r.width(), 150);
    EXPECT_GT(r.height(), 80);
    EXPECT_LT(r.top(), 60) << "top-left, under the view name";
    int changed = 0;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) changed += before.pixel(x, y) != with.pixel(x, y);
    EXPECT_GT(changed, r.width() * r.height() / 3);
    // Running: Pause, not Play; the other buttons are there.
    EXPECT_TRUE(view->hud().buttonRect(HudAction::Pause).has_value());
    EXPECT_FALSE(view->hud().buttonRect(HudAction::Play).has_value());
    for (HudAction a : {HudAction::Step, HudAction::Accept, HudAction::Cancel})
        EXPECT_TRUE(view->hud().buttonRect(a).has_value());

    view->setHudVisible(false);
    const QImage hidden = frame();
    EXPECT_FALSE(view->hud().panelRect().has_value());
    int differs = 0;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) differs += before.pixel(x, y) != hidden.pixel(x, y);
    EXPECT_EQ(differs, 0) << "hidden panel still drawn";
}

TEST_F(HudView, OverlayLinesNodesAndMarkers) {
    loadVolume();
    render::ViewOverlay overlay;
    render::ViewOverlay::Polyline line;
    line.points = {{100, 120}, {300, 120}, {300, 260}, {100, 260}};
    line.colour = {0.0f, 1.0f, 0.0f, 1.0f};
    line.thickness = 3.0f;
    line.markNodes = true;
    overlay.lines.push_back(line);
    render::ViewOverlay::Marker marker;
    marker.at = {400, 300};
    marker.colour = {1.0f, 0.0f, 1.0f, 1.0f};
    marker.radius = 6;
    overlay.markers.push_back(marker);
    view->setOverlay(overlay);
    const QImage img = frame();
    keep(img, "overlay");
    // Middles of the four edges (the closing one included), a node's square and the marker.
    for (QPoint p : {QPoint(200, 120), QPoint(300, 190), QPoint(200, 260), QPoint(100, 190)})
        EXPECT_TRUE(isGreen(img.pixel(p))) << p.x() << "," << p.y() << " " << std::hex << img.pixel(p);
    EXPECT_GT(count(img, QRect(97, 117, 7, 7), isGreen), 20) << "no node square";
    EXPECT_TRUE(isMagenta(img.pixel(400, 300)));
    EXPECT_EQ(count(img, QRect(180, 160, 40, 40), isGreen), 0) << "inside of the polygon is filled";
}

TEST_F(HudView, ThePanelKeepsOnePlaceForARunWhileTheContourMoves) {
    // The panel jumped between corners as the snake's contour moved under it (issue 43): it keeps
    // its place while no other place is clear, and leaves only for a place that covers nothing.
    loadVolume();
    render::HudState s = runningState();
    s.run = 1;
    render::ViewOverlay middle;
    middle.lines.push_back({{{300, 200}, {400, 200}, {400, 300}, {300, 300}}});
    view->setOverlay(middle);
    view->setHudState(s);
    for (int i = 0; i < 4; ++i) frame();  // the panel measured and placed: top-left
    const auto first = view->hud().panelRect();
    ASSERT_TRUE(first.has_value());
    EXPECT_LT((*first)[0], 60);
    render::ViewOverlay everywhere;  // a contour through every corner's place
    everywhere.lines.push_back({{{10, 40}, {510, 40}, {510, 420}, {10, 420}}});
    for (int i = 0; i < 3; ++i) {
        view->setOverlay(i % 2 ? middle : everywhere);
        frame();
        ASSERT_TRUE(view->hud().panelRect().has_value());
        EXPECT_EQ((*view->hud().panelRect())[0], (*first)[0]) << "frame " << i << ": no corner is clear, it stays";
        EXPECT_EQ((*view->hud().panelRect())[1], (*first)[1]) << "frame " << i;
    }
    render::ViewOverlay topLeft;  // the contour only under the panel: a clear corner exists
    topLeft.lines.push_back({{{10, 40}, {200, 40}, {200, 150}, {10, 150}}});
    view->setOverlay(topLeft);
    frame();
    ASSERT_TRUE(view->hud().panelRect().has_value());
    EXPECT_GT((*view->hud().panelRect())[0], 200) << "it leaves the contour for a clear corner";
}

TEST_F(HudView, ClickOnPauseEmitsTheActionAndNotACursorMove) {
    loadVolume();
    std::vector<HudAction> actions;
    QObject::connect(view.get(), &SliceViewWidget::hudAction, [&](HudAction a) { actions.push_back(a); });
    view->setHudState(runningState());
    frame();
    const auto pause = view->hud().buttonRect(HudAction::Pause);
    ASSERT_TRUE(pause.has_value());
    const qreal dpr = view->devicePixelRatioF();
    const QPoint at(int(((*pause)[0] + (*pause)[2]) / 2 / dpr), int(((*pause)[1] + (*pause)[3]) / 2 / dpr));
    const Vec3 cursor = model.cursor();
    QTest::mouseClick(view.get(), Qt::LeftButton, {}, at);
    ASSERT_TRUE(waitFor([&] { return !actions.empty(); })) << "no hudAction after a click on Pause";
    EXPECT_EQ(actions.front(), HudAction::Pause);
    EXPECT_EQ(actions.size(), 1u);
    EXPECT_EQ(model.cursor().x, cursor.x) << "the click went through the panel to the view";
    EXPECT_EQ(model.cursor().y, cursor.y);

    // A click on the image still moves the cursor and presses nothing.
    actions.clear();
    QTest::mouseClick(view.get(), Qt::LeftButton, {}, QPoint(view->width() * 3 / 4, view->height() * 3 / 4));
    QTest::qWait(100);
    EXPECT_TRUE(actions.empty());
    EXPECT_NE(model.cursor().x, cursor.x);

    // Paused and not steppable: Play and Step are disabled and a click on Play does nothing.
    render::HudState paused = runningState();
    paused.running = false;
    paused.canStep = false;
    paused.state = "finished";
    view->setHudState(paused);
    frame();
    const auto play = view->hud().buttonRect(HudAction::Play);
    ASSERT_TRUE(play.has_value());
    QTest::mouseClick(view.get(), Qt::LeftButton, {},
                      QPoint(int(((*play)[0] + (*play)[2]) / 2 / dpr), int(((*play)[1] + (*play)[3]) / 2 / dpr)));
    QTest::qWait(100);
    EXPECT_TRUE(actions.empty());
    keep(view->grabFramebuffer(), "finished");
}

TEST_F(HudView, AcceptIsDeafWhileTheResultHoldsNothing) {
    // A run whose update the engine refused: finished, 0 voxels. Accept is there, greyed, and a
    // click on it presses nothing; once the result holds voxels again it accepts.
    loadVolume();
    std::vector<HudAction> actions;
    QObject::connect(view.get(), &SliceViewWidget::hudAction, [&](HudAction a) { actions.push_back(a); });
    render::HudState empty = runningState();
    empty.running = false;
    empty.state = "finished";
    empty.canAccept = false;
    const qreal dpr = view->devicePixelRatioF();
    const auto clickOn = [&](HudAction a) {
        const auto r = view->hud().buttonRect(a);
        if (!r) return false;
        const QPoint middle(int(((*r)[0] + (*r)[2]) / 2 / dpr), int(((*r)[1] + (*r)[3]) / 2 / dpr));
        QTest::mouseClick(view.get(), Qt::LeftButton, {}, middle);
        return true;
    };
    view->setHudState(empty);
    frame();
    ASSERT_TRUE(clickOn(HudAction::Accept));
    QTest::qWait(100);
    EXPECT_TRUE(actions.empty()) << "Accept pressed with nothing to accept";
    keep(view->grabFramebuffer(), "nothing-to-accept");
    render::HudState grown = empty;
    grown.canAccept = true;
    view->setHudState(grown);
    frame();
    ASSERT_TRUE(clickOn(HudAction::Accept));
    ASSERT_TRUE(waitFor([&] { return !actions.empty(); }));
    EXPECT_EQ(actions.front(), HudAction::Accept);
}

TEST_F(HudView, AClickWhereTheEndedRunsPanelWasGoesToTheView) {
    loadVolume();
    view->setHudState(runningState());
    frame();
    const auto panel = view->hud().panelRect();
    ASSERT_TRUE(panel.has_value());
    const qreal dpr = view->devicePixelRatioF();
    const QPoint inside(int(((*panel)[0] + (*panel)[2]) / 2 / dpr), int(((*panel)[1] + (*panel)[3]) / 2 / dpr));
    // The run ends (Cancel) and the user clicks at once, before any frame has drawn the panel away.
    view->setHudState(render::HudState{});
    const Vec3 cursor = model.cursor();
    QTest::mouseClick(view.get(), Qt::LeftButton, {}, inside);
    EXPECT_NE(model.cursor().x, cursor.x) << "the click moved the crosshair, not a panel no longer shown";
}

TEST_F(HudView, ADragFromTheImageCrossesThePanel) {
    loadVolume();
    view->setHudState(runningState());
    frame();
    const auto panel = view->hud().panelRect();
    ASSERT_TRUE(panel.has_value());
    const qreal dpr = view->devicePixelRatioF();
    const QPointF start(view->width() * 0.8, view->height() * 0.8);
    const QPointF onPanel(((*panel)[0] + (*panel)[2]) / 2 / dpr, ((*panel)[1] + (*panel)[3]) / 2 / dpr);
    const render::WindowLevel before = model.window();
    auto send = [&](QEvent::Type type, QPointF at, Qt::MouseButtons held) {
        QMouseEvent e(type, at, view->mapToGlobal(at), Qt::RightButton, held, Qt::NoModifier);
        QApplication::sendEvent(view.get(), &e);
    };
    // Right drag (window/level) from the image onto the panel: the view keeps it.
    send(QEvent::MouseButtonPress, start, Qt::RightButton);
    send(QEvent::MouseMove, onPanel, Qt::RightButton);
    EXPECT_NE(model.window().width, before.width) << "the panel swallowed the view's drag";
    send(QEvent::MouseButtonRelease, onPanel, Qt::NoButton);
    // Without a button, a move over the panel belongs to the HUD: the window stays.
    const render::WindowLevel after = model.window();
    send(QEvent::MouseMove, onPanel + QPointF(3, 2), Qt::NoButton);
    EXPECT_EQ(model.window().width, after.width);
}

int main(int argc, char** argv) {
    lucent::ui::prepareOpenGl();
    QApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
