/// @brief The 3D view under Xvfb (Mesa): a bright ball off-centre in a dark box, on straight, flipped
/// and oblique grids, lands on the side of the rendered pane that its patient position says; presets
/// change the pixels; labels show in their colour (directly, then as surfaces); a live run's preview
/// shows in 3D; rotating changes the image and reset restores it; screenshots are written whole.
#include "EventLoopWait.h"
#include "View3DPixels.h"
#include "lucent/render/Preset3D.h"
#include "lucent/render/Scene3D.h"
#include "lucent/ui/LiveSegmentation.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/LivePreviewWiring.h"
#include "lucent/ui/View3DWidget.h"
#include "lucent/ui/ViewCapture.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/io/VolumeFile.h"
#include "RealData.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

using namespace lucent;
using namespace lucent::ui;
using render::Preset3D;
using lucent::testing::colourPixels;
using lucent::testing::inMarker;
using lucent::testing::middleOf;
using lucent::testing::waitFor;

namespace {

constexpr int kN = 64;
const Vec3 kBall{46, 32, 24};  // index of the ball's centre: off-centre along +i and -k
constexpr double kRadius = 8;

Mat3 rotation(Vec3 axis, double degrees) {
    const Vec3 a = normalized(axis);
    const double c = std::cos(degrees * M_PI / 180), s = std::sin(degrees * M_PI / 180);
    auto col = [&](Vec3 e) {  // Rodrigues
        return e * c + cross(a, e) * s + a * (dot(a, e) * (1 - c));
    };
    return Mat3::fromColumns(col({1, 0, 0}), col({0, 1, 0}), col({0, 0, 1}));
}

/// The ball (1000 HU) in air (-1000 HU) on a 64^3 grid of 1.5 mm voxels with direction `d`.
std::shared_ptr<Volume> ballVolume(const Mat3& d) {
    Geometry g;
    g.dims = {kN, kN, kN};
    g.spacing = {1.5, 1.5, 1.5};
    g.origin = {-40, 20, 100};
    g.direction = d;
    auto v = std::make_shared<Volume>(g, PixelType::Int16);
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i) {
                const Vec3 p{double(i), double(j), double(k)};
                v->setValue(g.index(i, j, k), norm(p - kBall) < kRadius ? 1000 : -1000);
            }
    v->metadata().modality = "CT";
    return v;
}

/// A skull: a bone shell (1000 HU, radii 20 to 27 voxels) around soft tissue (40 HU) in air, centred
/// on the 64^3 grid: the bone preset shows an opaque sphere that hides everything inside it.
std::shared_ptr<Volume> skullVolume() {
    auto v = ballVolume(Mat3{});
    const Geometry& g = v->geometry();
    const Vec3 c{31.5, 31.5, 31.5};
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i) {
                const double d = norm(Vec3{double(i), double(j), double(k)} - c);
                v->setValue(g.index(i, j, k), d < 20 ? 40 : d < 27 ? 1000 : -1000);
            }
    return v;
}

std::shared_ptr<LabelMap> ballLabels(const Geometry& g, std::uint8_t label) {
    auto m = std::make_shared<LabelMap>(g);
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i)
                if (norm(Vec3{double(i), double(j), double(k)} - kBall) < kRadius) m->at(i, j, k) = label;
    return m;
}

double luminance(QRgb c) { return 0.299 * qRed(c) + 0.587 * qGreen(c) + 0.114 * qBlue(c); }

/// Centroid of the bright pixels (the rendered ball) relative to the image centre, in fractions of
/// the width and height (x right, y up); `count` gets how many there are.
QPointF brightCentroid(const QImage& img, int* count = nullptr, double threshold = 120) {
    double sx = 0, sy = 0;
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if (!inMarker(img, x, y) && luminance(img.pixel(x, y)) > threshold) {
                sx += x;
                sy += y;
                ++n;
            }
    if (count) *count = n;
    if (!n) return {};
    return {(sx / n) / img.width() - 0.5, 0.5 - (sy / n) / img.height()};
}

/// Saves `img` as NAME.png in $LUCENT_VIEW3D_SHOTS when set, to look at by eye.
void shot(const QImage& img, const QString& name) {
    if (const char* out = std::getenv("LUCENT_VIEW3D_SHOTS")) img.save(QString(out) + "/" + name + ".png");
}

