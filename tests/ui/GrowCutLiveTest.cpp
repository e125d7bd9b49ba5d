/// @brief Grow from seeds in the viewer (issue 46) driven like a user under Xvfb: strokes painted with
/// the brush (QTest mouse events) on the real CT head in bone, brain and air grow the skull, the brain
/// and the air around; a further stroke updates the run from its result (Continued), and the update
/// equals the CPU engine run from scratch on all strokes, voxel for voxel; the preview is drawn hatched
/// in each label's colour on the slice views and in the 3D pane; Accept writes every label as one undo
/// step, Cancel leaves the labels (the strokes) as they were; a session keeps the mode and the seeds.
#include "CtPhantom.h"
#include "EventLoopWait.h"
#include "GrowCutInputs.h"
#include "lucent/core/HostVolumeWork.h"
#include "lucent/core/seg/GrowCutCpu.h"
#include "lucent/io/VolumeFile.h"
#include "lucent/core/seg/RunSpeed.h"
#include "lucent/ui/GrowCutSeeds.h"
#include "lucent/ui/LabelPanel.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/SegmentPanel.h"
#include "lucent/ui/View3DWidget.h"
#include "lucent/ui/ViewGrid.h"
#include "RealData.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

using namespace lucent;
using namespace lucent::ui;
using lucent::testing::waitFor;
using render::Orientation;

namespace {

/// CPU here and in CI; LUCENT_LIVE_BACKEND=cuda runs the same tests on the GPU machine.
gpu::Backend liveBackend() {
    const char* b = std::getenv("LUCENT_LIVE_BACKEND");
    return gpu::parseBackend(b && *b ? b : "cpu");
}

/// The CPU engine run from scratch on `seeds` (what lucent segment --method growcut computes).
LabelMap fromScratch(const Volume& volume, const LabelMap& seeds) {
    const SegmentationRequest r = lucent::testing::growcut::request(volume, seeds);
    GrowCutCpu engine;
    engine.start(r);
    engine.run();
    LabelMap out;
    engine.result(out);
    return out;
}

/// Pixels of `img` where channel `c` (0 red, 1 green, 2 blue) stands out: a label's colour, hatched
/// over the grey image or shaded in 3D.
int tinted(const QImage& img, int c) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb p = img.pixel(x, y);
            const int v[3] = {qRed(p), qGreen(p), qBlue(p)};
            n += v[c] > v[(c + 1) % 3] + 60 && v[c] > v[(c + 2) % 3] + 60;
        }
    return n;
}

