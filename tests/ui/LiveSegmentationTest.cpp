/// @brief Live segmentation driven like a user under Xvfb (CPU backend), checked on rendered pixels
/// and against the engines run directly (what `lucent segment` runs): a clicked seed and a moving
/// interval grow the overlay monotonically; the snake's polygon steps, GL falls and the scrubber
/// shows an earlier polygon; the FC threshold relabels without recomputing the map; FCM accepts
/// the engine's labels; accept, undo and redo restore exact label maps; closing mid-run is clean.
#include "CtPhantom.h"
#include "EventLoopWait.h"
#include "ViewerWindowTest.h"
#include "lucent/core/seg/FuzzyCMeansCpu.h"
#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/core/seg/RegionGrowingCpu.h"
#include "lucent/core/HostVolumeWork.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/MeasurementPanel.h"
#include "lucent/ui/RunRecorder.h"
#include "lucent/ui/SegmentPanel.h"
#include "lucent/ui/SharedTextures.h"
#include "lucent/ui/View3DWidget.h"
#include "lucent/ui/ViewCapture.h"
#include "lucent/ui/ViewGrid.h"

#include <QSlider>
#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QApplication>
#include <QPushButton>
#include <QListWidget>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

#include "lucent/gpu/DeviceInfo.h"

#include <cmath>
#include <cstdlib>
#include <functional>

using namespace lucent;
using namespace lucent::ui;
using render::Orientation;

namespace {

/// A bright ball (1000 HU) in a soft-tissue box (40..46 HU) in air (-1000 HU), 96 x 80 x 40.
std::shared_ptr<Volume> phantom(std::array<int, 3> dims = {96, 80, 40}) { return lucent::testing::ctBallPhantom(dims); }

using lucent::testing::waitFor;

/// Pixels of the live overlay (label 1 is red: far more red than green or blue).
int redPixels(const QImage& img) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb c = img.pixel(x, y);
            n += qRed(c) > qGreen(c) + 60 && qRed(c) > qBlue(c) + 60;
        }
    return n;
}

std::size_t nonZero(const LabelMap& m) { return m.voxelCount() - m.count(0); }

template <class Engine>
LabelMap engineResult(const SegmentationRequest& r) {
    Engine engine;
    engine.start(r);
    engine.run();
    LabelMap out;
    engine.result(out);
    return out;
}

/// Equal where it matters: the layer's label set exactly where the engine's result is non-zero.
bool sameMask(const LabelMap& layer, const LabelMap& result) {
    if (layer.voxelCount() != result.voxelCount()) return false;
    for (std::size_t i = 0; i < layer.voxelCount(); ++i)
        if ((layer[i] != 0) != (result[i] != 0)) return false;
    return true;
}

/// CPU here and in CI; LUCENT_LIVE_BACKEND=cuda runs the same tests on the GPU machine.
gpu::Backend liveBackend() {
    const char* b = std::getenv("LUCENT_LIVE_BACKEND");
    return gpu::parseBackend(b && *b ? b : "cpu");
}

/// The tests of the device paths skip without a device here and in CI; asked to run on CUDA (the
/// device check on the GPU machine), a missing device is a failure, so they cannot skip unseen.
#define REQUIRE_DEVICE(what)                                                                          \
    if (gpu::listDevices().empty()) {                                                                 \
        if (liveBackend() == gpu::Backend::Cuda) FAIL() << "LUCENT_LIVE_BACKEND=cuda but no CUDA device"; \
        GTEST_SKIP() << "no CUDA device: " what;                                                       \
    }

class Live : public lucent::testing::ViewerWindowTest {
protected:
    void SetUp() override {
        showWindow();
        volume = phantom();
        setVolume(volume);
        panel().live().setBackend(backend());
        QTest::qWait(50);
    }
    static gpu::Backend backend() { return liveBackend(); }
    void expectBackend() {
        if (backend() == gpu::Backend::Cuda) {
            EXPECT_EQ(live().published().backend, "cuda");
        }
    }
    SegmentPanel& panel() { return window.segment(); }
    LiveSegmentation& live() { return panel().live(); }
    bool settle() {
        return waitFor([&] { return !live().running(); });
    }
    QImage axialImage() {
        QTest::qWait(40);
        return axial()->grabFramebuffer();
    }
    /// Whether the preview tints the axial view near `voxel` with channel `c` (0 red, 1 green, 2 blue)
    /// standing out: a 9 x 9 pixel window, so a hatch stripe falls inside it.
    bool tintedAt(const QImage& img, Vec3 voxel, int c) {
        const QPoint at = screenOf(axial(), voxel) * axial()->devicePixelRatioF();
        for (int y = at.y() - 4; y <= at.y() + 4; ++y)
            for (int x = at.x() - 4; x <= at.x() + 4; ++x) {
                if (!img.rect().contains(x, y)) continue;
                const QRgb p = img.pixel(x, y);
                const int v[3] = {qRed(p), qGreen(p), qBlue(p)};
                if (v[c] > v[(c + 1) % 3] + 60 && v[c] > v[(c + 2) % 3] + 60) return true;
            }
        return false;
    }

    std::shared_ptr<Volume> volume;
};

}  // namespace