int differingPixels(const QImage& a, const QImage& b, int threshold = 24) {
    if (a.size() != b.size()) return a.width() * a.height();
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            n += std::abs(luminance(a.pixel(x, y)) - luminance(b.pixel(x, y))) > threshold;
    return n;
}

class View3D : public ::testing::Test {
protected:
    void SetUp() override {
        grid = std::make_unique<ViewGrid>(&model);
        grid->resize(900, 800);
        grid->setLayoutMode(Layout::Grid2x2);
        grid->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(grid.get()));
        ASSERT_NE(view(), nullptr) << "a VTK build has the 3D view in the free pane";
        view()->setPlanesVisible(false);  // the pixels measured are the volume's (planes: their own test)
    }
    void TearDown() override { grid.reset(); }
    View3DWidget* view() { return grid->view3D(); }
    void load(std::shared_ptr<Volume> v) {
        SeriesInfo info;
        model.setVolume(std::move(v), info, "");
    }
    QImage frame() { return view()->grabFramebuffer().convertToFormat(QImage::Format_RGB32); }
    /// The side of the anterior view where `voxel` appears, from its patient position: x is the
    /// patient's left (screen right), z is head (screen up).
    QPointF expectedSide(Vec3 voxel) {
        const Geometry& g = model.volume()->geometry();
        const Vec3 p = g.voxelToPatient(voxel), c = g.voxelToPatient({(kN - 1) / 2.0, (kN - 1) / 2.0, (kN - 1) / 2.0});
        return {p.x - c.x, p.z - c.z};
    }
    void expectBallWhereProjected() {
        int n = 0;
        const QPointF got = brightCentroid(frame(), &n), want = expectedSide(kBall);
        ASSERT_GT(n, 200) << "the ball is rendered";
        // The ball sits 14 voxels (21 mm) off centre along i and 8 (12 mm) along k: its side of the
        // pane is the side its patient offset says, for each screen axis that offset moves.
        if (std::abs(want.x()) > 5) {
            EXPECT_EQ(got.x() > 0.02, want.x() > 0) << "horizontal: got " << got.x() << ", patient x offset " << want.x();
        }
        if (std::abs(want.y()) > 5) {
            EXPECT_EQ(got.y() > 0.02, want.y() > 0) << "vertical: got " << got.y() << ", patient z offset " << want.y();
        }
        EXPECT_TRUE(std::abs(got.x()) > 0.02 || std::abs(got.y()) > 0.02) << "the ball is off-centre";
    }

    ViewerModel model;
    std::unique_ptr<ViewGrid> grid;
};

TEST_F(View3D, BallLandsWhereItsPatientPositionProjects) {
    load(ballVolume(Mat3{}));
    const QPointF want = expectedSide(kBall);
    EXPECT_GT(want.x(), 0);  // +i is the patient's left: the screen's right in the anterior view
    EXPECT_LT(want.y(), 0);  // -k is down (feet)
    expectBallWhereProjected();
}

TEST_F(View3D, AVolumeOverTheBudgetIsDrawnFromItsCoarseCopyInPlace) {
    const auto volume = ballVolume(rotation({1, 1, 0}, 60.0));
    load(volume);
    int n = 0;
    const QPointF fine = brightCentroid(frame(), &n);
    ASSERT_GT(n, 200);
    EXPECT_EQ(view()->shownGeometry().dims, volume->geometry().dims) << "under the budget: the voxels themselves";
    view()->setShownVoxels(volume->voxelCount() / 8);  // a factor of 2
    load(std::make_shared<Volume>(*volume));
    const Geometry shown = view()->shownGeometry();
    EXPECT_EQ(shown.dims[0], (volume->geometry().dims[0] + 1) / 2);
    EXPECT_LE(shown.voxelCount(), volume->voxelCount() / 8);
    const QPointF coarse = brightCentroid(frame(), &n);
    ASSERT_GT(n, 200) << "the coarse ball is rendered";
    // Same place on screen within 2 % of the pane (the blocks' centres are where their voxels were).
    EXPECT_NEAR(coarse.x(), fine.x(), 0.02);
    EXPECT_NEAR(coarse.y(), fine.y(), 0.02);
    expectBallWhereProjected();
}

