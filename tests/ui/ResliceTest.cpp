/// @brief View > Anatomical planes under Xvfb, checked on rendered pixels: an oblique DICOM series
/// resliced to the patient's axial plane matches a resampling computed here from the series'
/// own description; a grid on the patient's axes renders alike in both modes; the real oblique MR
/// opens in both with the letters following; the brush, the snake and ROIs on a resliced plane.
#include "EventLoopWait.h"
#include "SyntheticDicom.h"
#include "TempDir.h"

#include "lucent/ui/CinePlayer.h"
#include "lucent/ui/LabelPanel.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/MeasurementPanel.h"
#include "lucent/ui/OpenGlSetup.h"
#include "RealData.h"

#include <gtest/gtest.h>
#include <QAction>
#include <QApplication>
#include <QSettings>
#include <QStatusBar>
#include <QTest>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>

using namespace lucent;
using namespace lucent::ui;
using lucent::testing::TempDir;
using render::Orientation;

namespace {

constexpr double kTilt = 20.0;  // degrees about the patient's x axis

/// 48 x 40 x 24 voxels of 0.9 x 1.1 x 2 mm tilted 20 degrees about x. Stored value
/// 37 i + 101 j + 1009 k - 16384 (SyntheticDicom's pattern; no wrap at this size): a ramp that
/// differs along every axis, so a wrong plane, axis or flip changes the grey.
lucent::testing::SeriesSpec obliqueSpec() {
    lucent::testing::SeriesSpec spec;
    spec.columns = 48;
    spec.rows = 40;
    spec.slices = 24;
    spec.columnSpacing = 0.9;
    spec.rowSpacing = 1.1;
    spec.sliceSpacing = 2.0;
    const double a = kTilt * M_PI / 180;
    spec.rowCosine = {1, 0, 0};
    spec.columnCosine = {0, std::cos(a), std::sin(a)};
    spec.origin = {-20, -25, 30};
    spec.modality = "MR";
    return spec;
}

/// The expected image: every pixel resampled from the voxels on the plane the documented rules
/// give, with the geometry taken from the DICOM description (not from the viewer's geometry).
struct Resampling {
    // Grid: patient = origin + sum_a axis[a] * spacing[a] * index[a].
    Vec3 origin;
    std::array<Vec3, 3> axis;
    std::array<double, 3> spacing{};
    std::array<int, 3> dims{};
    std::function<double(int, int, int)> value;
    bool linear = true;

    Vec3 patient(Vec3 v) const {
        return origin + axis[0] * (spacing[0] * v.x) + axis[1] * (spacing[1] * v.y) + axis[2] * (spacing[2] * v.z);
    }
    Vec3 voxel(Vec3 p) const {  // the axes are orthonormal
        const Vec3 d = p - origin;
        return {dot(d, axis[0]) / spacing[0], dot(d, axis[1]) / spacing[1], dot(d, axis[2]) / spacing[2]};
    }
    double at(int i, int j, int k) const {  // clamp to the edge, as the texture does
        return value(std::clamp(i, 0, dims[0] - 1), std::clamp(j, 0, dims[1] - 1), std::clamp(k, 0, dims[2] - 1));
    }
    double sample(Vec3 v) const {
        if (!linear) return at(int(std::floor(v.x + 0.5)), int(std::floor(v.y + 0.5)), int(std::floor(v.z + 0.5)));
        const int i = int(std::floor(v.x)), j = int(std::floor(v.y)), k = int(std::floor(v.z));
        const double fx = v.x - i, fy = v.y - j, fz = v.z - k;
        double sum = 0;
        for (int c = 0; c < 8; ++c) {
            const int di = c & 1, dj = (c >> 1) & 1, dk = (c >> 2) & 1;
            sum += (di ? fx : 1 - fx) * (dj ? fy : 1 - fy) * (dk ? fz : 1 - fz) * at(i + di, j + dj, k + dk);
        }
        return sum;
    }
};

/// Screen -> patient of the patient-axial plane by the rules of SliceViewGeometry's Patient mode
/// (written out again here): right = +x (L), down = +y (P); zoom 1 fits the voxel boxes' extent;
/// the volume centre at the viewport centre; planes 1 step apart along +z from the lowest voxel
/// centre, step = the slice spacing projected on z; the plane shown is the cursor's, rounded.
struct AxialPlane {
    double scale = 1, z = 0;
    Vec3 centre;
    int width = 1, height = 1;

