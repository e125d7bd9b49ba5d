/// @brief The 3D snake in the viewer, driven like a user under Xvfb (CPU backend; LUCENT_LIVE_BACKEND=cuda
/// on the GPU machine): a box dragged on the real CT head's axial view around a lateral ventricle and
/// extruded through the page's depth runs live to the voxels of the engine run by itself, draws in the 3D
/// pane, and accepts as one undo step; bubbles clicked on one view are circles on the others, shift-click
/// removes one; the start and parameters survive the session file; a box across both frontal horns, its
/// values clipped to the brain window, finds the ventricles as `lucent segment --clip 0,80` does.
#include "EventLoopWait.h"
#include "lucent/core/LabelReduction.h"
#include "lucent/core/seg/Snake3dContrast.h"
#include "lucent/core/seg/MethodParameters.h"
#include "lucent/core/seg/Snake3dCpu.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/io/VolumeFile.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/SegmentPanel.h"
#include "lucent/ui/SessionFile.h"
#include "lucent/ui/View3DWidget.h"
#include "lucent/ui/ViewGrid.h"
#include "RealData.h"

#include <QAction>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTest>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

using namespace lucent;
using namespace lucent::ui;
using render::Orientation;
using lucent::testing::waitFor;

namespace {

/// The body of the right lateral ventricle of the CT head (Snake3dTest's box that finds CSF).
constexpr VoxelBox kVentricleBox{{130, 85, 50}, {160, 150, 68}};

QPoint screenOf(SliceViewWidget* view, Vec3 voxel) {
    const auto p = view->view().voxelToScreen(voxel);
    // Rounded, not cut: at under 2 screen pixels a voxel, a cut lands on the neighbouring voxel.
    return QPoint(int(std::lround(p[0] / view->devicePixelRatioF())), int(std::lround(p[1] / view->devicePixelRatioF())));
}

gpu::Backend liveBackend() {
    const char* b = std::getenv("LUCENT_LIVE_BACKEND");
    return gpu::parseBackend(b && *b ? b : "cpu");
}

class Snake3dLive : public ::testing::Test {
protected:
    void SetUp() override {
        LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
        window.resize(1280, 860);
        window.setLayoutMode(Layout::Grid2x2);  // every test from the same layout (the window keeps the last in its settings)
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        volume = std::make_shared<Volume>(io::readVolumeFile(path));
        SeriesInfo info;
        info.modality = "CT";
        window.model().setVolume(volume, info, "");
        panel().live().setBackend(liveBackend());
        QTest::qWait(50);
    }
    SegmentPanel& panel() { return window.segment(); }
    LiveSegmentation& live() { return panel().live(); }
    SliceViewWidget* view(Orientation o) { return window.grid().view(o); }
    /// Segment > Region snake in 3D, as a user picks it.
    void chooseSnake3d() {
        QAction* mode = window.findChild<QAction*>("modeSnake3d");
        ASSERT_NE(mode, nullptr);
        mode->trigger();
        QTest::qWait(20);
    }
    void drag(SliceViewWidget* v, Vec3 from, Vec3 to) {
        QTest::mousePress(v, Qt::LeftButton, {}, screenOf(v, from));
        QTest::mouseMove(v, screenOf(v, {0.5 * (from.x + to.x), 0.5 * (from.y + to.y), from.z}));
        QTest::mouseMove(v, screenOf(v, to));
        QTest::mouseRelease(v, Qt::LeftButton, {}, screenOf(v, to));
    }
    /// The engine run by itself on the request the viewer ran, to its end.
    LabelMap engineResult(SegmentationRequest r) {
        r.volume = volume.get();
        Snake3dCpu engine;
        engine.start(r);
        engine.run();
        LabelMap out;
        engine.result(out);
        return out;
    }

    /// The state the scrubber shows, over the whole volume.
    LabelMap shownLabels() {
        LabelMap out(volume->geometry());
        live().snake3dHistory().labels(wholeBox(volume->geometry()), nullptr, out.data());
        return out;
    }
    /// A box dragged on the axial view on slice `k` through `depth` slices, from (i0, j0) to (i1, j1).
    void drawBox(int i0, int j0, int i1, int j1, int k, int depth) {
        auto* depthBox = panel().findChild<QSpinBox*>("snake3dDepth");
        ASSERT_NE(depthBox, nullptr);
        depthBox->setValue(depth);
        Vec3 c = window.model().cursor();
        c.z = k;
        window.model().setCursor(c);
        QTest::qWait(30);
        drag(view(Orientation::Axial), {double(i0), double(j0), double(k)}, {double(i1), double(j1), double(k)});
    }
    /// The single view, the 3D snake's page, the box over the ventricles drawn and its run ended with
    /// more than three states kept (call through ASSERT_NO_FATAL_FAILURE).
    void runTheVentricleBox() {
        window.setLayoutMode(Layout::Single);
        chooseSnake3d();
        drawBox(130, 85, 160, 150, 59, 19);
        ASSERT_TRUE(live().active());
        ASSERT_TRUE(waitFor([&] { return !live().running(); }));
        ASSERT_GT(live().snake3dHistory().count(), 3);
    }