TEST_F(View3D, FlippedGridMovesTheBallToTheOtherSide) {
    // Same voxels, the i axis pointing to the patient's right: the ball must change sides.
    load(ballVolume(Mat3::fromColumns({-1, 0, 0}, {0, 1, 0}, {0, 0, -1})));
    EXPECT_LT(expectedSide(kBall).x(), 0);
    EXPECT_GT(expectedSide(kBall).y(), 0);
    expectBallWhereProjected();
}

TEST_F(View3D, ObliqueGridsFollowThePatientTransform) {
    for (const auto& [axis, degrees] : {std::pair{Vec3{0, 0, 1}, 150.0}, std::pair{Vec3{1, 1, 0}, 60.0}, std::pair{Vec3{0, 1, 0}, -100.0}}) {
        SCOPED_TRACE(degrees);
        load(ballVolume(rotation(axis, degrees)));
        expectBallWhereProjected();
    }
}

TEST_F(View3D, PresetsChangeThePixels) {
    load(ballVolume(Mat3{}));
    EXPECT_EQ(view()->preset(), Preset3D::CtBone) << "CT volumes start with the bone preset";
    const QImage bone = frame();
    view()->setPreset(Preset3D::CtSoftTissue);
    const QImage soft = frame();
    view()->setPreset(Preset3D::Mr);
    const QImage mr = frame();
    view()->setPreset(Preset3D::None);
    const QImage none = frame();
    EXPECT_GT(differingPixels(bone, soft, 10), 100);
    EXPECT_GT(differingPixels(bone, mr, 10), 100);
    int n = 0;
    brightCentroid(none, &n);
    EXPECT_LT(n, 50) << "no preset: no ball";
}

TEST_F(View3D, LabelsShowInTheirColourThenAsSurfaces) {
    load(ballVolume(Mat3{}));
    view()->setPreset(Preset3D::None);
    const std::array<std::uint8_t, 3> green = LabelTable::defaultColour(2);
    EXPECT_LT(colourPixels(frame(), green, 40), 20) << "no label yet";
    QString error;
    ASSERT_TRUE(model.setLabels(ballLabels(model.volume()->geometry(), 2), "test", error)) << error.toStdString();
    // Drawn at once as a label volume (no mesh to wait for) ...
    const QImage directImage = frame();
    shot(directImage, "ball-label-volume");
    const int direct = colourPixels(directImage, green, 40);
    EXPECT_GT(direct, 300);
    // ... then as a smoothed surface from the worker.
    ASSERT_TRUE(waitFor([&] { return view()->surfacesReady(); }, 30000));
    EXPECT_GT(view()->surfaceTriangles(), 200u);
    const QImage surface = frame();
    shot(surface, "ball-label-surface");
    const int meshed = colourPixels(surface, green, 40);
    EXPECT_GT(meshed, 300);
    EXPECT_NEAR(meshed, direct, 0.5 * direct) << "the surface covers about what the label volume did";
    int n = 0;
    const QPointF c = brightCentroid(surface, &n);
    EXPECT_GT(c.x(), 0.02) << "the surface is where the ball is";
    model.clearLabels();
    EXPECT_LT(colourPixels(frame(), green, 40), 20) << "closing the labels removes them in 3D";
}