TEST_F(Live, SeedAndIntervalGrowTheOverlayAndAcceptUndoRedo) {
    panel().enterMode(Method::RegionGrowing);
    QTest::qWait(50);
    const int k = int(window.model().cursor().z);
    QTest::mouseClick(axial(), Qt::LeftButton, {}, screenOf(axial(), {48, 40, double(k)}));
    ASSERT_EQ(panel().seeds().seeds().size(), 1u) << "the click placed a seed";
    EXPECT_EQ(panel().seeds().seeds()[0], (VoxelIndex{48, 40, k}));
    ASSERT_TRUE(settle());
    const std::size_t ball = live().voxels();
    EXPECT_GT(ball, 1000u);
    const int ballPixels = redPixels(axialImage());
    EXPECT_GT(ballPixels, 300) << "the grown ball is drawn";
    // Widening the interval down to the box's values: the region grows on, never shrinks.
    std::vector<std::size_t> seen;
    QObject::connect(&live(), &LiveSegmentation::framed, [&] { seen.push_back(live().voxels()); });
    panel().setInterval(0, 1040);
    ASSERT_TRUE(settle());
    QTest::qWait(50);
    for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i], seen[i - 1]) << "frame " << i;
    const std::size_t grown = live().voxels();
    EXPECT_GT(grown, ball * 2);
    EXPECT_GT(redPixels(axialImage()), ballPixels * 2);
    expectBackend();
    const SegmentationRequest request = live().request();
    const LabelMap expected = engineResult<RegionGrowingCpu>(request);
    EXPECT_EQ(grown, nonZero(expected));

    // The preview has its own look (hatched), apart from an accepted label (solid): along a row
    // through the region's middle, the preview leaves image greys between its stripes.
    const QImage previewImage = axialImage();
    ASSERT_TRUE(panel().acceptResult());
    ASSERT_TRUE(window.model().labels());
    QTest::qWait(50);
    const QImage acceptedImage = axialImage();
    const QPoint mid = screenOf(axial(), {48, 40, double(k)}) * axial()->devicePixelRatioF();
    auto tintedRun = [&](const QImage& img) {
        int tinted = 0, plain = 0;
        // Below the seed's marker, off the crosshair's (yellow) column.
        for (int x = mid.x() - 14; x <= mid.x() + 14; ++x) {
            const QRgb c = img.pixel(x, mid.y() + 14);
            if (qRed(c) > 200 && qGreen(c) > 180 && qBlue(c) < 80) continue;
            (qRed(c) > qGreen(c) + 60 && qRed(c) > qBlue(c) + 60 ? tinted : plain) += 1;
        }
        return std::pair{tinted, plain};
    };
    const auto [previewTinted, previewPlain] = tintedRun(previewImage);
    const auto [acceptedTinted, acceptedPlain] = tintedRun(acceptedImage);
    EXPECT_GT(previewTinted, 4) << "stripes of the run's colour";
    EXPECT_GT(previewPlain, 8) << "the image between the stripes";
    EXPECT_EQ(acceptedPlain, 0) << "an accepted label is a solid tint";

    const LabelMap accepted = *window.model().labels();
    EXPECT_TRUE(sameMask(accepted, expected)) << "the accepted layer is the engine's result";
    auto* undo = window.findChild<QAction*>("undoAction");
    ASSERT_NE(undo, nullptr);
    EXPECT_TRUE(undo->isEnabled());
    EXPECT_EQ(undo->text(), "Undo Accept region growing");
    EXPECT_FALSE(live().active()) << "accept ends the run";
    undo->trigger();
    EXPECT_EQ(nonZero(*window.model().labels()), 0u);
    window.findChild<QAction*>("redoAction")->trigger();
    EXPECT_TRUE(sameMask(*window.model().labels(), expected));
    QTest::qWait(50);
    EXPECT_GT(redPixels(axialImage()), ballPixels) << "the accepted labels are drawn";
}

/// Pixels whose green stands out (label 2's default colour, 40, 200, 60).
int greenPixels(const QImage& img) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb c = img.pixel(x, y);
            n += qGreen(c) > qRed(c) + 60 && qGreen(c) > qBlue(c) + 60;
        }
    return n;
}

TEST_F(Live, ThePreviewIsDrawnInTheColourOfTheLabelItWillGoInto) {
    window.model().setActiveLabel(2);  // green: the Accept as label box follows the active label
    panel().enterMode(Method::RegionGrowing);
    const int k = int(window.model().cursor().z);
    QTest::mouseClick(axial(), Qt::LeftButton, {}, screenOf(axial(), {48, 40, double(k)}));
    ASSERT_TRUE(settle());
    QTest::qWait(50);
    const QImage shown = axialImage();
    EXPECT_GT(greenPixels(shown), 300) << "the preview in label 2's green";
    EXPECT_LT(redPixels(shown), greenPixels(shown) / 10) << "not in label 1's red";
    // Another label typed into the box: the preview takes its colour before any Accept.
    window.model().setActiveLabel(1);
    const QImage red = axialImage();
    EXPECT_GT(redPixels(red), 300);
    EXPECT_LT(greenPixels(red), redPixels(red) / 10) << "the green preview turned red";
}

TEST_F(Live, AnIntervalWithoutTheSeedLeavesNoStaleFiguresAndNothingToAccept) {
    panel().enterMode(Method::RegionGrowing);
    QTest::qWait(50);
    const int k = int(window.model().cursor().z);
    QTest::mouseClick(axial(), Qt::LeftButton, {}, screenOf(axial(), {48, 40, double(k)}));
    ASSERT_TRUE(settle());
    ASSERT_GT(live().voxels(), 1000u);
    ASSERT_GT(live().hudState().iteration, 0);
    auto* acceptButton = panel().findChild<QPushButton*>("acceptButton");
    auto* acceptAction = window.findChild<QAction*>("acceptAction");
    ASSERT_TRUE(acceptButton && acceptAction);
    EXPECT_TRUE(acceptButton->isEnabled());
    EXPECT_TRUE(acceptAction->isEnabled());

    // The interval moved above the ball (1000 HU): the engine refuses, the preview clears.
    QSignalSpy failed(&live(), &LiveSegmentation::failed);
    panel().setInterval(1500, 2000);
    ASSERT_EQ(failed.size(), 1);
    const QString why = failed.front().at(0).toString();
    EXPECT_TRUE(why.contains("no seed lies within")) << why.toStdString();
    EXPECT_TRUE(live().active()) << "the run stays, so that the interval can move back";
    EXPECT_EQ(live().voxels(), 0u);
    const render::HudState hud = live().hudState();
    EXPECT_EQ(hud.iteration, 0) << "no iteration of the result that is gone";
    EXPECT_EQ(hud.msPerStep, 0.0);
    EXPECT_FALSE(acceptButton->isEnabled()) << "nothing to accept";
    EXPECT_FALSE(acceptAction->isEnabled()) << "Segment > Accept (Ctrl+Return) neither";
    acceptAction->trigger();
    EXPECT_FALSE(window.model().history().canUndo()) << "nothing was accepted";
    EXPECT_EQ(panel().seeds().seeds().size(), 1u) << "the seed is not used up";

    // The interval back over the seed grows the ball again, and Accept is offered again.
    panel().setInterval(900, 1100);
    ASSERT_TRUE(settle());
    EXPECT_GT(live().voxels(), 1000u);
    EXPECT_GT(live().hudState().iteration, 0);
    EXPECT_TRUE(acceptButton->isEnabled());
    EXPECT_TRUE(acceptAction->isEnabled());
}

TEST_F(Live, AfterAcceptAClickOnAViewMovesTheCursorAndStartsNoRun) {
    // Xvfb has no window manager to activate the window; the menu keys need an active window.
    window.activateWindow();
    QApplication::setActiveWindow(&window);
    panel().enterMode(Method::RegionGrowing);
    QTest::qWait(50);
    const int k = int(window.model().cursor().z);
    QTest::mouseClick(axial(), Qt::LeftButton, {}, screenOf(axial(), {48, 40, double(k)}));
    ASSERT_TRUE(settle());
    ASSERT_GT(live().voxels(), 1000u);
    auto* acceptButton = panel().findChild<QPushButton*>("acceptButton");
    ASSERT_TRUE(acceptButton && acceptButton->isEnabled());
    QTest::mouseClick(acceptButton, Qt::LeftButton);
    ASSERT_FALSE(live().active()) << "accepted";
    const std::size_t accepted = nonZero(*window.model().labels());
    ASSERT_GT(accepted, 1000u);

    // A click to focus a view (issue 43 item 7: it planted a seed and started a run).
    QTest::mouseClick(axial(), Qt::LeftButton, {}, screenOf(axial(), {30, 24, double(k)}));
    EXPECT_TRUE(panel().seeds().seeds().empty()) << "no seed planted";
    EXPECT_FALSE(live().active()) << "no run started";
    EXPECT_EQ(window.grid().activeTool(), nullptr);
    const Vec3 cursor = window.model().cursor();
    EXPECT_EQ(int(std::lround(cursor.x)), 30) << "the click moved the cursor";
    EXPECT_EQ(int(std::lround(cursor.y)), 24);
    EXPECT_EQ(window.model().history().undoText(), "Accept region growing") << "nothing else in the history";

    // The method's key arms the tool again: the next click seeds a run; Segment > Accept
    // (Ctrl+Return) puts it down as the panel's button does.
    QTest::keyClick(&window, Qt::Key_G);
    ASSERT_EQ(window.grid().activeTool(), &panel().seeds());
    QTest::mouseClick(axial(), Qt::LeftButton, {}, screenOf(axial(), {48, 40, double(k)}));
    ASSERT_EQ(panel().seeds().seeds().size(), 1u) << "armed again, the click seeds";
    ASSERT_TRUE(settle());
    ASSERT_GT(live().voxels(), 1000u);
    QTest::keyClick(&window, Qt::Key_Return, Qt::ControlModifier);
    ASSERT_FALSE(live().active()) << "accepted by the menu's key";
    QTest::mouseClick(axial(), Qt::LeftButton, {}, screenOf(axial(), {30, 24, double(k)}));
    EXPECT_TRUE(panel().seeds().seeds().empty());
    EXPECT_FALSE(live().active());
}