    AxialPlane(const Resampling& r, Vec3 cursorVoxel, int w, int h) : width(w), height(h) {
        double ex = 0, ey = 0;
        for (int a = 0; a < 3; ++a) {
            ex += r.dims[a] * r.spacing[a] * std::abs(r.axis[a].x);
            ey += r.dims[a] * r.spacing[a] * std::abs(r.axis[a].y);
        }
        scale = std::min(w / ex, h / ey);
        centre = r.patient({(r.dims[0] - 1) / 2.0, (r.dims[1] - 1) / 2.0, (r.dims[2] - 1) / 2.0});
        double lowest = 1e300;
        for (int c = 0; c < 8; ++c)
            lowest = std::min(lowest, r.patient({c & 1 ? r.dims[0] - 1.0 : 0.0, c & 2 ? r.dims[1] - 1.0 : 0.0,
                                                 c & 4 ? r.dims[2] - 1.0 : 0.0})
                                          .z);
        const double step = r.spacing[2] * std::abs(r.axis[2].z);
        z = lowest + std::round((r.patient(cursorVoxel).z - lowest) / step) * step;
    }
    Vec3 patientAt(double x, double y) const {
        return {centre.x + (x - width / 2.0) / scale, centre.y + (y - height / 2.0) / scale, z};
    }
    std::array<double, 2> screenOf(Vec3 p) const {
        return {width / 2.0 + (p.x - centre.x) * scale, height / 2.0 + (p.y - centre.y) * scale};
    }
};

struct Comparison {
    int compared = 0, off = 0;  // pixels compared, and those further than the tolerance
    double worst = 0;
};

std::ostream& operator<<(std::ostream& out, const Comparison& c) {
    return out << c.compared << " pixels compared, " << c.off << " off by more than the tolerance, worst " << c.worst
               << " grey levels";
}

/// Compares `image` with the resampling on `plane`: inside the volume by more than a voxel (the
/// border blends with black), away from the annotations at the edges and the crosshair lines.
Comparison compare(const QImage& image, const Resampling& r, const AxialPlane& plane, Vec3 cursorVoxel,
                   render::WindowLevel window, int tolerance, QImage* difference = nullptr) {
    Comparison c;
    const auto cross = plane.screenOf(r.patient(cursorVoxel));
    if (difference) *difference = QImage(image.size(), QImage::Format_RGB32), difference->fill(Qt::black);
    for (int y = 45; y < image.height() - 45; ++y)
        for (int x = 45; x < image.width() - 45; ++x) {
            if (std::abs(x - std::floor(cross[0])) <= 2 || std::abs(y - std::floor(cross[1])) <= 2) continue;
            const Vec3 v = r.voxel(plane.patientAt(x + 0.5, y + 0.5));
            bool inside = true;
            for (int a = 0; a < 3; ++a) inside = inside && v[a] >= 0.5 && v[a] <= r.dims[a] - 1.5;
            if (!inside) continue;
            const double value = r.sample(v);
            const double g = std::clamp((value - (window.level - window.width / 2)) / window.width, 0.0, 1.0) * 255;
            const double error = std::abs(qGray(image.pixel(x, y)) - g);
            ++c.compared;
            c.worst = std::max(c.worst, error);
            if (error > tolerance) ++c.off;
            if (difference) difference->setPixel(x, y, qRgb(std::min(255, int(error * 8)), 0, 0));
        }
    return c;
}

void saveForInspection(const QImage& image, const char* name) {
    if (const char* dir = std::getenv("LUCENT_TEST_SHOTS")) image.save(QString(dir) + "/" + name);
}

std::string realSeries() { return lucent::testing::realData(lucent::testing::kRealMrSeries); }

class Reslice : public ::testing::Test {
protected:
    void SetUp() override {
        QSettings().clear();
        window = std::make_unique<MainWindow>();
        window->resize(1000, 760);
        window->setLayoutMode(Layout::Grid2x2);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        // Xvfb has no window manager to activate the window; shortcuts need an active window.
        window->activateWindow();
        QApplication::setActiveWindow(window.get());
    }
    SliceViewWidget* view(Orientation o) { return window->grid().view(o); }
    QAction* action(const char* name) { return window->findChild<QAction*>(name); }
    QImage frame(Orientation o) {
        QTest::qWait(30);
        return view(o)->grabFramebuffer();
    }
    /// The loaded oblique series described by `spec`, as the resampling's input.
    Resampling resamplingOf(const lucent::testing::SeriesSpec& spec) {
        Resampling r;
        r.origin = spec.origin;
        r.axis = {spec.rowCosine, spec.columnCosine, spec.normal()};
        r.spacing = {spec.columnSpacing, spec.rowSpacing, spec.sliceSpacing};
        r.dims = {spec.columns, spec.rows, spec.slices};
        std::shared_ptr<const Volume> volume = window->model().volume();
        r.value = [volume](int i, int j, int k) { return volume->value(i, j, k); };
        return r;
    }