// Accepted labels often nest or interleave (fuzzy C-means' classes, a shell around a core): their
// surfaces are solid, so the outer label hides the inner one, as it did in the label volume. Drawn
// in VTK's translucent pass (order-independent blending) they would show through each other. A hidden
// label draws nothing; a label given an opacity below 1 shows what it encloses.
TEST_F(View3D, NestedLabelSurfacesAreSolidAndOnlyATranslucentLabelShowsThrough) {
    load(ballVolume(Mat3{}));
    view()->setPreset(Preset3D::None);
    const std::array<std::uint8_t, 3> red = LabelTable::defaultColour(1), green = LabelTable::defaultColour(2);
    auto nested = std::make_shared<LabelMap>(model.volume()->geometry());
    const Vec3 c{31.5, 31.5, 31.5};
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i) {
                const double d = norm(Vec3{double(i), double(j), double(k)} - c);
                nested->at(i, j, k) = d < 10 ? 2 : (d > 14 && d < 20) ? 1 : 0;
            }
    QString error;
    ASSERT_TRUE(model.setLabels(nested, "test", error)) << error.toStdString();
    ASSERT_TRUE(waitFor([&] { return view()->surfacesReady(); }, 30000));
    EXPECT_FALSE(view()->labelVolumeShown()) << "the surfaces replace the label volume";
    const QImage solid = frame();
    shot(solid, "nested-surfaces");
    EXPECT_GT(colourPixels(solid, red, 40), 3000);
    EXPECT_GT(colourPixels(middleOf(solid), red, 40), 1500) << "the shell in its own colour, not blended with the core";
    EXPECT_LT(colourPixels(solid, green, 40), 20) << "the core inside the shell is hidden";
    // A hidden shell draws nothing, and hides nothing: the core shows, solid.
    LabelTable table = model.labelTable();
    table.ensure(1).visible = false;
    model.setLabelTable(table);
    const QImage core = frame();
    shot(core, "nested-shell-hidden");
    EXPECT_LT(colourPixels(core, red, 40), 20);
    EXPECT_GT(colourPixels(middleOf(core), green, 40), 1500);
    // A translucent shell lets the core through.
    table.ensure(1).visible = true;
    table.ensure(1).opacity = 0.4f;
    model.setLabelTable(table);
    const QImage through = frame();
    shot(through, "nested-shell-translucent");
    EXPECT_LT(colourPixels(middleOf(through), red, 40), 800) << "the core shows through the translucent shell";
    // A translucent core inside the solid shell stays hidden: the translucent labels are drawn over
    // the solid ones' depth.
    table.ensure(1).opacity = 1.0f;
    table.ensure(2).opacity = 0.5f;
    model.setLabelTable(table);
    const QImage hidden = frame();
    EXPECT_GT(colourPixels(middleOf(hidden), red, 40), 1500);
    EXPECT_LT(colourPixels(hidden, green, 40), 20);
}

// A brush writes the layer at every mouse move: the 3D pane shows its edits once they pause, not a
// label volume copied, uploaded and ray-cast per dab (seconds a dab on a software GL).
TEST_F(View3D, ABrushsDabsShowOnceTheEditsPause) {
    load(ballVolume(Mat3{}));
    view()->setPreset(Preset3D::None);
    const std::array<std::uint8_t, 3> green = LabelTable::defaultColour(2);
    const Geometry& g = model.volume()->geometry();
    const auto ball = ballLabels(g, 2);
    LabelMap& layer = model.labelLayer();
    VoxelBox box = VoxelBox::none();
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i)
                if (ball->at(i, j, k)) {
                    layer.at(i, j, k) = 2;
                    box.add(i, j, k);
                }
    model.labelsEdited(&box);  // a dab, as the brush reports it
    EXPECT_LT(colourPixels(frame(), green, 40), 20) << "not rebuilt at the dab";
    EXPECT_FALSE(view()->surfacesReady());
    ASSERT_TRUE(waitFor([&] { return colourPixels(frame(), green, 40) > 300; }, 10000)) << "shown once the edits pause";
    ASSERT_TRUE(waitFor([&] { return view()->surfacesReady(); }, 30000));
    EXPECT_GT(colourPixels(frame(), green, 40), 300);
}

TEST_F(View3D, LivePreviewShowsWhileTheMethodRuns) {
    load(ballVolume(Mat3{}));
    view()->setPreset(Preset3D::None);
    LiveSegmentation live(&model, grid.get());
    showLiveIn3D(&live, view());  // as MainWindow wires them
    live.setBackend(gpu::Backend::Cpu);
    SegmentationRequest r;
    r.seeds = {{int(kBall.x), int(kBall.y), int(kBall.z)}};
    r.regionGrowing.lower = 500;
    r.regionGrowing.upper = 2000;
    QString error;
    ASSERT_TRUE(live.start(Method::RegionGrowing, r, false, &error)) << error.toStdString();
    ASSERT_TRUE(live.runFrames(-1, {}, &error)) << error.toStdString();
    view()->refreshLiveNow();
    ASSERT_TRUE(waitFor([&] { return view()->liveCopyShown() == view()->liveCopiesTaken(); }, 30000));
    EXPECT_GT(view()->liveTriangles(), 200u) << "the live result as a smoothed surface, not voxel blocks";
    const std::array<std::uint8_t, 3> red = LabelTable::defaultColour(1);
    const QImage preview = frame();
    shot(preview, "ball-live-preview");
    EXPECT_GT(colourPixels(preview, red, 40), 300) << "the grown ball, drawn in 3D";
    // Going into label 2 (the Accept as label changed): drawn in label 2's green, as the slice views
    // draw the preview (issue 43 item 4).
    std::array<std::uint8_t, 256> targets{};
    for (int v = 0; v < 256; ++v) targets[std::size_t(v)] = std::uint8_t(v);
    targets[1] = 2;
    live.setPreviewTargets(targets);
    const std::array<std::uint8_t, 3> green = LabelTable::defaultColour(2);
    const QImage retargeted = frame();
    EXPECT_GT(colourPixels(retargeted, green, 40), 300) << "the live surface in its target label's colour";
    EXPECT_LT(colourPixels(retargeted, red, 40), 20);
    live.cancel();
    EXPECT_EQ(view()->liveTriangles(), 0u);
    EXPECT_LT(colourPixels(frame(), red, 40), 20) << "cancel takes the preview away";
}