TEST_F(Live, ARunThatFailsMidWaySaysWhyAndKeepsTheLayerItsHistoryAndTheMeasurements) {
    // Work to keep: an accepted run (one undo step) and a ruler.
    SegmentationRequest request;
    request.seeds = {{48, 40, 20}};
    request.regionGrowing = {900, 1100, 6};
    QString error;
    ASSERT_TRUE(panel().startWith(Method::RegionGrowing, request, true, &error)) << error.toStdString();
    ASSERT_TRUE(live().runFrames(-1, [] {}, &error)) << error.toStdString();
    expectBackend();
    ASSERT_TRUE(panel().acceptResult());
    Measurement ruler;
    ruler.kind = MeasurementKind::Ruler;
    ruler.axis = 2;
    ruler.slice = 20;
    const Geometry& g = volume->geometry();
    ruler.points = {g.voxelToPatient({10, 10, 20}), g.voxelToPatient({60, 50, 20})};
    window.measurementPanel().add(ruler);
    const LabelMap labels = *window.model().labels();
    const std::string undo = window.model().history().undoText();
    const std::size_t steps = window.model().history().steps();
    const double length = window.measurementPanel().measurements().all().at(0).value;
    ASSERT_EQ(undo, "Accept region growing");

    // The next run, into the box around the ball, fails: by the fault hook on any backend (its first
    // advance after the start), and on CUDA also by a memory cap that no allocation of the run fits.
    struct Fault {
        const char* variable;
        const char* value;
        const char* says;
    };
    // The hook fails the second advance: the first one's region is on screen when the run fails.
    std::vector<Fault> faults = {{"LUCENT_FAULT_AFTER_STEPS", "2", "injected fault"}};
    if (backend() == gpu::Backend::Cuda) faults.push_back({"LUCENT_GPU_MEMORY_LIMIT_MB", "0.0001", "GPU out of memory"});
    request.regionGrowing = {0, 1100, 6};
    for (const Fault& f : faults) {
        SCOPED_TRACE(f.variable);
        error.clear();
        qputenv(f.variable, f.value);
        const bool started = panel().startWith(Method::RegionGrowing, request, true, &error);
        const bool ran = started && live().runFrames(-1, [] {}, &error);
        qunsetenv(f.variable);
        ASSERT_TRUE(started) << error.toStdString();
        EXPECT_FALSE(ran) << "the run failed";
        EXPECT_TRUE(error.contains(f.says)) << error.toStdString();
        EXPECT_TRUE(window.statusBar()->currentMessage().contains(f.says))
            << "the user is told: " << window.statusBar()->currentMessage().toStdString();
        EXPECT_FALSE(live().active()) << "the run ended";
        EXPECT_EQ(live().voxels(), 0u) << "no partial preview is left to look like a result";
        bool previewShown = true;
        window.grid().withGlContext([&](SharedTextures& t) { previewShown = t.textures().hasPreview(); });
        EXPECT_FALSE(previewShown) << "the views show the layer as it was";
        EXPECT_FALSE(panel().acceptResult()) << "a failed run has nothing to accept";
        EXPECT_TRUE(std::equal(labels.data(), labels.data() + labels.voxelCount(), window.model().labels()->data()))
            << "the label layer, byte for byte";
        EXPECT_EQ(window.model().history().undoText(), undo);
        EXPECT_EQ(window.model().history().steps(), steps);
        ASSERT_EQ(window.measurementPanel().measurements().all().size(), 1u);
        EXPECT_EQ(window.measurementPanel().measurements().all()[0].value, length);
    }
    // The sitting goes on: the same run without a fault completes and is accepted over the first.
    ASSERT_TRUE(panel().startWith(Method::RegionGrowing, request, true, &error)) << error.toStdString();
    ASSERT_TRUE(live().runFrames(-1, [] {}, &error)) << error.toStdString();
    ASSERT_TRUE(panel().acceptResult());
    EXPECT_EQ(window.model().history().steps(), steps + 1);
    EXPECT_GT(nonZero(*window.model().labels()), nonZero(labels));
}

TEST_F(Live, BackendAutoMovesARunTheGpuCannotHoldToTheCpuAndSaysSo) {
    REQUIRE_DEVICE("backend auto moves a run from CUDA to the CPU engine");
    live().setBackend(gpu::Backend::Auto);
    SegmentationRequest request;
    request.seeds = {{48, 40, 20}};
    request.regionGrowing = {900, 1100, 6};
    QString error;
    // A first run on the device makes the volume resident, so the next one fails in the engine.
    ASSERT_TRUE(panel().startWith(Method::RegionGrowing, request, true, &error)) << error.toStdString();
    ASSERT_TRUE(live().runFrames(-1, [] {}, &error)) << error.toStdString();
    EXPECT_EQ(live().published().backend, "cuda");
    live().cancel();
    QSignalSpy told(&live(), &LiveSegmentation::failed);
    request.regionGrowing = {0, 1100, 6};
    qputenv("LUCENT_GPU_MEMORY_LIMIT_MB", "0.0001");
    const bool started = panel().startWith(Method::RegionGrowing, request, true, &error);
    const bool ran = started && live().runFrames(-1, [] {}, &error);
    qunsetenv("LUCENT_GPU_MEMORY_LIMIT_MB");
    ASSERT_TRUE(ran) << error.toStdString();
    EXPECT_EQ(live().published().backend, "cpu");
    ASSERT_EQ(told.size(), 1) << "said once";
    EXPECT_TRUE(told.front().at(0).toString().contains("running on the CPU engine instead"))
        << told.front().at(0).toString().toStdString();
    // The preview is the CPU engine's whole result: the host map was made when the run moved.
    const LabelMap expected = engineResult<RegionGrowingCpu>(live().request());
    EXPECT_EQ(live().voxels(), nonZero(expected));
    ASSERT_TRUE(panel().acceptResult());
    EXPECT_TRUE(sameMask(*window.model().labels(), expected));
}