    std::unique_ptr<MainWindow> window;
};

}  // namespace

TEST_F(Reslice, ObliqueSeriesShowsThePatientAxialPlane) {
    TempDir dir;
    const lucent::testing::SeriesSpec spec = obliqueSpec();
    lucent::testing::writeSeries(spec, dir.path());
    QString error;
    ASSERT_TRUE(window->openPath(QString::fromStdString(dir.path()), {}, true, &error)) << error.toStdString();
    const Geometry& g = window->model().volume()->geometry();
    ASSERT_EQ(g.dims, (std::array<int, 3>{48, 40, 24}));
    // The description the resampling uses is the one the loader read (else the test proves nothing).
    const Resampling r = resamplingOf(spec);
    for (int a = 0; a < 3; ++a) {
        ASSERT_NEAR(g.spacing[a], r.spacing[a], 1e-6) << "axis " << a;
        ASSERT_NEAR(norm(g.direction.col[a] - r.axis[a]), 0.0, 1e-6) << "axis " << a;
    }
    ASSERT_NEAR(norm(g.origin - r.origin), 0.0, 1e-6);
    EXPECT_EQ(window->model().volume()->value(10, 7, 5), 37 * 10 + 101 * 7 + 1009 * 5 - 16384);

    const Vec3 cursor{20.3, 17.8, 9.6};
    window->model().setCursor(cursor);
    const double centreValue = r.sample(cursor);
    const render::WindowLevel wl{centreValue, 8000};
    window->model().setWindow(wl);
    QAction* linear = action("linearInterpolation");
    QAction* planes = action("anatomicalPlanes");
    ASSERT_NE(linear, nullptr);
    ASSERT_NE(planes, nullptr);
    EXPECT_FALSE(planes->isChecked()) << "the volume's own planes are the default";
    linear->setChecked(true);  // trilinear (the default), so the resampling is exact up to rounding

    SliceViewWidget* axial = view(Orientation::Axial);
    const QImage own = frame(Orientation::Axial);
    const AxialPlane plane(r, cursor, own.width(), own.height());
    const Comparison before = compare(own, r, plane, cursor, wl, 3);
    EXPECT_EQ(axial->view().edgeLetter(3), "PS") << "the acquisition plane's column axis leans superior";

    // The toggle (its shortcut, N) reslices every view.
    axial->setFocus();
    QTest::keyClick(axial, Qt::Key_N);
    ASSERT_TRUE(planes->isChecked()) << "N toggles the anatomical planes";
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal})
        EXPECT_EQ(view(o)->planeMode(), render::PlaneMode::Patient) << render::orientationName(o);
    const QImage resliced = frame(Orientation::Axial);
    QImage difference;
    const Comparison after = compare(resliced, r, plane, cursor, wl, 3, &difference);
    saveForInspection(own, "reslice-own-plane.png");
    saveForInspection(resliced, "reslice-patient-axial.png");
    saveForInspection(difference, "reslice-difference.png");
    saveForInspection(window->grab().toImage(), "reslice-window.png");
    std::cout << "own plane: " << before << "\nresliced (linear): " << after << "\n";
    EXPECT_GT(after.compared, 40000) << "most of the view is compared";
    EXPECT_LE(after.off, after.compared / 1000) << "worst " << after.worst << " grey levels";
    EXPECT_LE(after.worst, 2.0);
    // The volume's own plane is not that plane: the comparison can fail.
    EXPECT_GT(before.off, before.compared / 4) << "the acquisition plane differs from the patient axial plane";
    // The view's own numbers agree with the rules written out here.
    EXPECT_NEAR(axial->view().pixelsPerMm(), plane.scale, 1e-9);
    const Vec3 p = axial->view().screenToPatient(123.5, 201.5);
    EXPECT_NEAR(norm(p - plane.patientAt(123.5, 201.5)), 0.0, 1e-6);
    for (int edge = 0; edge < 4; ++edge) EXPECT_EQ(axial->view().edgeLetter(edge), std::string(1, "LRAP"[edge]));
    EXPECT_EQ(view(Orientation::Coronal)->view().edgeLetter(2), "S");
    EXPECT_EQ(view(Orientation::Sagittal)->view().edgeLetter(0), "P");

    // Nearest-voxel drawing matches nearest-voxel resampling (ties at voxel edges aside).
    linear->trigger();
    Resampling nearest = r;
    nearest.linear = false;
    const Comparison blocky = compare(frame(Orientation::Axial), nearest, plane, cursor, wl, 3);
    std::cout << "resliced (nearest): " << blocky << "\n";
    EXPECT_LE(blocky.off, blocky.compared / 100) << "worst " << blocky.worst;

    // Scrolling steps one plane along the patient's z: the image is the next plane's resampling.
    const int slice = axial->view().slice();
    QTest::keyClick(axial, Qt::Key_Up);
    const QImage next = frame(Orientation::Axial);
    EXPECT_EQ(axial->view().slice(), slice + 1);
    const Vec3 moved = window->model().cursor();
    EXPECT_NEAR(r.patient(moved).x, r.patient(cursor).x, 1e-6) << "the cursor moves along z only";
    EXPECT_NEAR(r.patient(moved).y, r.patient(cursor).y, 1e-6);
    const AxialPlane nextPlane(r, moved, next.width(), next.height());
    EXPECT_NEAR(nextPlane.z - plane.z, spec.sliceSpacing * std::cos(kTilt * M_PI / 180), 1e-9);
    const Comparison stepped = compare(next, nearest, nextPlane, moved, wl, 3);
    EXPECT_LE(stepped.off, stepped.compared / 100) << "worst " << stepped.worst;

    // Cine plays the resliced slices: one patient plane after the next, wrapping at the last. On a
    // fake clock at 8 slices a second (125 ms each), ticks at 62.5 + 125 n ms: n slices by tick n,
    // half a slice away from rounding, so exactly one slice a tick.
    window->setLayoutMode(Layout::Single);
    window->grid().setActiveView(axial);
    std::chrono::steady_clock::time_point now{};
    window->cine().setClock([&now] { return now; });
    std::vector<int> played;
    auto counter = QObject::connect(&window->model(), &ViewerModel::cursorChanged, window.get(), [&] {
        render::SliceViewGeometry g = axial->view();
        g.setCursor(window->model().cursor());
        played.push_back(g.slice());
    });
    const int count = axial->view().sliceCount();
    window->cine().setRate(8);
    action("cinePlay")->trigger();
    EXPECT_EQ(window->cine().axis(), 2);
    for (int n = 1; n <= count + 1; ++n) {
        now = std::chrono::steady_clock::time_point(std::chrono::microseconds(62500 + 125000 * n));
        window->cine().tick();
    }
    action("cinePlay")->trigger();
    window->cine().setClock({});
    QObject::disconnect(counter);
    ASSERT_EQ(int(played.size()), count + 1);
    int wraps = 0;
    for (std::size_t i = 1; i < played.size(); ++i) {
        EXPECT_EQ((played[i] - played[i - 1] + count) % count, 1) << "from " << played[i - 1] << " to " << played[i];
        wraps += played[i] < played[i - 1];
    }
    EXPECT_EQ(wraps, 1) << "plays through every slice and wraps once";
    window->setLayoutMode(Layout::Grid2x2);

    // Persisted like the other view options; off again gives the volume's planes back.
    EXPECT_TRUE(QSettings().value("view/anatomicalPlanes").toBool());
    planes->trigger();
    EXPECT_EQ(axial->planeMode(), render::PlaneMode::Volume);
    EXPECT_FALSE(QSettings().value("view/anatomicalPlanes").toBool());
}