class GrowCutLive : public ::testing::Test {
protected:
    void SetUp() override {
        window.resize(1280, 860);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QApplication::setActiveWindow(&window);
        panel().live().setBackend(liveBackend());
    }
    void load(std::shared_ptr<Volume> v, int slice) {
        volume = std::move(v);
        SeriesInfo info;
        info.modality = "CT";
        window.model().setVolume(volume, info, "");
        const auto& d = volume->geometry().dims;
        window.model().setCursor({d[0] / 2.0, d[1] / 2.0, double(slice)});
        ASSERT_TRUE(waitFor([&] { return view(Orientation::Axial)->view().slice() == slice; }));
    }
    SegmentPanel& panel() { return window.segment(); }
    LiveSegmentation& live() { return panel().live(); }
    GrowCutSeeds& seeds() { return panel().growCut(); }
    SliceViewWidget* view(Orientation o) { return window.grid().view(o); }
    QAction* action(const char* name) { return window.findChild<QAction*>(name); }
    QPushButton* button(const char* name) { return window.findChild<QPushButton*>(name); }
    const LabelMap& layer() { return *window.model().labels(); }
    QPoint screenOf(Vec3 voxel) {
        SliceViewWidget* axial = view(Orientation::Axial);
        const auto p = axial->view().voxelToScreen(voxel);
        return QPoint(int(p[0] / axial->devicePixelRatioF()), int(p[1] / axial->devicePixelRatioF()));
    }
    /// A brush stroke of `label` on the axial view through voxels `points` of the shown slice (the mouse
    /// moves in a few steps between them, as a hand does).
    void stroke(std::uint8_t label, const std::vector<std::array<int, 2>>& points) {
        window.model().setActiveLabel(label);
        SliceViewWidget* axial = view(Orientation::Axial);
        const double k = axial->view().slice();
        const auto at = [&](double i, double j) { return screenOf({i, j, k}); };
        QTest::mousePress(axial, Qt::LeftButton, {}, at(points[0][0], points[0][1]));
        for (std::size_t p = 1; p < points.size(); ++p)
            for (int s = 1, n = std::abs(points[p][0] - points[p - 1][0]) + std::abs(points[p][1] - points[p - 1][1]) > 6 ? 4 : 1;
                 s <= n; ++s)
                QTest::mouseMove(axial, at(points[p - 1][0] + (points[p][0] - points[p - 1][0]) * s / double(n),
                                           points[p - 1][1] + (points[p][1] - points[p - 1][1]) * s / double(n)));
        QTest::mouseRelease(axial, Qt::LeftButton, {}, at(points.back()[0], points.back()[1]));
        QTest::qWait(20);  // the stroke's end reaches the run through the event loop
    }
    void stroke(std::uint8_t label, std::array<int, 2> from, std::array<int, 2> to) { stroke(label, {from, to}); }
    void showSlice(int k) {
        window.model().setCursor({128, 128, double(k)});
        ASSERT_TRUE(waitFor([&] { return view(Orientation::Axial)->view().slice() == k; }));
    }
    /// The skull traced on slice k as a user drags along it: where each ray from the centre first meets
    /// bone (600 HU), the densest voxel of its next 8; cut into strokes where the trace jumps (the face).
    std::vector<std::vector<std::array<int, 2>>> skullTrace(int k) {
        std::vector<std::vector<std::array<int, 2>>> strokes(1);
        const auto along = [](int r, double a) {
            return std::array<int, 2>{128 + int(std::lround(r * std::cos(a))), 128 + int(std::lround(r * std::sin(a)))};
        };
        for (int ray = 0; ray < 90; ++ray) {
            const double a = ray * 3.14159265358979 / 45;
            for (int r = 10; r < 124; ++r) {
                if (const auto p = along(r, a); volume->value(p[0], p[1], k) < 600) continue;
                std::array<int, 2> densest = along(r, a);
                for (int r2 = r; r2 < r + 8; ++r2)
                    if (const auto p = along(r2, a); volume->value(p[0], p[1], k) > volume->value(densest[0], densest[1], k))
                        densest = p;
                auto& last = strokes.back();
                if (!last.empty() && std::abs(last.back()[0] - densest[0]) + std::abs(last.back()[1] - densest[1]) > 12)
                    strokes.emplace_back();
                strokes.back().push_back(densest);
                break;
            }
        }
        return strokes;
    }
    bool settle() { return waitFor([&] { return live().active() && !live().running() && !live().published().starting; }); }
    void shot(const QImage& img, const char* name) {
        if (const char* dir = std::getenv("LUCENT_GROWCUT_SHOTS")) img.save(QString("%1/%2.png").arg(dir, name));
    }

    MainWindow window;
    std::shared_ptr<Volume> volume;
};

}  // namespace