TEST_F(Live, ADeviceRunsFramesPassOverNoWholeVolumeOnTheHost) {
    // A volume over the 3D pane's cell budget, so that its live copy is a reduced one. On the CPU
    // the preview lives on the host and the 3D copy reads all of it (the hook's control); on the
    // device, frames, interval changes and 3D copies must not touch a whole-volume host buffer.
    const auto big = phantom({192, 160, 96});
    ASSERT_GT(big->voxelCount(), View3DWidget::kLiveCells);
    SeriesInfo info;
    info.modality = "CT";
    window.model().setVolume(big, info, "");
    SegmentationRequest r;
    r.seeds = {{96, 80, 48}};
    r.regionGrowing = {900, 1100, 6};
    ASSERT_TRUE(panel().startWith(Method::RegionGrowing, r, true));
    ASSERT_TRUE(settle());
    hostwork::reset();
    for (int f = 0; f < 8; ++f) {
        panel().setInterval(900 - 120 * f, 1100);  // wider each frame: the ball, then the soft tissue
        ASSERT_TRUE(settle());
        live().frameNow();
        LabelMap cells;
        ASSERT_TRUE(live().copyPreviewReduced(View3DWidget::kLiveCells, cells));
        EXPECT_LT(cells.voxelCount(), big->voxelCount());
        QApplication::processEvents();
    }
    ASSERT_GT(live().volumeMl(), 0.0);
    EXPECT_GT(hostwork::count(), 0u);
    if (backend() == gpu::Backend::Cuda) {
        expectBackend();
        EXPECT_LT(hostwork::largest(), big->voxelCount()) << "a device run's frame passed over a whole volume on the host";
    } else {
        EXPECT_EQ(hostwork::largest(), big->voxelCount()) << "the CPU run's 3D copy reads its whole host preview";
    }
}

TEST_F(Live, DraggingFromTheSeedWidensAndShiftsTheInterval) {
    panel().enterMode(Method::RegionGrowing);
    QTest::qWait(50);
    const double k = window.model().cursor().z;
    const QPoint at = screenOf(axial(), {48, 40, k});
    auto* lower = window.findChild<QDoubleSpinBox*>("srgLowerBox");
    auto* upper = window.findChild<QDoubleSpinBox*>("srgUpperBox");
    ASSERT_TRUE(lower && upper);
    QTest::mousePress(axial(), Qt::LeftButton, {}, at);
    const double width0 = upper->value() - lower->value(), centre0 = (upper->value() + lower->value()) / 2;
    QTest::mouseMove(axial(), at + QPoint(0, -20));
    QTest::mouseMove(axial(), at + QPoint(0, -60));  // up: wider
    const double width1 = upper->value() - lower->value();
    EXPECT_GT(width1, width0 + 100);
    QTest::mouseMove(axial(), at + QPoint(30, -60));  // right: higher, same width
    EXPECT_GT((upper->value() + lower->value()) / 2, centre0 + 50);
    EXPECT_NEAR(upper->value() - lower->value(), width1, 2);
    QTest::mouseRelease(axial(), Qt::LeftButton, {}, at + QPoint(30, -60));
    EXPECT_EQ(panel().seeds().seeds().size(), 1u) << "the press placed one seed, the drag none";
    ASSERT_TRUE(settle());
    EXPECT_EQ(live().request().regionGrowing.upper, upper->value()) << "the run follows the dragged interval";
}

TEST_F(Live, SnakeStepsFromADraggedRectangleAndRewinds) {
    if (backend() == gpu::Backend::Cuda && !gpu::hasCudaEngine(Method::Snake)) live().setBackend(gpu::Backend::Auto);
    panel().enterMode(Method::Snake);
    QTest::qWait(50);
    const double k = window.model().cursor().z;
    QTest::mousePress(axial(), Qt::LeftButton, {}, screenOf(axial(), {26, 18, k}));
    QTest::mouseMove(axial(), screenOf(axial(), {50, 40, k}));
    QTest::mouseMove(axial(), screenOf(axial(), {70, 62, k}));
    QTest::mouseRelease(axial(), Qt::LeftButton, {}, screenOf(axial(), {70, 62, k}));
    ASSERT_TRUE(live().active()) << "the rectangle started the snake";
    EXPECT_EQ(live().request().snake.slice, int(k));
    ASSERT_TRUE(settle());
    const auto& conv = live().published().convergence;
    ASSERT_GT(conv.size(), 3u);
    EXPECT_LT(conv.back(), conv.front()) << "GL falls";
    ASSERT_GT(live().polygonCount(), 3);
    const QImage last = axialImage();
    EXPECT_EQ(live().shownStepPixels(), 0u);
    EXPECT_TRUE(live().shownStepText().isEmpty()) << "following the run: no scrubbed figures";
    panel().live().showStep(0);
    // The HUD's scrubbed figures in short lines: one long line ran past a 2x2 view's edge (issue 43 item 24).
    const std::string hudFigure = live().hudState().figure;
    std::size_t from = 0, lines = 0;
    for (std::size_t end; from <= hudFigure.size(); from = end + 1, ++lines) {
        end = std::min(hudFigure.find('\n', from), hudFigure.size());
        EXPECT_LE(end - from, 32u) << "HUD line '" << hudFigure.substr(from, end - from) << "'";
    }
    EXPECT_EQ(lines, 2u) << hudFigure;
    const QImage first = axialImage();
    EXPECT_NE(first, last) << "the scrubber shows the starting polygon";
    // The whole state of step 0: its fill (the rectangle, [26, 70) x [18, 62) by the row-crossing
    // rule: 44 x 44 pixels), its step and area in the HUD and under the scrubber.
    EXPECT_EQ(live().shownStepPixels(), 44u * 44u);
    EXPECT_EQ(live().hudState().iteration, 0);
    EXPECT_NE(live().hudState().figure.find("step 0 of"), std::string::npos) << live().hudState().figure;
    auto* figures = panel().findChild<QLabel*>("snakeStepFigures");
    ASSERT_NE(figures, nullptr);
    EXPECT_TRUE(waitFor([&] { return figures->text().startsWith("step 0 of") && figures->text().contains("1936 px"); }))
        << figures->text().toStdString();
    // Inside the rectangle, outside the ball the run converged to (and clear of the HUD in the top
    // left): filled at step 0, not at the end.
    const auto around = [&](const QImage& img) {
        const QPoint c = screenOf(axial(), {66, 22, k}) * axial()->devicePixelRatioF();
        QList<QRgb> px;
        for (int dy = -3; dy <= 3; ++dy)
            for (int dx = -3; dx <= 3; ++dx) px << img.pixel(c + QPoint(dx, dy));
        return px;
    };
    EXPECT_NE(around(first), around(last)) << "the fill of step 0 is shown, not only its outline";
    // The scrubber follows the keys (and clicks on its track) as well as drags.
    auto* scrubber = panel().findChild<QSlider*>("snakeScrubber");
    ASSERT_NE(scrubber, nullptr);
    scrubber->setFocus();
    QTest::keyClick(scrubber, Qt::Key_End);
    EXPECT_EQ(live().shownStep(), -1) << "the last step follows the run";
    EXPECT_EQ(axialImage(), last);
    QTest::keyClick(scrubber, Qt::Key_Home);
    EXPECT_EQ(live().shownStep(), 0);
    EXPECT_EQ(axialImage(), first);
    QTest::keyClick(scrubber, Qt::Key_Right);
    EXPECT_EQ(live().shownStep(), 1);
    const auto start = live().polygon(0), end = live().polygon(-1);
    EXPECT_NE(start.points, end.points);
    EXPECT_EQ(start.slice, int(k));
    EXPECT_EQ(end.slice, int(k));
    // Replay: the finished run shown again from step 0, one step after another, to its last
    // (which follows the run again); the views show each step as the scrubber passes it.
    std::vector<int> shown;
    QObject::connect(scrubber, &QSlider::valueChanged, [&](int v) { shown.push_back(v); });
    auto* replay = panel().findChild<QPushButton*>("snakeReplay");
    ASSERT_NE(replay, nullptr);
    ASSERT_TRUE(replay->isEnabled());
    replay->click();
    EXPECT_EQ(live().shownStep(), 0) << "the replay starts at the start";
    ASSERT_TRUE(waitFor([&] { return live().shownStep() == -1; })) << "the replay reaches the last step";
    ASSERT_EQ(shown.size(), std::size_t(live().polygonCount())) << "every step, once";
    for (std::size_t i = 0; i < shown.size(); ++i) EXPECT_EQ(shown[i], int(i));
    EXPECT_EQ(axialImage(), last);
}