    MainWindow window;
    std::shared_ptr<Volume> volume;
};

std::size_t nonZero(const LabelMap& m) { return m.voxelCount() - m.count(0); }

/// Voxels where one map is labelled and the other is not.
std::size_t differing(const LabelMap& a, const LabelMap& b) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.voxelCount(); ++i) n += (a[i] != 0) != (b[i] != 0);
    return n;
}

}  // namespace

TEST_F(Snake3dLive, ABoxOnTheCtHeadRunsToTheEnginesVoxelsAcceptsAsOneUndoStep) {
    // The axial view alone while the run plays: under Xvfb the 3D pane renders in software and holds the
    // GUI thread for most of a second a frame, and the scrubber keeps the states the views were shown.
    window.setLayoutMode(Layout::Single);
    chooseSnake3d();
    ASSERT_EQ(window.grid().activeTool(), &panel().model().snake3dTool()) << "the menu arms the box and bubble tool";
    // The page's depth: 19 slices centred on the slice drawn on (59) reach slices 50..68.
    auto* depth = panel().findChild<QSpinBox*>("snake3dDepth");
    ASSERT_NE(depth, nullptr);
    depth->setValue(19);
    Vec3 c = window.model().cursor();
    c.z = 59;
    window.model().setCursor(c);
    QTest::qWait(30);
    drag(view(Orientation::Axial), {130, 85, 59}, {160, 150, 59});
    ASSERT_TRUE(live().active()) << "the box started the run";
    ASSERT_EQ(live().method(), Method::Snake3d);
    const SegmentationRequest ran = live().request();
    ASSERT_TRUE(ran.snake3d.box.has_value());
    EXPECT_EQ(ran.snake3d.box->lo, kVentricleBox.lo);
    EXPECT_EQ(ran.snake3d.box->hi, kVentricleBox.hi);
    // Watched as a user watches it: the GUI's frame timer takes each step the paced run publishes.
    ASSERT_TRUE(waitFor([&] { return !live().running(); }));
    ASSERT_EQ(live().published().state, SessionState::Finished) << live().lastError().toStdString();
    const LabelMap expected = engineResult(ran);
    ASSERT_GT(nonZero(expected), 2000u);
    EXPECT_EQ(live().voxels(), nonZero(expected)) << "the preview holds the engine's voxels";
    EXPECT_GT(live().published().last.iterations, 2);
    EXPECT_NE(live().hudState().figure.find(std::to_string(nonZero(expected)) + " voxels"), std::string::npos)
        << live().hudState().figure;
    // The scrubber keeps every state: the start and each step, as the engine leaves it after that many
    // iterations by itself, whatever the frames took.
    const Snake3dHistory& history = live().snake3dHistory();
    const int iterations = live().published().last.iterations;
    ASSERT_EQ(history.count(), iterations + 1) << "the start and every step";
    EXPECT_EQ(history.dropped(), 0);
    for (int s = 0; s < history.count(); ++s) ASSERT_EQ(history.iteration(s), s);
    EXPECT_EQ(history.voxels(history.count() - 1), nonZero(expected));
    EXPECT_FALSE(live().snake3dNoContrast()) << "the ventricle is set apart from the brain around it";
    EXPECT_FALSE(live().snake3dHoldsTheBox()) << "and the box reaches past it";
    const int mid = history.count() / 2;
    auto* scrubber = panel().findChild<QSlider*>("snake3dScrubber");
    ASSERT_NE(scrubber, nullptr);
    ASSERT_TRUE(waitFor([&] { return scrubber->isEnabled() && scrubber->maximum() == history.count() - 1; }));
    EXPECT_TRUE(scrubber->toolTip().contains(QString("Every step of the run: %1 states").arg(history.count())))
        << scrubber->toolTip().toStdString();
    scrubber->setValue(mid);
    ASSERT_EQ(history.shown(), mid);
    SegmentationRequest partial = ran;
    partial.snake3d.iterations = history.iteration(mid);
    const LabelMap then = engineResult(partial);
    EXPECT_EQ(differing(shownLabels(), then), 0u) << "state " << mid << " is the engine's after " << history.iteration(mid)
                                                 << " iterations";
    EXPECT_EQ(live().shownVoxels(), nonZero(then));
    // The preview the views and the 3D pane read holds that state, voxel for voxel.
    LabelMap preview;
    ASSERT_TRUE(live().copyPreviewReduced(volume->voxelCount(), preview));
    ASSERT_EQ(preview.voxelCount(), then.voxelCount());
    EXPECT_EQ(differing(preview, then), 0u) << "the views and the 3D pane show the scrubbed state";
    // The 3D pane's coarse copy is the scrubbed state's too.
    constexpr std::size_t kCells = std::size_t(1) << 20;
    LabelMap paneCopy, thenCells;
    ASSERT_TRUE(live().copyPreviewReduced(kCells, paneCopy));
    reduceLabels(then, planLabelReduction(volume->geometry().dims, kCells), thenCells);
    ASSERT_EQ(paneCopy.voxelCount(), thenCells.voxelCount());
    EXPECT_EQ(differing(paneCopy, thenCells), 0u) << "the 3D pane shows the scrubbed state";
    EXPECT_EQ(live().hudState().iteration, history.iteration(mid));
    EXPECT_NE(live().hudState().figure.find("scrubbed: step " + std::to_string(history.iteration(mid))), std::string::npos)
        << live().hudState().figure;
    auto* figures = panel().findChild<QLabel*>("snake3dStepFigures");
    ASSERT_NE(figures, nullptr);
    EXPECT_TRUE(waitFor([&] { return figures->text().contains(QString("%1 voxels").arg(nonZero(then))); }))
        << figures->text().toStdString();
    scrubber->setFocus();
    QTest::keyClick(scrubber, Qt::Key_End);
    EXPECT_EQ(history.shown(), -1) << "the last step follows the run again";
    EXPECT_EQ(live().shownVoxels(), nonZero(expected));
    ASSERT_TRUE(live().copyPreviewReduced(volume->voxelCount(), preview));
    EXPECT_EQ(differing(preview, expected), 0u) << "the preview is the run's latest again";
    // Every view: the box is drawn on each that cuts it (the coronal and sagittal views through its middle).
    window.setLayoutMode(Layout::Grid2x2);
    window.model().setCursor({145, 117, 59});
    QTest::qWait(50);  // the views take the cursor when they redraw
    for (Orientation o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal})
        EXPECT_FALSE(panel().overlayFor(view(o)->view()).lines.empty()) << "the start's rectangle on view " << int(o);
    // The 3D pane draws the live surface.
    View3DWidget* pane = window.grid().view3D();
    ASSERT_NE(pane, nullptr);
    pane->refreshLiveNow();
    ASSERT_TRUE(waitFor([&] { return pane->liveCopyShown() == pane->liveCopiesTaken(); }));
    EXPECT_GT(pane->liveTriangles(), 100u);
    // Accept: the engine's voxels into the label, one undo step; undo leaves the layer empty again.
    const std::size_t before = window.model().history().steps();
    ASSERT_TRUE(panel().acceptResult());
    EXPECT_EQ(differing(window.model().labelLayer(), expected), 0u) << "the label layer is the engine's result";
    EXPECT_EQ(window.model().history().steps(), before + 1);
    EXPECT_EQ(window.model().history().undoText(), "Accept 3D snake");
    EXPECT_FALSE(panel().model().snake3dTool().hasStart()) << "the start is used up";
    window.model().undo();
    EXPECT_EQ(nonZero(window.model().labelLayer()), 0u);
    window.model().redo();
    EXPECT_EQ(nonZero(window.model().labelLayer()), nonZero(expected));
}