TEST_F(Reslice, PatientAxesGridRendersAlikeInBothModes) {
    // A sagittal acquisition stored with flipped axes: i -> posterior, j -> inferior, k -> right.
    Geometry g;
    g.dims = {50, 36, 30};
    g.spacing = {0.8, 1.2, 1.5};
    g.origin = {12, -30, 40};
    g.direction = Mat3::fromColumns({0, 1, 0}, {0, 0, -1}, {-1, 0, 0});
    auto volume = std::make_shared<Volume>(g, PixelType::Int16);
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i)  // an off-centre block on a ramp: flips would show
                volume->setValue(g.index(i, j, k), 10 * i + 3 * j + 7 * k + (i > 30 && j < 12 && k > 20 ? 600 : 0));
    SeriesInfo info;
    info.modality = "MR";
    window->model().setVolume(volume, info, "");
    window->model().setCursor({21.4, 13.2, 9.7});
    window->model().setWindow({400, 900});
    std::array<QImage, 3> own;
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) own[int(o)] = frame(o);
    action("anatomicalPlanes")->trigger();
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) {
        ASSERT_EQ(view(o)->planeMode(), render::PlaneMode::Patient);
        EXPECT_TRUE(view(o)->view().showsVolumePlane());
        const QImage resliced = frame(o);
        ASSERT_EQ(resliced.size(), own[int(o)].size());
        int differing = 0;
        for (int y = 0; y < resliced.height(); ++y)
            for (int x = 0; x < resliced.width(); ++x) differing += resliced.pixel(x, y) != own[int(o)].pixel(x, y);
        EXPECT_EQ(differing, 0) << render::orientationName(o) << ": annotations included";
    }
    // Scrolling too: the same slices in the same order.
    SliceViewWidget* coronal = view(Orientation::Coronal);
    coronal->setFocus();
    const int before = coronal->view().slice();
    QTest::keyClick(coronal, Qt::Key_PageUp);
    frame(Orientation::Coronal);
    EXPECT_EQ(coronal->view().slice(), before + 10);
    action("anatomicalPlanes")->trigger();
    frame(Orientation::Coronal);
    EXPECT_EQ(coronal->view().slice(), before + 10);
}