namespace {
/// The snake's outline in `overlay` (the polyline that marks its nodes), or null.
const render::ViewOverlay::Polyline* snakeOutline(const render::ViewOverlay& overlay) {
    for (const auto& line : overlay.lines)
        if (line.markNodes) return &line;
    return nullptr;
}
}  // namespace

TEST_F(Live, APropagatedSnakesOutlineIsDrawnOnTheSliceItLiesOn) {
    // "Continue on the neighbouring slices": the run ends on another slice than its rectangle's.
    // Its last polygon belongs there, not over the first slice's result; the scrubber's start
    // rectangle belongs to the first slice.
    if (backend() == gpu::Backend::Cuda && !gpu::hasCudaEngine(Method::Snake)) live().setBackend(gpu::Backend::Auto);
    panel().enterMode(Method::Snake);
    auto* propagate = panel().findChild<QCheckBox*>("snakePropagate");
    ASSERT_NE(propagate, nullptr);
    propagate->setChecked(true);
    QTest::qWait(50);
    const Vec3 cursor = window.model().cursor();
    const int k = int(cursor.z);
    QTest::mousePress(axial(), Qt::LeftButton, {}, screenOf(axial(), {26, 18, cursor.z}));
    QTest::mouseMove(axial(), screenOf(axial(), {50, 40, cursor.z}));
    QTest::mouseMove(axial(), screenOf(axial(), {70, 62, cursor.z}));
    QTest::mouseRelease(axial(), Qt::LeftButton, {}, screenOf(axial(), {70, 62, cursor.z}));
    ASSERT_TRUE(live().active());
    ASSERT_TRUE(live().request().snake.propagate);
    ASSERT_TRUE(settle());
    const StepReport last = live().published().last;
    ASSERT_FALSE(last.polygon.empty());
    ASSERT_NE(last.polygonSlice, k) << "the run propagated away from its first slice";
    // The panel says where the polygon is, as the views number slices (from 1).
    auto* status = panel().findChild<QLabel*>("segmentStatus");
    ASSERT_NE(status, nullptr);
    EXPECT_TRUE(waitFor([&] { return status->text().endsWith(QString("on slice %1").arg(last.polygonSlice + 1)); }))
        << status->text().toStdString();
    EXPECT_EQ(snakeOutline(panel().overlayFor(axial()->view())), nullptr)
        << "slice " << k << " shows slice " << last.polygonSlice << "'s polygon";
    window.model().setCursor({cursor.x, cursor.y, double(last.polygonSlice)});
    QTest::qWait(40);
    ASSERT_EQ(axial()->view().slice(), last.polygonSlice);
    const render::ViewOverlay there = panel().overlayFor(axial()->view());
    const auto* outline = snakeOutline(there);
    ASSERT_NE(outline, nullptr) << "the last polygon on its own slice";
    EXPECT_EQ(outline->points.size(), last.polygon.size());
    // The scrubber at step 0: the rectangle, on the first slice only.
    panel().live().showStep(0);
    EXPECT_EQ(snakeOutline(panel().overlayFor(axial()->view())), nullptr);
    window.model().setCursor(cursor);
    QTest::qWait(40);
    const render::ViewOverlay first = panel().overlayFor(axial()->view());
    const auto* start = snakeOutline(first);
    ASSERT_NE(start, nullptr);
    EXPECT_EQ(start->points.size(), 4u);
}

TEST_F(Live, FuzzyConnectednessThresholdRelabelsWithoutRecomputing) {
    SegmentationRequest r;
    r.seeds = {{48, 40, 19}};
    r.fuzzyConnectedness.threshold = 0.5;
    QString error;
    ASSERT_TRUE(panel().startWith(Method::FuzzyConnectedness, r, true, &error)) << error.toStdString();
    ASSERT_TRUE(settle());
    const int steps = live().published().steps;
    panel().setThreshold(0.95);
    ASSERT_TRUE(settle());
    QTest::qWait(50);
    EXPECT_EQ(live().published().steps, steps) << "a new threshold takes no step: the map is kept";
    SegmentationRequest at = live().request();
    EXPECT_DOUBLE_EQ(at.fuzzyConnectedness.threshold, 0.95);
    const LabelMap expected = engineResult<FuzzyConnectednessCpu>(at);
    EXPECT_EQ(live().voxels(), nonZero(expected));
    // The map as a heat overlay: hot at the seed, cold in the air far from it.
    window.model().setWindow({3000, 6000});  // the ball mid-grey, so a white-hot map shows on it
    const QImage plain = axialImage();
    ASSERT_TRUE(live().showSoftMap(0));
    const QImage heat = axialImage();
    const QPoint seed = screenOf(axial(), {53, 43, 19}), air = screenOf(axial(), {90, 60, 19});  // beside the seed marker
    EXPECT_NE(heat.pixel(seed), plain.pixel(seed)) << "the map is drawn where it is high";
    EXPECT_EQ(heat.pixel(air), plain.pixel(air)) << "and not where it is zero";
    EXPECT_FALSE(live().showSoftMap(1)) << "fc has one map";
    ASSERT_TRUE(panel().acceptResult());
    EXPECT_TRUE(sameMask(*window.model().labels(), expected));
    EXPECT_EQ(live().softMapShown(), -1) << "accept ends the run and its overlay";
}