TEST_F(Snake3dLive, ReplayShowsEveryStateFromTheStartAtTheRunsPace) {
    ASSERT_NO_FATAL_FAILURE(runTheVentricleBox());
    const Snake3dHistory& history = live().snake3dHistory();
    const LabelMap last = engineResult(live().request());
    auto* scrubber = panel().findChild<QSlider*>("snake3dScrubber");
    auto* replay = panel().findChild<QPushButton*>("snake3dReplay");
    ASSERT_TRUE(scrubber && replay);
    ASSERT_TRUE(waitFor([&] { return replay->isEnabled(); }));
    std::vector<int> shown;
    QObject::connect(scrubber, &QSlider::valueChanged, [&](int v) { shown.push_back(v); });
    replay->click();
    EXPECT_EQ(history.shown(), 0) << "the replay starts at the start";
    LabelMap preview;
    ASSERT_TRUE(live().copyPreviewReduced(volume->voxelCount(), preview));
    const LabelMap first = shownLabels();
    EXPECT_EQ(nonZero(first), kVentricleBox.voxelCount()) << "state 0 is the box";
    EXPECT_EQ(differing(preview, first), 0u) << "the views show the start";
    ASSERT_TRUE(waitFor([&] { return history.shown() == -1; })) << "the replay reaches the last state";
    ASSERT_EQ(shown.size(), std::size_t(history.count())) << "every state, once";
    for (std::size_t i = 0; i < shown.size(); ++i) EXPECT_EQ(shown[i], int(i));
    ASSERT_TRUE(live().copyPreviewReduced(volume->voxelCount(), preview));
    EXPECT_EQ(differing(preview, last), 0u) << "the replay ends on the run's result";
}