TEST_F(Reslice, RealObliqueMrOpensInBothModesWithLettersFollowing) {
    const std::string series = realSeries();
    if (series.empty()) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh (CI does)";
    QString error;
    ASSERT_TRUE(window->openPath(QString::fromStdString(series), {}, true, &error)) << error.toStdString();
    const Geometry& g = window->model().volume()->geometry();
    std::shared_ptr<const Volume> volume = window->model().volume();
    action("linearInterpolation")->setChecked(true);
    std::array<QImage, 3> own;
    std::array<std::array<std::string, 4>, 3> ownLetters;
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) {
        own[int(o)] = frame(o);
        for (int e = 0; e < 4; ++e) ownLetters[int(o)][e] = view(o)->view().edgeLetter(e);
    }
    action("anatomicalPlanes")->trigger();
    const char* pure[3] = {"LRAP", "LRSI", "PASI"};
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) {
        const QImage img = frame(o);
        const render::SliceViewGeometry& v = view(o)->view();
        EXPECT_FALSE(v.showsVolumePlane()) << "the real MR is oblique";
        for (int e = 0; e < 4; ++e)
            EXPECT_EQ(v.edgeLetter(e), std::string(1, pure[int(o)][e])) << render::orientationName(o);
        // Something is drawn, and not the acquisition plane's pixels.
        int bright = 0, changed = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                bright += qGray(img.pixel(x, y)) > 60;
                changed += std::abs(qGray(img.pixel(x, y)) - qGray(own[int(o)].pixel(x, y))) > 10;
            }
        EXPECT_GT(bright, img.width() * img.height() / 20) << render::orientationName(o);
        EXPECT_GT(changed, img.width() * img.height() / 50) << render::orientationName(o);
        const std::string name = std::string("reslice-real-") + render::orientationName(o) + ".png";
        saveForInspection(own[int(o)],
                          (std::string("reslice-real-own-") + render::orientationName(o) + ".png").c_str());
        saveForInspection(img, name.c_str());
    }
    // The axial view is the resampling of the real voxels on the patient's axial plane.
    Resampling r;
    r.origin = g.origin;
    r.axis = {g.direction.col[0], g.direction.col[1], g.direction.col[2]};
    r.spacing = {g.spacing.x, g.spacing.y, g.spacing.z};
    r.dims = g.dims;
    r.value = [volume](int i, int j, int k) { return volume->value(i, j, k); };
    const QImage axial = frame(Orientation::Axial);
    const Vec3 cursor = window->model().cursor();
    const AxialPlane plane(r, cursor, axial.width(), axial.height());
    const Comparison c = compare(axial, r, plane, cursor, window->model().window(), 3);
    std::cout << "real MR resliced axial (linear): " << c << "\n";
    EXPECT_GT(c.compared, 10000);
    EXPECT_LE(c.off, c.compared / 200) << "worst " << c.worst;
    saveForInspection(window->grab().toImage(), "reslice-real-window.png");
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal})
        EXPECT_GT(view(o)->view().sliceCount(), 1);
}