TEST_F(Live, FuzzyCMeansAcceptsTheEnginesClusters) {
    SegmentationRequest r;
    r.fuzzyCMeans.clusters = 3;
    QString error;
    ASSERT_TRUE(panel().startWith(Method::FuzzyCMeans, r, true, &error)) << error.toStdString();
    ASSERT_TRUE(settle());
    QTest::qWait(50);
    SegmentationRequest at = live().request();
    const LabelMap expected = engineResult<FuzzyCMeansCpu>(at);
    // Clusters by ascending centre: 1 the air, 2 the box, 3 the ball. The air holds the volume's
    // faces: the background, unticked from the start (BackgroundCluster.h), so neither drawn nor
    // counted; the others go into the first free labels (1 red, 2 green). Ticked, the air comes
    // back and each cluster goes into its own label, in its colour.
    auto* list = window.findChild<QListWidget*>("fcmClusters");
    ASSERT_TRUE(waitFor([&] { return list->count() == 3; }));
    const int k = int(window.model().cursor().z);
    // Along the middle row, clear of the HUD's corner: air beyond the box's edge (i 86), the box, the ball.
    const Vec3 air{92, 40, double(k)}, box{78, 40, double(k)}, ball{48, 40, double(k)};
    EXPECT_EQ(list->item(0)->checkState(), Qt::Unchecked) << "the air starts unticked";
    EXPECT_TRUE(list->item(0)->text().contains("(background)")) << list->item(0)->text().toStdString();
    QImage shown = axialImage();
    for (int c : {0, 1, 2}) EXPECT_FALSE(tintedAt(shown, air, c)) << "the unticked air is not drawn";
    EXPECT_TRUE(tintedAt(shown, box, 0)) << "the box goes into label 1: red";
    EXPECT_TRUE(tintedAt(shown, ball, 1)) << "the ball into label 2: green";
    // The result counts the clusters Accept would take (issue 43 item 2), in the panel too.
    const std::size_t boxAndBall = expected.count(2) + expected.count(3);
    EXPECT_EQ(live().shownVoxels(), boxAndBall);
    const QString status = window.findChild<QLabel*>("segmentStatus")->text();
    EXPECT_TRUE(status.contains(QString(" %1 voxels").arg(boxAndBall))) << status.toStdString();
    EXPECT_TRUE(list->item(1)->text().contains(QString::fromUtf8("\u2192 Label 1"))) << list->item(1)->text().toStdString()
        << ": a new label, the first free one";
    list->item(0)->setCheckState(Qt::Checked);
    shown = axialImage();
    EXPECT_TRUE(tintedAt(shown, air, 0)) << "the air, ticked, in label 1's red";
    EXPECT_TRUE(tintedAt(shown, box, 1)) << "the box in label 2's green";
    EXPECT_TRUE(tintedAt(shown, ball, 2)) << "the ball in label 3's blue";
    EXPECT_GT(redPixels(shown), 1000);
    EXPECT_EQ(live().shownVoxels(), expected.voxelCount() - expected.count(0));
    ASSERT_TRUE(panel().acceptResult()) << "state " << sessionStateName(live().published().state) << ", backend "
                                        << live().published().backend << ", voxels " << live().voxels() << ", error '"
                                        << live().lastError().toStdString() << "', clusters listed "
                                        << window.findChild<QListWidget*>("fcmClusters")->count();
    const LabelMap& layer = *window.model().labels();
    ASSERT_EQ(layer.voxelCount(), expected.voxelCount());
    EXPECT_TRUE(std::equal(layer.data(), layer.data() + layer.voxelCount(), expected.data())) << "cluster c is label c";
}

TEST_F(Live, SoftMapsThroughInteropDrawTheHostPixels) {
    REQUIRE_DEVICE("soft maps cannot come from the device here");
    live().setBackend(gpu::Backend::Cuda);
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) window.grid().view(o)->setHudVisible(false);
    window.model().setWindow({3000, 6000});
    // The heat texture through interop, then the same map through host memory: the same frame.
    bool hostHeatMade = false;
    auto both = [&](int index) {
        window.grid().textures().setInteropAllowed(true);
        EXPECT_TRUE(live().showSoftMap(index));
        EXPECT_TRUE(live().softMapFromDevice()) << "CUDA engine and NVIDIA GL: the map stays on the device";
        const QImage device = axialImage();
        // Until a host upload made one (the comparison below), the views need no 3D texture of the map.
        if (window.grid().textures().onPlanes() && !hostHeatMade) {
            EXPECT_EQ(window.grid().textures().textures().heatTexture(), 0u) << "the views' planes of the map, no 3D texture";
        }
        hostHeatMade = true;
        live().showSoftMap(-1);
        window.grid().textures().setInteropAllowed(false);
        EXPECT_TRUE(live().showSoftMap(index));
        EXPECT_FALSE(live().softMapFromDevice());
        const QImage host = axialImage();
        window.grid().textures().setInteropAllowed(true);
        live().showSoftMap(-1);
        return std::make_pair(device, host);
    };
    SegmentationRequest fc;
    fc.seeds = {{48, 40, 19}};
    QString error;
    ASSERT_TRUE(panel().startWith(Method::FuzzyConnectedness, fc, true, &error)) << error.toStdString();
    ASSERT_TRUE(settle());
    EXPECT_EQ(live().published().backend, "cuda");
    const auto [fcDevice, fcHost] = both(0);
    EXPECT_EQ(fcDevice, fcHost) << "connectivity heat: interop and host upload draw the same pixels";
    SegmentationRequest fcm;
    fcm.fuzzyCMeans.clusters = 3;
    ASSERT_TRUE(panel().startWith(Method::FuzzyCMeans, fcm, true, &error)) << error.toStdString();
    ASSERT_TRUE(settle());
    QImage hostOfCluster2;
    for (int cluster : {0, 2}) {
        const auto [device, host] = both(cluster);
        EXPECT_EQ(device, host) << "membership heat of cluster " << cluster;
        hostOfCluster2 = host;
    }
    // One cluster's map straight after another's, nothing hidden between (the cluster list's
    // selection): the views follow the map now shown.
    window.grid().textures().setInteropAllowed(true);
    EXPECT_TRUE(live().showSoftMap(0));
    axialImage();
    EXPECT_TRUE(live().showSoftMap(2));
    EXPECT_TRUE(live().softMapFromDevice());
    EXPECT_EQ(axialImage(), hostOfCluster2) << "cluster 2's map after cluster 0's";
}