TEST_F(View3D, ACapturedWindowShowsThe3DPaneAsItDrawsItself) {
    // Recordings, --screenshot and Copy window take captureWindow(): in the 2x2 layout the window's
    // own grab pass drew the live surfaces over the bone with black holes the screen never showed.
    load(skullVolume());
    view()->setPreset(Preset3D::CtBone);
    LiveSegmentation live(&model, grid.get());
    showLiveIn3D(&live, view());
    live.setBackend(gpu::Backend::Cpu);
    SegmentationRequest r;
    r.seeds = {{32, 32, 6}};  // in the bone shell
    r.regionGrowing.lower = 500;
    r.regionGrowing.upper = 2000;
    QString error;
    ASSERT_TRUE(live.start(Method::RegionGrowing, r, false, &error)) << error.toStdString();
    ASSERT_TRUE(live.runFrames(40, {}, &error)) << error.toStdString();  // part of the shell: a live surface
    view()->refreshLiveNow();
    ASSERT_TRUE(waitFor([&] { return view()->liveCopyShown() == view()->liveCopiesTaken(); }, 30000));
    ASSERT_GT(view()->liveTriangles(), 200u);
    for (int i = 0; i < 3; ++i) QApplication::processEvents();
    const QImage window = captureWindow(grid.get()).convertToFormat(QImage::Format_RGB32);
    const QImage drawn = frame();
    const QPoint at = view()->mapTo(grid.get(), QPoint(0, 0)) * window.devicePixelRatio();
    const QImage pane = window.copy(QRect(at, drawn.size()));
    shot(window, "captured-window");
    shot(drawn, "pane-as-drawn");
    EXPECT_GT(colourPixels(drawn, LabelTable::defaultColour(1), 40), 300) << "the live surface is in the pane";
    EXPECT_LT(differingPixels(pane, drawn), drawn.width() * drawn.height() / 1000)
        << "the captured window's 3D pane is the pane as it draws itself";
}

TEST_F(View3D, AnUntickedClusterLeavesTheLivePreview) {
    load(ballVolume(Mat3{}));
    view()->setPreset(Preset3D::None);
    LiveSegmentation live(&model, grid.get());
    showLiveIn3D(&live, view());
    live.setBackend(gpu::Backend::Cpu);
    SegmentationRequest r;
    r.fuzzyCMeans.clusters = 2;  // the background and the ball
    QString error;
    ASSERT_TRUE(live.start(Method::FuzzyCMeans, r, false, &error)) << error.toStdString();
    ASSERT_TRUE(live.runFrames(-1, {}, &error)) << error.toStdString();
    view()->refreshLiveNow();
    ASSERT_TRUE(waitFor([&] { return view()->liveCopyShown() == view()->liveCopiesTaken(); }, 30000));
    const std::size_t both = view()->liveTriangles();
    ASSERT_GT(both, 200u);
    live.showOnlyValues({false, true});  // the panel's tick boxes: cluster 1 off
    ASSERT_TRUE(waitFor([&] { return view()->liveCopyShown() == view()->liveCopiesTaken(); }, 30000));
    EXPECT_LT(view()->liveTriangles(), both) << "the background's surface is gone";
    EXPECT_GT(view()->liveTriangles(), 200u) << "the ball's stays";
    live.showOnlyValues({false, false});
    ASSERT_TRUE(waitFor([&] { return view()->liveCopyShown() == view()->liveCopiesTaken(); }, 30000));
    EXPECT_EQ(view()->liveTriangles(), 0u) << "nothing ticked, nothing drawn";
    live.cancel();
}