TEST_F(Snake3dLive, AcceptAfterScrubbingBackTakesTheStateShownNotTheLatest) {
    ASSERT_NO_FATAL_FAILURE(runTheVentricleBox());
    const Snake3dHistory& history = live().snake3dHistory();
    const LabelMap last = engineResult(live().request());
    auto* scrubber = panel().findChild<QSlider*>("snake3dScrubber");
    ASSERT_NE(scrubber, nullptr);
    ASSERT_TRUE(waitFor([&] { return scrubber->isEnabled() && scrubber->maximum() == history.count() - 1; }));
    const int mid = history.count() / 2;
    scrubber->setValue(mid);  // as a user drags it back
    ASSERT_EQ(history.shown(), mid);
    const int step = history.iteration(mid);  // the history goes with the run on Accept
    SegmentationRequest partial = live().request();
    partial.snake3d.iterations = step;
    const LabelMap then = engineResult(partial);
    ASSERT_GT(differing(then, last), 0u) << "the state scrubbed to differs from the run's latest";
    ASSERT_TRUE(panel().acceptResult());
    EXPECT_EQ(differing(window.model().labelLayer(), then), 0u)
        << "Accept takes the state the views show (step " << step << "), not the latest";
    EXPECT_EQ(window.model().history().undoText(), "Accept 3D snake");
    window.model().undo();
    EXPECT_EQ(nonZero(window.model().labelLayer()), 0u) << "one undo step";
}

TEST_F(Snake3dLive, TheBoundKeepsTheNewestStatesAndTheScrubberSaysSo) {
    window.setLayoutMode(Layout::Single);
    live().setSnake3dHistoryBytes(std::size_t(64) << 10);  // a fraction of what this run flips
    chooseSnake3d();
    drawBox(130, 85, 160, 150, 59, 19);
    ASSERT_TRUE(waitFor([&] { return !live().running(); }));
    const Snake3dHistory& history = live().snake3dHistory();
    const int iterations = live().published().last.iterations;
    ASSERT_GT(history.dropped(), 0);
    EXPECT_EQ(history.count() + history.dropped(), iterations + 1);
    EXPECT_LE(history.bytes(), std::size_t(64) << 10);
    EXPECT_EQ(history.iteration(history.count() - 1), iterations) << "the newest are kept";
    auto* scrubber = panel().findChild<QSlider*>("snake3dScrubber");
    ASSERT_NE(scrubber, nullptr);
    ASSERT_TRUE(waitFor([&] { return scrubber->maximum() == history.count() - 1; }));
    EXPECT_TRUE(scrubber->toolTip().contains(QString("the first %1 went to keep the history within 64 KiB").arg(history.dropped())))
        << scrubber->toolTip().toStdString();
    scrubber->setValue(0);
    SegmentationRequest oldest = live().request();
    oldest.snake3d.iterations = history.iteration(0);
    LabelMap preview;
    ASSERT_TRUE(live().copyPreviewReduced(volume->voxelCount(), preview));
    EXPECT_EQ(differing(preview, engineResult(oldest)), 0u) << "the oldest state kept is the engine's after "
                                                              << history.iteration(0) << " iterations";
}