TEST_F(Reslice, BrushPaintsWhatTheReslicedPlaneShowsAndVoxelToolsRefuse) {
    TempDir dir;
    const lucent::testing::SeriesSpec spec = obliqueSpec();
    lucent::testing::writeSeries(spec, dir.path());
    ASSERT_TRUE(window->openPath(QString::fromStdString(dir.path()), {}, true));
    window->model().setWindow({0, 60000});
    action("anatomicalPlanes")->trigger();
    SliceViewWidget* axial = view(Orientation::Axial);
    const Geometry& g = window->model().volume()->geometry();

    // Paint one dab (disc, 6 mm) with the mouse in the middle of the axial view.
    axial->setFocus();
    QTest::keyClick(axial, Qt::Key_B);
    ASSERT_TRUE(action("paintAction")->isChecked());
    window->labelPanel().brush().setDiameterMm(6.0);
    frame(Orientation::Axial);  // the label panel took room: the view as it is now
    const render::SliceViewGeometry shown = axial->view();
    const QPoint at(axial->width() / 2 + 7, axial->height() / 2 - 5);
    const double dpr = axial->devicePixelRatioF();
    QTest::mousePress(axial, Qt::LeftButton, {}, at);
    QTest::mouseRelease(axial, Qt::LeftButton, {}, at);
    ASSERT_TRUE(window->model().labels());
    const LabelMap& layer = *window->model().labels();
    const Vec3 centre = shown.screenToPatient(at.x() * dpr, at.y() * dpr);
    // The painted voxels lie on the shown plane (their box cut by it) within the radius around the click.
    double half = 0;
    for (int a = 0; a < 3; ++a) half += 0.5 * g.spacing[a] * std::abs(g.direction.col[a].z);
    std::size_t painted = 0;
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                if (!layer.at(i, j, k)) continue;
                ++painted;
                const Vec3 d = g.voxelToPatient({double(i), double(j), double(k)}) - centre;
                EXPECT_LE(std::abs(d.z), half + 1e-6) << i << " " << j << " " << k;
                EXPECT_LE(std::hypot(d.x, d.y), 3.0 + 1e-6) << i << " " << j << " " << k;
            }
    EXPECT_GT(painted, 10u);
    // On screen: every pixel well inside the disc shows the label's colour (red-ish over grey).
    const QImage img = frame(Orientation::Axial);
    saveForInspection(img, "reslice-brush.png");
    const double k = shown.pixelsPerMm();
    const double inner = (3.0 - 1.3) * k;                              // the rim is decided by voxel centres
    const auto cross = shown.voxelToScreen(window->model().cursor());  // the crosshair's lines
    int inside = 0, coloured = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            if (std::hypot(x + 0.5 - at.x() * dpr, y + 0.5 - at.y() * dpr) > inner) continue;
            if (std::abs(x - std::floor(cross[0])) <= 1 || std::abs(y - std::floor(cross[1])) <= 1) continue;
            const QRgb c = img.pixel(x, y);
            ++inside;
            coloured += qRed(c) != qGreen(c) || qGreen(c) != qBlue(c);
        }
    EXPECT_GT(inside, 50);
    EXPECT_EQ(coloured, inside) << "a hole in the painted disc on the plane it was painted on";
    QTest::keyClick(axial, Qt::Key_B);  // the brush down again

    // A ruler on the resliced plane: its ends are patient points of that plane, its length the
    // screen distance over the scale (the screen axes are patient axes).
    QTest::keyClick(axial, Qt::Key_D);
    ASSERT_TRUE(action("measureRulerAction")->isChecked()) << "D is the ruler";
    frame(Orientation::Axial);  // the measurement panel took room
    const render::SliceViewGeometry ruled = axial->view();
    const QPoint from(axial->width() / 2 - 30, axial->height() / 2 + 20), to = from + QPoint(50, 0);
    QTest::mousePress(axial, Qt::LeftButton, {}, from);
    QTest::mouseMove(axial, from + QPoint(25, 0));
    QTest::mouseMove(axial, to);
    QTest::mouseRelease(axial, Qt::LeftButton, {}, to);
    const auto& measured = window->measurementPanel().measurements().all();
    ASSERT_EQ(measured.size(), 1u);
    EXPECT_NEAR(measured[0].value, 50 * dpr / ruled.pixelsPerMm(), 1e-6);
    EXPECT_NEAR(measured[0].points[0].z, measured[0].points[1].z, 1e-9) << "both ends on the axial plane";
    EXPECT_NEAR(measured[0].points[1].x - measured[0].points[0].x, 50 * dpr / ruled.pixelsPerMm(), 1e-6);
    EXPECT_TRUE(ruled.onSlice(g.patientToVoxel(measured[0].points[0])));
    // An ROI counts the voxels of one slice of the grid: refused here, with the reason.
    QTest::keyClick(axial, Qt::Key_O);
    const QPoint corner = from + QPoint(0, -45);  // away from the ruler's ends, which a press would grab
    QTest::mousePress(axial, Qt::LeftButton, {}, corner);
    QTest::mouseMove(axial, corner + QPoint(30, 30));
    QTest::mouseRelease(axial, Qt::LeftButton, {}, corner + QPoint(30, 30));
    EXPECT_EQ(window->measurementPanel().measurements().all().size(), 1u);
    EXPECT_TRUE(window->statusBar()->currentMessage().contains("ROIs"))
        << window->statusBar()->currentMessage().toStdString();
    QTest::keyClick(axial, Qt::Key_O);  // the tool down again

    // The snake's rectangle needs a voxel plane: refused with the reason in the status bar.
    QTest::keyClick(axial, Qt::Key_S);
    const Vec3 cursorBefore = window->model().cursor();
    QTest::mousePress(axial, Qt::LeftButton, {}, at);
    QTest::mouseMove(axial, at + QPoint(40, 30));
    QTest::mouseRelease(axial, Qt::LeftButton, {}, at + QPoint(40, 30));
    EXPECT_TRUE(window->statusBar()->currentMessage().contains("Anatomical planes"))
        << window->statusBar()->currentMessage().toStdString();
    EXPECT_EQ(window->model().cursor(), cursorBefore) << "a refused gesture does not move the crosshair";
}

int main(int argc, char** argv) {
    lucent::ui::prepareOpenGl();
    QApplication app(argc, argv);
    app.setOrganizationName("Lucent-tests");
    app.setApplicationName("reslice");  // never touch the user's settings, nor the other tests'
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