TEST_F(View3D, LabelsInsideTheSkullShowUnderTheBonePreset) {
    load(skullVolume());
    EXPECT_EQ(view()->preset(), Preset3D::CtBone);
    const std::array<std::uint8_t, 3> green = LabelTable::defaultColour(2), red = LabelTable::defaultColour(1);
    const QImage bone = frame();
    shot(bone, "skull-bone");
    int shell = 0;
    brightCentroid(bone, &shell);
    ASSERT_GT(shell, 2000) << "the bone shell is rendered";
    EXPECT_LT(colourPixels(bone, green, 40), 20);
    // An accepted label inside the shell: as a label volume at once, then as a surface.
    QString error;
    auto inside = std::make_shared<LabelMap>(model.volume()->geometry());
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i)
                if (norm(Vec3{double(i), double(j), double(k)} - Vec3{31.5, 31.5, 31.5}) < 10) inside->at(i, j, k) = 2;
    ASSERT_TRUE(model.setLabels(inside, "test", error)) << error.toStdString();
    const QImage direct = frame();
    shot(direct, "skull-label-volume");
    EXPECT_GT(colourPixels(direct, green, 40), 300) << "the label volume is not hidden by the bone";
    ASSERT_TRUE(waitFor([&] { return view()->surfacesReady(); }, 30000));
    const QImage surface = frame();
    shot(surface, "skull-label-surface");
    EXPECT_GT(colourPixels(surface, green, 40), 300) << "the label surface is not hidden by the bone";
    // A live run inside the shell: its surfaces show through the bone too.
    model.clearLabels();
    LiveSegmentation live(&model, grid.get());
    showLiveIn3D(&live, view());
    live.setBackend(gpu::Backend::Cpu);
    SegmentationRequest r;
    r.seeds = {{32, 32, 32}};
    r.regionGrowing.lower = 0;
    r.regionGrowing.upper = 100;
    ASSERT_TRUE(live.start(Method::RegionGrowing, r, false, &error)) << error.toStdString();
    ASSERT_TRUE(live.runFrames(-1, {}, &error)) << error.toStdString();
    view()->refreshLiveNow();
    ASSERT_TRUE(waitFor([&] { return view()->liveCopyShown() == view()->liveCopiesTaken(); }, 30000));
    const QImage liveImage = frame();
    shot(liveImage, "skull-live");
    EXPECT_GT(colourPixels(liveImage, red, 40), 300) << "the live result is not hidden by the bone";
}

TEST_F(View3D, SlicePlanesFollowTheCursor) {
    load(ballVolume(Mat3{}));
    view()->setPreset(Preset3D::None);
    const QImage empty = frame();
    view()->setPlanesVisible(true);
    const QImage planes = frame();
    EXPECT_GT(differingPixels(empty, planes), 300) << "three plane outlines and the crosshair";
    // No event is processed between the move and the frame: the rest timer cannot fire, however
    // slow the machine, and the test fires it itself rather than waiting for it.
    model.setCursor({10, 32, 50});
    EXPECT_TRUE(view()->cursorMovePending());
    EXPECT_LT(differingPixels(planes, frame()), 20) << "while the cursor moves (scrolling) the 3D pane waits";
    view()->followCursorNow();  // the cursor rests: the planes follow
    EXPECT_FALSE(view()->cursorMovePending());
    const QImage moved = frame();
    EXPECT_GT(differingPixels(planes, moved), 100);
    // The sagittal plane (normal to i, seen edge on from the front) moved to the patient's right,
    // the screen's left: the blue line's pixels are left of centre now.
    double sum = 0;
    int n = 0;
    for (int y = 0; y < moved.height(); ++y)
        for (int x = 0; x < moved.width(); ++x) {
            const QRgb c = moved.pixel(x, y);
            if (qBlue(c) > 150 && qRed(c) < 140) {
                sum += x;
                ++n;
            }
        }
    ASSERT_GT(n, 20);
    EXPECT_LT(sum / n, 0.45 * moved.width());
}