TEST_F(GrowCutLive, StrokesInBoneBrainAndAirGrowTheSkullTheBrainAndTheAir) {
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    window.setLayoutMode(Layout::Single);  // the axial view alone: the strokes are many, the 3D pane is the next test's
    load(std::make_shared<Volume>(io::readVolumeFile(path)), 54);
    live().setSpeed(kUnpaced);  // the first run as fast as it goes (on screen it plays at its pace)

    // Segment > Grow from seeds before any stroke: nothing runs, the panel says what to paint.
    action("actionGrowCut")->trigger();
    EXPECT_FALSE(live().active());
    EXPECT_TRUE(window.findChild<QLabel*>("segmentStatus")->text().contains("at least 2 labels"));
    EXPECT_EQ(window.findChild<QLabel*>("growCutFigures")->text(), "Seeds painted for 0 of the 2 labels needed.")
        << "the page says what is missing, not the panel's message a second time";
    QTest::mouseClick(button("growCutPaint"), Qt::LeftButton);  // the page takes up the label panel's brush
    ASSERT_TRUE(action("paintAction")->isChecked());
    window.labelPanel().brush().setDiameterMm(3.0);

    // As a Slicer user paints them, on slices 44, 54 and 64: the skull traced (label 1), a stroke across
    // the brain (2), one in the air at a corner (3). Three short strokes on one slice are not enough:
    // summed intensity change lets the brain's label take the skull far from a short bone stroke
    // (docs/viewer.md; core's CtHeadSkullBrainAndAirFromStrokes paints on 9 slices).
    for (int k : {44, 54, 64}) {
        showSlice(k);
        for (const auto& line : skullTrace(k))
            if (line.size() > 1) stroke(1, line);
        stroke(2, {100, 128}, {156, 128});
        stroke(3, {12, 200}, {40, 228});
    }
    ASSERT_EQ(GrowCutSeeds::seedLabels(layer()).size(), 3u);
    EXPECT_FALSE(live().active()) << "strokes before the start start nothing";
    showSlice(54);
    QTest::mouseClick(button("growCutStart"), Qt::LeftButton);
    ASSERT_TRUE(settle()) << live().lastError().toStdString();
    EXPECT_EQ(live().method(), Method::GrowCut);
    const int run = live().hudState().run;
    EXPECT_TRUE(seeds().lastUpdateMs().has_value());

    // A further brain stroke on another slice: the run goes on from its result, not a new one.
    showSlice(59);
    stroke(2, {128, 100}, {128, 156});
    ASSERT_TRUE(waitFor([&] { return seeds().updates() == 1; }));
    ASSERT_TRUE(settle());
    EXPECT_EQ(live().lastUpdateOutcome(), UpdateOutcome::Continued) << "the stroke only added seeds";
    EXPECT_EQ(live().hudState().run, run) << "an update, not a new run";
    ASSERT_TRUE(waitFor([&] { return !seeds().lastWasStart() && seeds().lastUpdateMs().has_value(); }));
    const QString hud = seeds().figureText(live().figures());
    EXPECT_TRUE(hud.contains("1: ") && hud.contains("2: ") && hud.contains("3: ") && hud.contains("last update"))
        << hud.toStdString();

    for (Orientation o : {Orientation::Axial, Orientation::Coronal})
        shot(view(o)->grabFramebuffer(), o == Orientation::Axial ? "growcut-ct-axial" : "growcut-ct-coronal");

    // Accept: every label at once, one undo step, equal to the engine run from scratch on all strokes.
    const LabelMap strokes = layer();
    const LabelMap expected = fromScratch(*volume, strokes);
    ASSERT_TRUE(button("acceptButton")->isEnabled());
    QTest::mouseClick(button("acceptButton"), Qt::LeftButton);
    EXPECT_FALSE(live().active());
    ASSERT_EQ(layer().voxelCount(), expected.voxelCount());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < expected.voxelCount(); ++i) differ += layer()[i] != expected[i];
    EXPECT_EQ(differ, 0u) << "the updated result differs from the engine's run on all strokes";
    EXPECT_EQ(window.model().history().undoText(), "Accept grow from seeds");

    // The three labels against the CT's values on the painted slices (44..64), as core's test judges.
    std::array<std::size_t, 4> count{}, soft{}, dense{};
    std::size_t bone = 0, boneInSkull = 0, airLabelAir = 0;
    const Geometry& g = volume->geometry();
    for (int k = 44; k <= 64; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                const std::size_t n = g.index(i, j, k);
                const double hu = volume->value(n);
                const int l = layer()[n];
                if (l > 3) continue;
                ++count[std::size_t(l)];
                soft[std::size_t(l)] += hu > -100 && hu < 100;
                dense[std::size_t(l)] += hu >= 300;
                airLabelAir += l == 3 && hu < -500;
                if (hu >= 600) ++bone, boneInSkull += l == 1;
            }
    const auto share = [](std::size_t part, std::size_t whole) { return double(part) / double(std::max<std::size_t>(1, whole)); };
    std::cout << "slices 44-64: skull label " << count[1] << " (holds " << share(boneInSkull, bone)
              << " of the voxels >= 600 HU; " << share(dense[1], count[1]) << " of it >= 300 HU), brain label "
              << count[2] << " (" << share(soft[2], count[2]) << " soft tissue), air label " << count[3] << " ("
              << share(airLabelAir, count[3]) << " < -500 HU)\n";
    EXPECT_GT(share(boneInSkull, bone), 0.85) << "the skull's label holds the skull";
    EXPECT_GT(share(dense[1], count[1]), 10 * share(dense[2], count[2])) << "bone goes to the skull, not the brain";
    EXPECT_GT(share(soft[2], count[2]), 0.95) << "the brain label is soft tissue";
    EXPECT_GT(count[2] * g.voxelVolumeMl(), 300.0) << "the brain, not a blob around its strokes";
    EXPECT_GT(share(airLabelAir, count[3]), 0.95) << "the air label is air";
    EXPECT_EQ(count[0], 0u) << "every voxel is reached";

    // Undo brings back the strokes alone; redo the result.
    ASSERT_TRUE(window.model().undo());
    EXPECT_TRUE(std::equal(layer().data(), layer().data() + layer().voxelCount(), strokes.data()));
    ASSERT_TRUE(window.model().redo());
    EXPECT_TRUE(std::equal(layer().data(), layer().data() + layer().voxelCount(), expected.data()));
}