TEST_F(Snake3dLive, ABoxMovesTheOtherViewsToItsCentreAndABubbleToIts) {
    chooseSnake3d();
    // The views elsewhere: the coronal view on j 191, the sagittal on i 40, far outside the box drawn next.
    window.model().setCursor({40, 191, 59});
    QTest::qWait(30);
    drawBox(130, 85, 160, 150, 59, 19);
    live().cancel();  // the start is what this test is about (under Xvfb the 3D pane renders in software)
    const Vec3 at = window.model().cursor();
    EXPECT_EQ(at.x, 145) << "the sagittal view cuts the box through its middle";
    EXPECT_EQ(at.y, 117) << "the coronal view too";
    EXPECT_EQ(at.z, 59) << "the view drawn on stays on its slice";
    for (Orientation o : {Orientation::Coronal, Orientation::Sagittal})  // the views take the cursor when they redraw
        EXPECT_TRUE(waitFor([&] { return !panel().overlayFor(view(o)->view()).lines.empty(); }))
            << "the box is drawn on view " << int(o);
    SliceViewWidget* axial = view(Orientation::Axial);
    QTest::mouseClick(axial, Qt::LeftButton, {}, screenOf(axial, {112, 110, 59}));
    live().cancel();
    const Vec3 bubble = window.model().cursor();
    EXPECT_EQ(bubble.x, 112);
    EXPECT_EQ(bubble.y, 110);
    EXPECT_EQ(bubble.z, 59);
}

TEST_F(Snake3dLive, ABoxInUniformBrainOrHeldWholeSaysItFoundNoEdge) {
    window.setLayoutMode(Layout::Single);
    chooseSnake3d();
    // White and grey matter of the left frontal lobe, no ventricle, no bone within the domain.
    drawBox(70, 70, 100, 100, 58, 8);
    ASSERT_TRUE(live().active());
    EXPECT_EQ(live().request().snake3d.box->lo, (std::array<int, 3>{70, 70, 55}));
    ASSERT_TRUE(waitFor([&] { return !live().running(); }));
    ASSERT_EQ(live().published().state, SessionState::Finished);
    const Snake3dContrast& c = live().snake3dHistory().state(live().snake3dHistory().count() - 1).contrast;
    EXPECT_LT(c.separation(), kSnake3dLeastSeparation);
    EXPECT_TRUE(live().snake3dNoContrast());
    EXPECT_NE(live().hudState().figure.find("no contrast"), std::string::npos) << live().hudState().figure;
    auto* status = panel().findChild<QLabel*>("segmentStatus");
    ASSERT_NE(status, nullptr);
    EXPECT_TRUE(waitFor([&] { return status->text().contains("No contrast: Draw the box across the structure's edge."); }))
        << status->text().toStdString();
    EXPECT_TRUE(window.statusBar()->currentMessage().startsWith("No contrast between the box and its surroundings"))
        << window.statusBar()->currentMessage().toStdString();
    EXPECT_TRUE(window.statusBar()->currentMessage().endsWith("Draw the box across the structure's edge."))
        << window.statusBar()->currentMessage().toStdString();
    // A box inside uniform brain whose domain reaches the skull, on the values as stored (clamped to the
    // window, the bone weighs no more than the window's top and no edge is found: "no contrast"): the
    // surface fills the box and grows to the bone, a real edge but not the one wanted; the box held whole
    // says so.
    panel().model().setSnake3dClipToWindow(false);
    drawBox(67, 69, 98, 100, 59, 8);
    ASSERT_TRUE(waitFor([&] { return !live().running(); }));
    ASSERT_EQ(live().request().snake3d.box->lo, (std::array<int, 3>{67, 69, 56}));
    EXPECT_FALSE(live().snake3dNoContrast()) << "the brain against the bone";
    EXPECT_TRUE(live().snake3dHoldsTheBox());
    EXPECT_NE(live().hudState().figure.find("holds the whole box"), std::string::npos) << live().hudState().figure;
    EXPECT_TRUE(waitFor([&] { return status->text().contains("Holds the whole box: Draw the box across"); }))
        << status->text().toStdString();
    EXPECT_TRUE(window.statusBar()->currentMessage().contains("the box lies inside one tissue"))
        << window.statusBar()->currentMessage().toStdString();
}