TEST_F(View3D, PatientPlanesCutAnObliqueVolumeAndMatchAnAlignedOne) {
    // On a grid whose axes are the patient's, both kinds of plane are the same lines.
    load(ballVolume(Mat3{}));
    view()->setPreset(Preset3D::None);
    view()->setPlanesVisible(true);
    const QImage aligned = frame();
    view()->setPatientPlanes(true);
    EXPECT_LT(differingPixels(aligned, frame()), 20) << "aligned grid: the same planes";
    view()->setPatientPlanes(false);
    // Tilted 30 degrees: the patient's planes cut the box elsewhere than its index planes.
    load(ballVolume(rotation(Vec3{1, 0, 0}, 30)));
    view()->setPreset(Preset3D::None);
    const QImage index = frame();
    shot(index, "planes-index");
    view()->setPatientPlanes(true);
    const QImage patient = frame();
    shot(patient, "planes-patient");
    EXPECT_GT(differingPixels(index, patient), 100) << "oblique grid: other planes";
    view()->setPatientPlanes(false);
    EXPECT_LT(differingPixels(index, frame()), 20) << "and back";
}

TEST_F(View3D, RotateChangesTheImageAndResetRestoresIt) {
    load(ballVolume(Mat3{}));
    const QImage start = frame();
    view()->rotate(70, 25);
    const QImage turned = frame();
    EXPECT_GT(differingPixels(start, turned), 200);
    view()->zoom(1.5);
    view()->pan(0.1, 0.05);
    EXPECT_GT(differingPixels(turned, frame()), 200);
    view()->resetCamera();
    EXPECT_LT(differingPixels(start, frame()), 20) << "reset gives the anterior view again";
    // A drag with the left button rotates too.
    QTest::mousePress(view(), Qt::LeftButton, {}, QPoint(100, 100));
    QTest::mouseMove(view(), QPoint(160, 110));
    QTest::mouseRelease(view(), Qt::LeftButton, {}, QPoint(160, 110));
    EXPECT_GT(differingPixels(start, frame()), 200);
}

/// Pixels of the pane's bottom-left corner (the orientation marker's) whose hue is mostly `channel`
/// (0 red: left-right faces, 1 green: anterior-posterior, 2 blue: superior-inferior).
int markerPixelsOf(const QImage& image, int channel) {
    int n = 0;
    const int w = int(image.width() * render::Scene3D::kMarkerShare), h = int(image.height() * render::Scene3D::kMarkerShare);
    for (int y = image.height() - h; y < image.height(); ++y)
        for (int x = 0; x < w; ++x) {
            const QColor c = image.pixelColor(x, y);
            const int v[3] = {c.red(), c.green(), c.blue()};
            if (v[channel] > v[(channel + 1) % 3] + 40 && v[channel] > v[(channel + 2) % 3] + 40) ++n;
        }
    return n;
}

TEST_F(View3D, TheOrientationMarkerFacesTheViewAsThePatientDoes) {
    load(ballVolume(Mat3{}));
    // The anterior view looks at the patient's face: the marker shows its A face (green).
    const QImage front = frame();
    EXPECT_GT(markerPixelsOf(front, 1), 50) << "the A face";
    EXPECT_LT(markerPixelsOf(front, 0), markerPixelsOf(front, 1) / 4);
    // Turned a quarter round the vertical: a side view, the L or R face (red).
    view()->rotate(90, 0);
    const QImage side = frame();
    EXPECT_GT(markerPixelsOf(side, 0), 50) << "the L or R face";
    EXPECT_LT(markerPixelsOf(side, 1), markerPixelsOf(side, 0) / 4);
    // From above: the S face (blue).
    view()->resetCamera();
    view()->rotate(0, 89);
    const QImage top = frame();
    EXPECT_GT(markerPixelsOf(top, 2), 50) << "the S or I face";
}