TEST_F(Live, InteropAndHostUploadDrawTheSamePixels) {
    REQUIRE_DEVICE("the interop path cannot run here");
    live().setBackend(gpu::Backend::Cuda);
    SegmentationRequest r;
    r.seeds = {{48, 40, int(window.model().cursor().z)}};
    r.regionGrowing = {0, 1040, 6};
    // The HUD panel shows ms per step and the path taken: hidden, so only the image is compared.
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) window.grid().view(o)->setHudVisible(false);
    auto runAndGrab = [&](bool interop) {
        window.grid().textures().setInteropAllowed(interop);
        QString error;
        EXPECT_TRUE(panel().startWith(Method::RegionGrowing, r, true, &error)) << error.toStdString();
        EXPECT_TRUE(settle());
        QTest::qWait(80);
        EXPECT_EQ(live().published().backend, "cuda");
        EXPECT_EQ(live().usedInterop(), interop);
        return axialImage();
    };
    const QImage viaInterop = runAndGrab(true);
    const std::size_t voxels = live().voxels();
    const QImage viaHost = runAndGrab(false);
    EXPECT_EQ(live().voxels(), voxels);
    EXPECT_EQ(voxels, nonZero(engineResult<RegionGrowingCpu>(live().request()))) << "counted on the device";
    EXPECT_GT(redPixels(viaInterop), 300);
    EXPECT_EQ(viaInterop, viaHost) << "CUDA-GL interop and the host upload draw the same frame";
    window.grid().textures().setInteropAllowed(true);
}

TEST_F(Live, VolumeTextureFromTheDeviceDrawsTheHostUploadsPixels) {
    REQUIRE_DEVICE("the device-filled volume texture cannot run here");
    window.grid().textures().setSliceTextures(SliceTextures::WholeVolume);
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) window.grid().view(o)->setHudVisible(false);
    SeriesInfo info;
    info.modality = "CT";
    auto loadAndGrab = [&](const char* path) {
        qputenv("LUCENT_VOLUME_UPLOAD", path);
        window.model().setVolume(phantom(), info, "");
        return axialImage();
    };
    const QImage fromDevice = loadAndGrab("device");
    EXPECT_TRUE(window.grid().textures().volumeFromDevice()) << "the GPU context's copy filled the volume texture";
    EXPECT_TRUE(window.grid().resident().context(window.model().volume().get()) != nullptr);
    const QImage fromHost = loadAndGrab("host");
    EXPECT_FALSE(window.grid().textures().volumeFromDevice());
    qunsetenv("LUCENT_VOLUME_UPLOAD");
    EXPECT_EQ(fromDevice, fromHost) << "the device-filled texture draws the same frame as the host upload";
}

namespace {

/// The three views' frames (HUD hidden: only the image is compared).
std::vector<QImage> viewImages(MainWindow& window) {
    QTest::qWait(60);
    std::vector<QImage> images;
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal})
        images.push_back(window.grid().view(o)->grabFramebuffer());
    return images;
}

/// A region-growing run drawn through `mode`'s textures, its interval widened, the cursor moved to
/// other planes mid-run and after, on a freshly loaded phantom: the frames at each point.
std::vector<QImage> runThrough(MainWindow& window, SliceTextures mode, gpu::Backend backend,
                               std::shared_ptr<Volume> volume = phantom(), const std::function<void()>& midway = {}) {
    window.grid().textures().setSliceTextures(mode);
    SeriesInfo info;
    info.modality = "CT";
    window.model().setVolume(volume, info, "");
    window.segment().live().setBackend(backend);
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) window.grid().view(o)->setHudVisible(false);
    window.model().setWindow({500, 2500});
    window.segment().enterMode(Method::RegionGrowing);  // the panel's width is the same in every frame
    std::vector<QImage> frames;
    auto keep = [&] {
        for (auto& image : viewImages(window)) frames.push_back(image);
    };
    keep();  // the volume alone
    const Vec3 start = window.model().cursor();
    SegmentationRequest r;
    r.seeds = {{48, 40, int(start.z)}};
    r.regionGrowing = {900, 1100, 6};
    EXPECT_TRUE(window.segment().startWith(Method::RegionGrowing, r, true));
    EXPECT_TRUE(waitFor([&] { return !window.segment().live().running(); }));
    keep();
    window.segment().setInterval(0, 1100);  // the ball, then the box: changes cross every plane
    EXPECT_TRUE(waitFor([&] { return !window.segment().live().running(); }));
    keep();
    if (midway) {
        midway();
        keep();
    }
    // Other planes of the finished run's preview: each view reads its new plane from the source.
    window.model().setCursor({30, 52, start.z - 7});
    keep();
    window.model().setCursor({start.x, start.y, start.z + 3});
    keep();
    window.segment().live().cancel();
    keep();
    // A new run after the cancel: its first result replaces the whole preview, nothing of the
    // last run's left outside what it wrote.
    r.regionGrowing = {900, 1100, 6};
    EXPECT_TRUE(window.segment().startWith(Method::RegionGrowing, r, true));
    EXPECT_TRUE(waitFor([&] { return !window.segment().live().running(); }));
    keep();
    return frames;
}

void expectSameFrames(const std::vector<QImage>& whole, const std::vector<QImage>& planes, const char* tag) {
    ASSERT_EQ(whole.size(), planes.size());
    for (std::size_t i = 0; i < whole.size(); ++i) {
        EXPECT_GT(whole[i].width(), 100);
        EXPECT_EQ(whole[i], planes[i]) << tag << ": frame " << i / 3 << ", view " << i % 3;
        if (const char* dir = std::getenv("LUCENT_TEST_SHOTS"); dir && whole[i] != planes[i]) {
            whole[i].save(QString("%1/planes-%2-%3-whole.png").arg(dir, tag).arg(i));
            planes[i].save(QString("%1/planes-%2-%3-planes.png").arg(dir, tag).arg(i));
        }
    }
}

}  // namespace

TEST_F(Live, EachViewsPlaneTexturesDrawTheWholeVolumeTexturesPixels) {
    // The planes filled from host memory here (and in CI); on the device the same comparison runs
    // with CUDA filling them (EachViewsPlanesFromTheDevice...).
    const auto whole = runThrough(window, SliceTextures::WholeVolume, gpu::Backend::Cpu);
    EXPECT_FALSE(window.grid().textures().onPlanes());
    const auto planes = runThrough(window, SliceTextures::Planes, gpu::Backend::Cpu);
    EXPECT_TRUE(window.grid().textures().onPlanes());
    EXPECT_FALSE(window.grid().textures().textures().hasWholeVolume()) << "no whole-volume texture was made";
    EXPECT_EQ(window.grid().textures().textures().previewTexture(), 0u) << "no whole-volume preview texture was made";
    expectSameFrames(whole, planes, "host");
    EXPECT_GT(redPixels(whole[3]), 300) << "the run's preview is in the compared frames";
    EXPECT_GT(redPixels(planes[3 * 3 + 1]), 300) << "the coronal view on its new plane shows the preview";
}