TEST_F(Snake3dLive, ReturnAcceptsFromWhereverTheFocusIsButATextFieldAndCtrlZUndoesIt) {
    window.setLayoutMode(Layout::Single);
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    chooseSnake3d();
    drawBox(130, 85, 160, 150, 59, 19);
    ASSERT_TRUE(waitFor([&] { return !live().running(); }));
    const std::size_t voxels = live().voxels();
    ASSERT_GT(voxels, 2000u);
    // Return in a number field applies the field: the run stays.
    auto* depth = panel().findChild<QSpinBox*>("snake3dDepth");
    depth->setFocus();
    QTest::keyClick(depth, Qt::Key_Return);
    EXPECT_TRUE(live().active()) << "Return in a field accepted the run";
    EXPECT_FALSE(window.model().history().canUndo());
    // Return with the focus on a button of the panel (where a drag on the panel leaves it) accepts.
    auto* replay = panel().findChild<QPushButton*>("snake3dReplay");
    replay->setFocus();
    QTest::keyClick(replay, Qt::Key_Return);
    EXPECT_FALSE(live().active()) << "Return accepted the run";
    ASSERT_TRUE(window.model().history().canUndo());
    EXPECT_EQ(window.model().history().undoText(), "Accept 3D snake");
    EXPECT_EQ(nonZero(window.model().labelLayer()), voxels);
    QTest::keyClick(replay, Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(nonZero(window.model().labelLayer()), 0u) << "Ctrl+Z undid the accept as one step";
    EXPECT_FALSE(window.model().history().canUndo());
    // And from the view drawn on, the focus a drag leaves: a new box, Return, the labels back.
    chooseSnake3d();
    drawBox(130, 85, 160, 150, 59, 19);
    ASSERT_TRUE(waitFor([&] { return !live().running(); }));
    SliceViewWidget* axial = view(Orientation::Axial);
    axial->setFocus();
    QTest::keyClick(axial, Qt::Key_Return);
    EXPECT_EQ(nonZero(window.model().labelLayer()), voxels);
}

TEST_F(Snake3dLive, BubblesAreCirclesOnEveryViewTheyCutAndShiftClickRemovesOne) {
    chooseSnake3d();
    auto* radius = panel().findChild<QDoubleSpinBox*>("snake3dRadius");
    ASSERT_NE(radius, nullptr);
    radius->setValue(6.0);
    Vec3 c = window.model().cursor();
    c.z = 59;
    window.model().setCursor(c);
    QTest::qWait(30);
    SliceViewWidget* axial = view(Orientation::Axial);
    QTest::mouseClick(axial, Qt::LeftButton, {}, screenOf(axial, {145, 110, 59}));
    QTest::mouseClick(axial, Qt::LeftButton, {}, screenOf(axial, {112, 110, 59}));
    const auto& bubbles = panel().model().snake3dTool().bubbles();
    ASSERT_EQ(bubbles.size(), 2u);
    EXPECT_EQ(bubbles[0].centre, (VoxelIndex{145, 110, 59}));
    EXPECT_EQ(bubbles[0].radiusMm, 6.0);
    ASSERT_TRUE(live().active()) << "a bubble starts the run";
    EXPECT_EQ(live().request().seeds.size(), 2u);
    EXPECT_EQ(live().request().snake3d.radiiMm, (std::vector<double>{6.0, 6.0}));
    EXPECT_EQ(window.model().cursor().x, 112) << "the views went to the bubble clicked last";
    // The coronal view through the first bubble's centre cuts both balls: two circles.
    window.model().setCursor({145, 110, 59});
    auto circles = [&](Orientation o) {
        int n = 0;
        for (const auto& l : panel().overlayFor(view(o)->view()).lines) n += l.points.size() > 8;
        return n;
    };
    // The views take the cursor when they redraw (after the 3D pane's software frames under Xvfb).
    EXPECT_TRUE(waitFor([&] { return circles(Orientation::Coronal) == 2; })) << circles(Orientation::Coronal);
    EXPECT_TRUE(waitFor([&] { return circles(Orientation::Sagittal) == 1; }))
        << "the sagittal plane i = 145 cuts the first ball only: " << circles(Orientation::Sagittal);
    // A slice beyond the radius (6 mm / 1.5 mm slices of this CT: 4 slices) shows no circle.
    window.model().setCursor({145, 110, 59 + 5});
    EXPECT_TRUE(waitFor([&] { return circles(Orientation::Axial) == 0; }));
    window.model().setCursor({145, 110, 59});
    ASSERT_TRUE(waitFor([&] { return circles(Orientation::Axial) == 2; })) << "both balls on slice 59";
    QTest::mouseClick(axial, Qt::LeftButton, Qt::ShiftModifier, screenOf(axial, {146, 111, 59}));
    ASSERT_EQ(bubbles.size(), 1u);
    EXPECT_EQ(bubbles[0].centre, (VoxelIndex{112, 110, 59}));
    EXPECT_EQ(live().request().seeds.size(), 1u) << "the run started again from the bubble left";
    auto* clear = panel().findChild<QPushButton*>("snake3dClear");
    ASSERT_NE(clear, nullptr);
    clear->click();
    EXPECT_FALSE(live().active());
    EXPECT_FALSE(panel().model().snake3dTool().hasStart());
}

TEST_F(Snake3dLive, TheStartAndParametersSurviveTheSessionFile) {
    chooseSnake3d();
    SegmentationModel& m = panel().model();
    m.setSnake3dIterations(12);
    m.setSnake3dSmoothing(2);
    m.setSnake3dMargin(7.5);
    m.setSnake3dDepth(9);
    m.setSnake3dRadius(4.0);
    m.snake3dTool().setStart(kVentricleBox, {{{140, 100, 60}, 3.0}, {{150, 120, 58}, 5.5}});
    SavedSession saved;
    saved.grid = volume->geometry();
    saved.segmentation = panel().settings();
    const QByteArray json = SessionFile::toJson(saved, "/tmp/s.lucent");
    const SavedSession back = SessionFile::fromJson(json, "/tmp/s.lucent");
    m.clearSnake3dStart();
    m.setSnake3dIterations(0);
    panel().restoreSettings(back.segmentation);
    EXPECT_EQ(m.mode(), Method::Snake3d);
    const Snake3dParams p = m.snake3d();
    ASSERT_TRUE(p.box.has_value());
    EXPECT_EQ(p.box->lo, kVentricleBox.lo);
    EXPECT_EQ(p.box->hi, kVentricleBox.hi);
    EXPECT_EQ(p.iterations, 12);
    EXPECT_EQ(p.smoothing, 2);
    EXPECT_EQ(p.marginMm, 7.5);
    EXPECT_EQ(p.radiiMm, (std::vector<double>{3.0, 5.5}));
    EXPECT_EQ(m.snake3dTool().depth(), 9);
    EXPECT_EQ(m.snake3dTool().radius(), 4.0);
    ASSERT_EQ(m.snake3dTool().bubbles().size(), 2u);
    EXPECT_EQ(m.snake3dTool().bubbles()[1].centre, (VoxelIndex{150, 120, 58}));
    EXPECT_FALSE(live().active()) << "restoring settings starts no run";
    // A session whose bubble has no radius is refused, naming the file.
    QJsonObject doc = QJsonDocument::fromJson(json).object();
    QJsonObject seg = doc["segmentation"].toObject(), s3 = seg["snake3d"].toObject();
    ASSERT_EQ(s3["bubbles"].toArray().size(), 2) << json.toStdString();
    s3["bubbles"] = QJsonArray{QJsonArray{150, 120, 58}};
    seg["snake3d"] = s3;
    doc["segmentation"] = seg;
    const QByteArray bad = QJsonDocument(doc).toJson();
    try {
        SessionFile::fromJson(bad, "/tmp/s.lucent");
        ADD_FAILURE() << "a bubble without a radius was read";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("/tmp/s.lucent"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("bubble"), std::string::npos) << e.what();
    }
}

TEST_F(Snake3dLive, ABoxAcrossBothFrontalHornsInTheBrainWindowFindsTheVentriclesAsTheCliWithItsClip) {
    // Issue 40: the box around both frontal horns on axial slice 60 at the default depth (15 slices). Its
    // domain reaches the bone of the anterior cranial fossa; the run sees the values clamped to the window
    // the reader reads them in (W 80 L 40: 0..80 HU), as `lucent segment ... --clip 0,80`.
    window.setLayoutMode(Layout::Single);
    window.model().setWindow({40, 80});
    chooseSnake3d();
    auto* clip = panel().findChild<QCheckBox*>("snake3dClip");
    auto* values = panel().findChild<QLabel*>("snake3dValues");
    ASSERT_TRUE(clip && values);
    EXPECT_TRUE(clip->isChecked()) << "a run takes the window by default";
    EXPECT_EQ(values->text(), "Values: clipped to the window, 0 .. 80 HU");
    drawBox(105, 120, 152, 183, 60, kSnake3dDepth.byDefault);
    ASSERT_TRUE(live().active());
    const SegmentationRequest ran = live().request();
    ASSERT_EQ(ran.snake3d.box->lo, (std::array<int, 3>{105, 120, 53}));
    ASSERT_EQ(ran.snake3d.box->hi, (std::array<int, 3>{152, 183, 67}));
    ASSERT_EQ(ran.snake3d.clip, (ValueRange{0, 80}));
    // A window changed during the run is for the next start: the run goes on with the range it began with.
    window.model().setWindow({40, 400});
    EXPECT_EQ(live().request().snake3d.clip, (ValueRange{0, 80}));
    EXPECT_TRUE(waitFor([&] { return values->text().contains("the next start takes -160 .. 240 HU"); }))
        << values->text().toStdString();
    ASSERT_TRUE(waitFor([&] { return !live().running(); }));
    ASSERT_EQ(live().published().state, SessionState::Finished) << live().lastError().toStdString();
    EXPECT_EQ(live().request().snake3d.clip, (ValueRange{0, 80})) << "the run was not started again";
    // `lucent segment --method snake3d --box 105,120,53,152,183,67 --clip 0,80`: the CLI's request, made apart
    // from the viewer's (the command line's text read as the CLI reads it).
    SegmentationRequest cli;
    cli.snake3d.box = VoxelBox{{105, 120, 53}, {152, 183, 67}};
    cli.snake3d.clip = parseRange("0,80");
    const LabelMap expected = engineResult(cli);
    EXPECT_EQ(live().voxels(), nonZero(expected));
    LabelMap preview;
    ASSERT_TRUE(live().copyPreviewReduced(volume->voxelCount(), preview));
    EXPECT_EQ(differing(preview, expected), 0u) << "the viewer's voxels are the CLI's";
    double sum = 0;
    for (std::size_t i = 0; i < expected.voxelCount(); ++i)
        if (expected[i]) sum += volume->value(i);
    const double mean = sum / double(nonZero(expected));
    std::printf("frontal horns in the brain window: %zu voxels at %.1f HU\n", nonZero(expected), mean);
    EXPECT_LT(mean, 10.0) << "CSF: the ventricles";
    EXPECT_GT(nonZero(expected), 15000u);
    EXPECT_LT(nonZero(expected), 30000u);
    EXPECT_FALSE(live().snake3dNoContrast());
    EXPECT_FALSE(live().snake3dHoldsTheBox()) << "the surface found the ventricles' edge";
    EXPECT_EQ(live().hudState().figure.find("no edge"), std::string::npos) << live().hudState().figure;
    // The session keeps the range the run used and the choice to take the window.
    SavedSession saved;
    saved.grid = volume->geometry();
    saved.segmentation = panel().settings();
    const QByteArray json = SessionFile::toJson(saved, "/tmp/s.lucent");
    const QJsonObject s3 = QJsonDocument::fromJson(json).object()["segmentation"].toObject()["snake3d"].toObject();
    const QJsonArray kept = s3["clip"].toArray();
    EXPECT_TRUE(kept.size() == 2 && kept[0].toDouble(-1) == 0 && kept[1].toDouble(-1) == 80) << json.toStdString();
    EXPECT_EQ(s3["clipToWindow"].toBool(false), true);
    // A session whose clip is not two numbers, the lower below the upper, is refused, naming the file.
    for (const QJsonValue& bad : {QJsonValue(QJsonArray{80, 0}), QJsonValue(QJsonArray{0}), QJsonValue(40)}) {
        QJsonObject doc = QJsonDocument::fromJson(json).object(), seg = doc["segmentation"].toObject();
        QJsonObject block = seg["snake3d"].toObject();
        block["clip"] = bad;
        seg["snake3d"] = block;
        doc["segmentation"] = seg;
        try {
            SessionFile::fromJson(QJsonDocument(doc).toJson(), "/tmp/s.lucent");
            ADD_FAILURE() << "a clip of " << QJsonDocument(QJsonArray{bad}).toJson().toStdString() << " was read";
        } catch (const std::exception& e) {
            EXPECT_NE(std::string(e.what()).find("/tmp/s.lucent"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("'clip' must be two numbers LO,HI, LO below HI"), std::string::npos)
                << e.what();
        }
    }
    // Unticked: the run starts again on the values as stored, and the bone makes the soft tissue the inside.
    clip->click();
    EXPECT_FALSE(panel().model().snake3dClipsToWindow());
    ASSERT_TRUE(live().active());
    EXPECT_FALSE(live().request().snake3d.clip.has_value());
    EXPECT_TRUE(waitFor([&] { return values->text() == "Values: as stored, not clipped"; }))
        << values->text().toStdString();
    ASSERT_TRUE(waitFor([&] { return !live().running(); }));
    EXPECT_GT(live().voxels(), 100000u);
    const SavedSession back = SessionFile::fromJson(json, "/tmp/s.lucent");
    panel().restoreSettings(back.segmentation);
    EXPECT_TRUE(panel().model().snake3dClipsToWindow());
    EXPECT_EQ(panel().model().snake3d().clip, (ValueRange{0, 80}));
    EXPECT_TRUE(clip->isChecked());
}