TEST_F(View3D, ScreenshotIsWrittenWholeOrNotAtAll) {
    load(ballVolume(Mat3{}));
    QTemporaryDir dir;
    const QString path = dir.filePath("shot.png");
    QString error;
    ASSERT_TRUE(view()->saveScreenshot(path, &error)) << error.toStdString();
    const QImage saved(path);
    ASSERT_FALSE(saved.isNull());
    EXPECT_EQ(saved.size(), view()->grabFramebuffer().size());
    EXPECT_EQ(differingPixels(saved.convertToFormat(QImage::Format_RGB32), frame()), 0);
    const QString bad = dir.filePath("missing-folder/shot.png");
    EXPECT_FALSE(view()->saveScreenshot(bad, &error));
    EXPECT_TRUE(error.contains("missing-folder")) << error.toStdString();
    EXPECT_FALSE(QFileInfo::exists(bad));
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files), QStringList{"shot.png"}) << "no temporary left behind";
}

TEST(View3DMenu, ViewMenuDrivesThe3DView) {
    MainWindow window;
    window.resize(1000, 800);
    window.setLayoutMode(Layout::Grid2x2);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    View3DWidget* v = window.grid().view3D();
    ASSERT_NE(v, nullptr);
    SeriesInfo info;
    window.model().setVolume(ballVolume(Mat3{}), info, "");
    auto* soft = window.findChild<QAction*>("preset3d_ct-soft");
    auto* planes = window.findChild<QAction*>("planes3d");
    auto* reset = window.findChild<QAction*>("reset3d");
    ASSERT_TRUE(soft && planes && reset);
    soft->trigger();
    EXPECT_EQ(v->preset(), Preset3D::CtSoftTissue);
    planes->trigger();
    EXPECT_FALSE(v->planesVisible());
    const QImage start = v->grabFramebuffer();
    v->rotate(45, 0);
    reset->trigger();
    EXPECT_LT(differingPixels(start.convertToFormat(QImage::Format_RGB32), v->grabFramebuffer().convertToFormat(QImage::Format_RGB32)), 20);
}

TEST_F(View3D, RealCtHeadShowsTheSkull) {
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    load(std::make_shared<Volume>(io::readVolumeFile(path)));
    EXPECT_EQ(view()->preset(), Preset3D::CtBone) << "a volume file in HU (air at -1000) starts as CT";
    view()->setPlanesVisible(true);
    const QImage bone = frame();
    shot(bone, "cranium-bone");
    int n = 0;
    brightCentroid(bone, &n);
    EXPECT_GT(n, bone.width() * bone.height() / 20) << "the skull fills a good part of the pane";
    view()->setPreset(Preset3D::CtSoftTissue);
    const QImage soft = frame();
    shot(soft, "cranium-soft");
    EXPECT_GT(differingPixels(bone, soft), bone.width() * bone.height() / 20);
}

TEST_F(View3D, RealMrWithItsLabelMap) {
    LUCENT_REAL_DATA_OR_SKIP(t1, "itk/KmeansTest_T1UCharRaw.nii.gz");
    LUCENT_REAL_DATA_OR_SKIP(classesPath, "itk/KmeansTest_T1KmeansPrelimSegmentation.nii.gz");
    load(std::make_shared<Volume>(io::readVolumeFile(t1)));
    EXPECT_EQ(view()->preset(), Preset3D::Mr) << "a volume that is not CT starts with the MR preset";
    const QImage mr = frame();
    shot(mr, "t1-mr");
    int n = 0;
    brightCentroid(mr, &n, 50);  // MR's grey is darker than bone
    EXPECT_GT(n, mr.width() * mr.height() / 20) << "the head fills a good part of the pane";
    // The 6-class label map: white matter (6) alone, as a surface.
    const Volume classes = io::readVolumeFile(classesPath);
    auto labels = std::make_shared<LabelMap>(model.volume()->geometry());
    for (std::size_t i = 0; i < labels->voxelCount(); ++i) (*labels)[i] = classes.value(i) == 6 ? 6 : 0;
    QString error;
    ASSERT_TRUE(model.setLabels(labels, "wm", error)) << error.toStdString();
    view()->setPreset(Preset3D::None);
    ASSERT_TRUE(waitFor([&] { return view()->surfacesReady(); }, 60000));
    EXPECT_GT(view()->surfaceTriangles(), 10000u);
    const QImage wm = frame();
    shot(wm, "t1-white-matter-surface");
    EXPECT_GT(colourPixels(wm, LabelTable::defaultColour(6), 40), wm.width() * wm.height() / 30);
}

}  // namespace