TEST_F(Live, ResampledPlanesBesideVolumePlanesDrawTheWholeVolumeTexturesPixels) {
    // The phantom turned 12 degrees about the patient's S axis, in anatomical planes: the axial view
    // still shows a plane of the volume (its own textures), the coronal and sagittal views resample
    // oblique planes (the whole-volume textures, made on demand, the preview kept whole beside the
    // planes' copies).
    auto tilted = [] {
        auto v = phantom();
        Geometry g = v->geometry();
        const double c = std::cos(0.21), s = std::sin(0.21);
        g.direction = Mat3::fromColumns({c, s, 0}, {-s, c, 0}, {0, 0, 1});
        auto out = std::make_shared<Volume>(g, PixelType::Int16);
        std::copy(v->int16Data(), v->int16Data() + v->voxelCount(), out->int16Data());
        return out;
    };
    // Anatomical planes are turned on mid-run, so the whole-volume preview is first made from the
    // run's source with a result already shown.
    auto anatomical = [&] { window.model().setPlaneMode(render::PlaneMode::Patient); };
    const auto whole = runThrough(window, SliceTextures::WholeVolume, gpu::Backend::Cpu, tilted(), anatomical);
    window.model().setPlaneMode(render::PlaneMode::Volume);
    const auto planes = runThrough(window, SliceTextures::Planes, gpu::Backend::Cpu, tilted(), anatomical);
    EXPECT_TRUE(window.grid().textures().onPlanes());
    EXPECT_TRUE(window.grid().textures().textures().hasWholeVolume()) << "the oblique views made the 3D texture";
    EXPECT_TRUE(window.grid().view(Orientation::Axial)->view().shownVolumePlane().has_value());
    EXPECT_FALSE(window.grid().view(Orientation::Coronal)->view().shownVolumePlane().has_value());
    expectSameFrames(whole, planes, "oblique");
    EXPECT_GT(redPixels(planes[3 * 3 + 1]), 300) << "the resampled coronal view shows the run";
    window.model().setPlaneMode(render::PlaneMode::Volume);
}

TEST_F(Live, EachViewsPlanesFromTheDeviceDrawTheWholeVolumeTexturesPixels) {
    REQUIRE_DEVICE("the planes cannot be filled from the device here");
    const auto whole = runThrough(window, SliceTextures::WholeVolume, gpu::Backend::Cuda);
    const auto planes = runThrough(window, SliceTextures::Automatic, gpu::Backend::Cuda);
    EXPECT_TRUE(window.grid().textures().onPlanes()) << "CUDA and NVIDIA GL: planes by default";
    EXPECT_TRUE(window.grid().textures().interopUsed());
    EXPECT_FALSE(window.grid().textures().textures().hasWholeVolume());
    EXPECT_EQ(window.grid().textures().textures().previewTexture(), 0u);
    expectSameFrames(whole, planes, "device");
    EXPECT_GT(redPixels(planes[3]), 300);
}

TEST(LiveClose, ClosingTheWindowMidRunIsClean) {
    for (int round = 0; round < 3; ++round) {
        auto* window = new MainWindow;
        window->show();
        SeriesInfo info;
        window->model().setVolume(phantom({160, 160, 96}), info, "");
        window->segment().live().setBackend(liveBackend());
        SegmentationRequest r;
        r.seeds = {{80, 80, 48}};
        r.regionGrowing = {0, 1040, 6};
        ASSERT_TRUE(window->segment().startWith(Method::RegionGrowing, r, true));
        QTest::qWait(5 * round);
        delete window;  // the worker stops and joins; nothing it uses is gone before
    }
}

TEST_F(Live, ARecordedFrameShowsThe3DPaneAsItIsOnScreen) {
    // Recordings grab the window (captureWindow): in the 2x2 layout the window's own grab pass drew
    // the 3D pane's live surfaces with black holes that the screen never showed (issue 43).
    window.setLayoutMode(Layout::Grid2x2);
    View3DWidget* pane = window.grid().view3D();
    ASSERT_NE(pane, nullptr);
    SegmentationRequest r;
    r.seeds = {{48, 40, 20}};  // in the ball
    r.regionGrowing.lower = 500;
    r.regionGrowing.upper = 2000;
    QString error;
    ASSERT_TRUE(panel().startWith(Method::RegionGrowing, r, false, &error)) << error.toStdString();
    ASSERT_TRUE(live().runFrames(6, {}, &error)) << error.toStdString();  // part of the ball
    pane->refreshLiveNow();
    ASSERT_TRUE(waitFor([&] { return pane->liveCopyShown() == pane->liveCopiesTaken(); }));
    ASSERT_GT(pane->liveTriangles(), 100u);
    QTest::qWait(40);
    const QImage captured = captureWindow(&window).convertToFormat(QImage::Format_RGB32);
    const QImage drawn = pane->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
    const QPoint at = pane->mapTo(&window, QPoint(0, 0)) * captured.devicePixelRatio();
    const QImage shown = captured.copy(QRect(at, drawn.size()));
    if (const char* dir = std::getenv("LUCENT_TEST_SHOTS")) {
        captured.save(QString(dir) + "/recorded-window.png");
        drawn.save(QString(dir) + "/pane-on-screen.png");
    }
    ASSERT_GT(redPixels(drawn), 200) << "the live surface is drawn in the pane";
    int differing = 0;
    for (int y = 0; y < drawn.height(); ++y)
        for (int x = 0; x < drawn.width(); ++x) differing += shown.pixel(x, y) != drawn.pixel(x, y);
    EXPECT_EQ(differing, 0) << "the recorded 3D pane is the pane as it is drawn on screen";
}

TEST_F(Live, ARecordedRunReadsAsRunningAtTheVideosPaceNotAsPaused) {
    // A recording steps a paused run between its frames: the frames said "paused" with a Play
    // button, the window's 0-2 fps and the speed "max", and a snake's 0 voxels until its end.
    SegmentationRequest r;
    r.snake.slice = 20;
    r.snake.rect = {20, 14, 76, 66};
    QString error;
    ASSERT_TRUE(panel().startWith(Method::Snake, r, false, &error)) << error.toStdString();
    QTemporaryDir dir;
    FrameRecorder out(RecordingPlan(dir.filePath("frames"), 24, false));  // PNGs
    std::vector<render::HudState> huds;
    std::vector<std::size_t> voxels;
    RunRecorder recorder(live(), window.model(), [&] {
        huds.push_back(live().hudState());
        voxels.push_back(live().shownVoxels());
        return captureWindow(&window);
    });
    ASSERT_EQ(recorder.record(out, 4), QString());
    ASSERT_GE(huds.size(), 3u);
    for (std::size_t f = 0; f + 1 < huds.size(); ++f) {
        EXPECT_EQ(huds[f].state, "running") << "frame " << f;
        EXPECT_TRUE(huds[f].running) << "frame " << f << ": Pause shown, not Play";
        EXPECT_EQ(huds[f].framesPerSecond, 24) << "the video's frames per second";
        EXPECT_EQ(huds[f].speed, "96 steps/s") << "24 frames a second, 4 steps a frame";
        EXPECT_GT(voxels[f], 1000u) << "frame " << f << ": the polygon's inside so far";
    }
    EXPECT_EQ(huds.back().state, "finished");
    EXPECT_NE(voxels.back(), voxels.front()) << "the contour moved";
    EXPECT_NEAR(double(voxels.back()), double(live().voxels()), 0.02 * double(live().voxels()))
        << "the last frame's inside is the result the run wrote";
    EXPECT_NE(live().hudState().state, "running") << "after the recording the HUD says what the run is";
}