TEST_F(GrowCutLive, ThePreviewIsHatchedInEachLabelsColourInEveryViewAndCancelKeepsTheStrokes) {
    window.setLayoutMode(Layout::Grid2x2);
    load(lucent::testing::ctBallPhantom(), 20);  // ball (1000 HU) in soft tissue in air
    live().setSpeed(kUnpaced);
    action("paintAction")->trigger();
    window.labelPanel().brush().setDiameterMm(2.0);
    stroke(1, {46, 38}, {50, 42});  // the ball around (48, 40)
    stroke(2, {20, 20}, {24, 30});  // the box
    const LabelMap strokes = layer();
    const std::string undo = window.model().history().undoText();
    QTest::qWait(60);
    const QImage before = view(Orientation::Axial)->grabFramebuffer();
    shot(before, "growcut-before");
    const int strokePixels = tinted(before, 1);
    action("actionGrowCut")->trigger();  // two labels: the menu starts the run
    ASSERT_TRUE(settle());
    ASSERT_GT(live().voxels(), strokes.voxelCount() / 2);
    QTest::qWait(60);
    for (Orientation o : {Orientation::Axial, Orientation::Coronal}) {
        const QImage img = view(o)->grabFramebuffer();
        shot(img, o == Orientation::Axial ? "growcut-axial" : "growcut-coronal");
        EXPECT_GT(tinted(img, 0), 200) << "the ball in label 1's red, view " << int(o);
        EXPECT_GT(tinted(img, 1), 10 * strokePixels) << "the box in label 2's green, view " << int(o);
    }
    View3DWidget* pane = window.grid().view3D();
    if (pane) {
        pane->refreshLiveNow();
        ASSERT_TRUE(waitFor([&] { return pane->liveCopyShown() == pane->liveCopiesTaken(); }, 30000));
        const QImage img = pane->grabFramebuffer();
        shot(img, "growcut-3d");
        EXPECT_GT(tinted(img, 0) + tinted(img, 1), 300) << "the grown labels in 3D";
    }
    // Cancel: the preview goes, the strokes stay as they were, and no step was recorded.
    QTest::mouseClick(button("cancelButton"), Qt::LeftButton);
    EXPECT_FALSE(live().active());
    EXPECT_TRUE(std::equal(layer().data(), layer().data() + layer().voxelCount(), strokes.data()));
    EXPECT_EQ(window.model().history().undoText(), undo);
    QTest::qWait(60);
    const QImage after = view(Orientation::Axial)->grabFramebuffer();
    shot(after, "growcut-cancelled");
    // (the views were rescaled when the Segment panel came up: the stroke's pixels are counted again)
    EXPECT_LT(tinted(after, 1), 2 * strokePixels) << "the stroke alone is green, the preview gone";
}

// A stroke's frames refresh the Segment panel, every page of it: none may read the whole layer (the
// fuzzy C-means page looked for free labels after every edit: a whole-layer pass on the GUI thread in
// each stroke's first frame, BENCHMARKS.md).
TEST_F(GrowCutLive, ThePanelsRefreshAfterAStrokeReadsNoWholeLayer) {
    load(lucent::testing::ctBallPhantom(), 20);
    live().setSpeed(kUnpaced);
    action("paintAction")->trigger();
    window.labelPanel().brush().setDiameterMm(2.0);
    stroke(1, {46, 38}, {50, 42});
    stroke(2, {20, 20}, {24, 30});
    action("actionGrowCut")->trigger();
    ASSERT_TRUE(settle());
    LabelMap& layer = window.model().labelLayer();
    const VoxelBox dab{{10, 40, 20}, {12, 42, 20}};
    for (int j = dab.lo[1]; j <= dab.hi[1]; ++j)
        for (int i = dab.lo[0]; i <= dab.hi[0]; ++i) layer.at(i, j, 20) = 2;
    window.model().labelsEdited(&dab);
    hostwork::reset();
    emit panel().model().parametersChanged();  // what a frame of the run makes the panel do
    EXPECT_LT(hostwork::largest(), volume->voxelCount()) << "a refresh read the whole layer";
    ASSERT_TRUE(seeds().takeStrokes());
    ASSERT_TRUE(settle());
    EXPECT_EQ(live().lastUpdateOutcome(), UpdateOutcome::Continued);
}

TEST_F(GrowCutLive, ASessionKeepsTheModeAndTheStrokes) {
    // A session names its volume's file: the phantom is written as one and opened as a user would.
    QTemporaryDir dir;
    const QString nii = dir.filePath("ball.nii");
    io::writeVolumeFile(*lucent::testing::ctBallPhantom(), nii.toStdString());
    QString error;
    ASSERT_TRUE(window.openPath(nii, {}, true, &error)) << error.toStdString();
    volume = std::const_pointer_cast<Volume>(window.model().volume());
    window.model().setCursor({48, 40, 20});
    ASSERT_TRUE(waitFor([&] { return view(Orientation::Axial)->view().slice() == 20; }));
    live().setSpeed(kUnpaced);
    action("paintAction")->trigger();
    stroke(1, {46, 38}, {50, 42});
    stroke(2, {20, 20}, {24, 30});
    action("actionGrowCut")->trigger();
    ASSERT_TRUE(settle());
    const LabelMap strokes = layer();
    const QString file = dir.filePath("growcut.lucent");
    ASSERT_TRUE(window.saveSession(file, &error)) << error.toStdString();
    live().cancel();
    action("modeRegionGrowing")->trigger();  // another method, and the layer gone
    window.model().clearLabels();
    ASSERT_TRUE(window.openSession(file, true, &error)) << error.toStdString();
    EXPECT_EQ(panel().model().mode(), Method::GrowCut) << "the mode comes back";
    ASSERT_TRUE(window.model().labels());
    EXPECT_TRUE(std::equal(layer().data(), layer().data() + layer().voxelCount(), strokes.data())) << "the strokes come back";
    action("actionGrowCut")->trigger();  // and grow again from them
    ASSERT_TRUE(settle());
    EXPECT_EQ(live().method(), Method::GrowCut);
}
