/// @brief Measurements made like a user under Xvfb on a synthetic anisotropic CT volume: a ruler
/// dragged with QTest mouse events reports the distance between the voxels under the clicks within
/// a tenth of a voxel and shows on the rendered pixels; its end point is dragged to edit it; an
/// angle by three clicks; ellipse and rectangle ROIs whose statistics equal those computed here from
/// the same voxels; the list, delete (button and key) and the CSV export.
#include "EventLoopWait.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/MeasurementPanel.h"
#include "RealData.h"

#include <gtest/gtest.h>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <numbers>

using namespace lucent;
using namespace lucent::ui;
using render::Orientation;

namespace {

constexpr double kSpacingI = 0.6, kSpacingJ = 1.4;

/// 24 x 16 x 6 voxels of 0.6 x 1.4 x 2.5 mm, an irregular pattern of values (a few tens of HU)
/// so that a wrong voxel set changes every statistic.
std::shared_ptr<Volume> phantom() {
    Geometry g;
    g.dims = {24, 16, 6};
    g.spacing = {kSpacingI, kSpacingJ, 2.5};
    g.origin = {-10, 4, 20};
    auto v = std::make_shared<Volume>(g, PixelType::Int16);
    for (int k = 0; k < 6; ++k)
        for (int j = 0; j < 16; ++j)
            for (int i = 0; i < 24; ++i) v->setValue(g.index(i, j, k), (i * 37 + j * 11) % 29 + 3 * k - 40);
    v->metadata().modality = "CT";
    return v;
}

/// The statistics of the slice's voxels whose centres fall inside the box between two voxel
/// positions, or inside its inscribed ellipse: computed here from the voxels, independently of core.
struct Expected {
    std::size_t n = 0;
    double mean = 0, sd = 0, min = 0, max = 0;
};

Expected direct(const Volume& v, Vec3 a, Vec3 b, int k, bool ellipse) {
    const double cu = (a.x + b.x) / 2, cv = (a.y + b.y) / 2, ru = std::abs(a.x - b.x) / 2, rv = std::abs(a.y - b.y) / 2;
    std::vector<double> in;
    for (int j = 0; j < v.geometry().dims[1]; ++j)
        for (int i = 0; i < v.geometry().dims[0]; ++i) {
            const double du = (i - cu) / ru, dv = (j - cv) / rv;
            const bool inside = ellipse ? du * du + dv * dv <= 1 : std::abs(i - cu) <= ru && std::abs(j - cv) <= rv;
            if (inside) in.push_back(v.value(i, j, k));
        }
    Expected e;
    e.n = in.size();
    if (in.empty()) return e;
    e.min = e.max = in.front();
    for (double x : in) {
        e.mean += x;
        e.min = std::min(e.min, x);
        e.max = std::max(e.max, x);
    }
    e.mean /= double(in.size());
    for (double x : in) e.sd += (x - e.mean) * (x - e.mean);
    e.sd = std::sqrt(e.sd / double(in.size()));
    return e;
}

/// A measurement's colour (cyan, or orange when selected) rather than the grey image or the
/// yellow crosshair.
bool coloured(QRgb c) {
    const int r = qRed(c), g = qGreen(c), b = qBlue(c);
    const bool orange = r > 200 && g > 90 && g < 180 && b < 90;
    const bool cyan = b > 150 && g > 150 && r < 130;
    return orange || cyan;
}

class Measuring : public ::testing::Test {
protected:
    void SetUp() override {
        window.resize(1280, 860);
        window.setLayoutMode(Layout::Grid2x2);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        // Xvfb has no window manager to activate the window; shortcuts need an active window.
        window.activateWindow();
        QApplication::setActiveWindow(&window);
        volume = phantom();
        SeriesInfo info;
        info.modality = "CT";
        window.model().setVolume(volume, info, "");
        window.model().setWindow({-26, 80});
        QTest::qWait(50);
        k = axial()->view().slice();
    }
    SliceViewWidget* axial() { return window.grid().view(Orientation::Axial); }
    MeasurementPanel& panel() { return window.measurementPanel(); }
    const std::vector<Measurement>& all() { return panel().measurements().all(); }
    QAction* action(const char* name) { return window.findChild<QAction*>(name); }
    QTableWidget* table() { return window.findChild<QTableWidget*>("measurementTable"); }
    double dpr() { return axial()->devicePixelRatioF(); }
    /// The logical mouse point nearest to voxel (i, j) of the shown slice.
    QPoint screenOf(double i, double j) {
        const auto p = axial()->view().voxelToScreen({i, j, double(k)});
        return QPoint(int(std::lround(p[0] / dpr())), int(std::lround(p[1] / dpr())));
    }
    /// The voxel position the view maps a logical mouse point to, on the shown slice.
    Vec3 voxelAt(QPoint p) {
        Vec3 v = axial()->view().screenToVoxel(p.x() * dpr(), p.y() * dpr());
        v[axial()->view().normalAxis()] = axial()->view().slice();
        return v;
    }
    double mm(Vec3 a, Vec3 b) { return std::hypot((a.x - b.x) * kSpacingI, (a.y - b.y) * kSpacingJ); }
    void drag(QPoint from, QPoint to) {
        QTest::mousePress(axial(), Qt::LeftButton, {}, from);
        QTest::mouseMove(axial(), (from + to) / 2);
        QTest::mouseMove(axial(), to);
        QTest::mouseRelease(axial(), Qt::LeftButton, {}, to);
    }
    QImage image(const char* name) {
        QTest::qWait(60);
        QImage img = axial()->grabFramebuffer();
        if (const char* dir = std::getenv("LUCENT_MEASURE_SHOTS")) img.save(QString("%1/%2.png").arg(dir, name));
        return img;
    }
    /// Share of the device pixels on the segment a..b (ends left out) that show a measurement.
    double colouredAlong(const QImage& img, QPoint a, QPoint b) {
        int hit = 0, n = 0;
        for (double t = 0.2; t <= 0.8; t += 0.02, ++n) {
            const QPointF p = (QPointF(a) + (QPointF(b) - QPointF(a)) * t) * dpr();
            bool near = false;  // the line may be 2 pixels wide beside the exact point
            for (int dy = -1; dy <= 1 && !near; ++dy)
                for (int dx = -1; dx <= 1 && !near; ++dx) near = coloured(img.pixel(int(p.x()) + dx, int(p.y()) + dy));
            hit += near;
        }
        return double(hit) / n;
    }

    MainWindow window;
    std::shared_ptr<const Volume> volume;
    int k = 0;
};

}  // namespace

TEST_F(Measuring, RulerLengthPixelsEditAndDelete) {
    axial()->setFocus();
    QTest::keyClick(axial(), Qt::Key_D);
    ASSERT_TRUE(action("measureRulerAction")->isChecked()) << "D is the ruler";
    EXPECT_TRUE(panel().isVisible());
    const QPoint a = screenOf(3, 2), b = screenOf(19, 13);
    QImage img = image("before");
    EXPECT_LT(colouredAlong(img, a, b), 0.05) << "nothing drawn yet";

    drag(a, b);
    ASSERT_EQ(all().size(), 1u);
    const Measurement& ruler = all().front();
    EXPECT_EQ(ruler.kind, MeasurementKind::Ruler);
    EXPECT_EQ(ruler.axis, 2);
    EXPECT_EQ(ruler.slice, k);
    // The true distance between voxels (3, 2) and (19, 13) of this anisotropic grid, within a
    // tenth of the smallest voxel; and exactly the distance between the positions under the clicks.
    const double truth = std::hypot(16 * kSpacingI, 11 * kSpacingJ);
    EXPECT_NEAR(ruler.value, truth, 0.1 * kSpacingI);
    EXPECT_NEAR(ruler.value, mm(voxelAt(a), voxelAt(b)), 1e-9);
    ASSERT_EQ(table()->rowCount(), 1);
    char label[32];
    std::snprintf(label, sizeof label, "%.1f mm", ruler.value);
    EXPECT_EQ(table()->item(0, MeasurementPanel::Value)->text().toStdString(), label);
    EXPECT_EQ(table()->item(0, MeasurementPanel::Type)->text(), "ruler");
    EXPECT_EQ(table()->item(0, MeasurementPanel::Slice)->text(), QString("axial %1/6").arg(k + 1));
    img = image("ruler");
    EXPECT_GT(colouredAlong(img, a, b), 0.9) << "the ruler's line is on the rendered slice";

    // Zoom about a point: the ruler stays on the same voxels (it lives in patient space).
    axial()->setFocus();
    const QPoint centre = screenOf(12, 8);
    QWheelEvent wheel(QPointF(centre), axial()->mapToGlobal(QPointF(centre)), QPoint(), QPoint(0, 240), Qt::NoButton,
                      Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(axial(), &wheel);
    ASSERT_GT(axial()->zoom(), 1.2);
    img = image("zoomed");
    EXPECT_GT(colouredAlong(img, screenOf(3, 2), screenOf(19, 13)), 0.9) << "drawn where its voxels went";
    axial()->resetView();

    // Drag its second end to voxel (10, 14): the same measurement, a new length.
    const QPoint c = screenOf(10, 14);
    drag(b, c);
    ASSERT_EQ(all().size(), 1u) << "grabbing an end edits, it does not add";
    EXPECT_NEAR(all().front().value, std::hypot(7 * kSpacingI, 12 * kSpacingJ), 0.1 * kSpacingI);
    EXPECT_NEAR(all().front().value, mm(voxelAt(a), voxelAt(c)), 1e-9);
    img = image("edited");
    EXPECT_GT(colouredAlong(img, a, c), 0.9);

    // A click without a drag adds nothing.
    drag(screenOf(20, 3), screenOf(20, 3));
    EXPECT_EQ(all().size(), 1u);

    // Delete (the button) removes it from the list and from the view.
    table()->selectRow(0);
    window.findChild<QPushButton*>("deleteMeasurementButton")->click();
    EXPECT_TRUE(all().empty());
    EXPECT_EQ(table()->rowCount(), 0);
    img = image("deleted");
    EXPECT_LT(colouredAlong(img, a, c), 0.05);
}

TEST_F(Measuring, AngleByThreeClicks) {
    axial()->setFocus();
    QTest::keyClick(axial(), Qt::Key_A);
    ASSERT_TRUE(action("measureAngleAction")->isChecked());
    EXPECT_FALSE(action("measureRulerAction")->isChecked());
    // Arms from voxel (12, 5) to (5, 5) (along i) and to (12, 12) (along j): a right angle; then
    // one whose second arm goes 7 voxels along i and 5 along j: its angle comes from millimetres.
    const QPoint p0 = screenOf(5, 5), vertex = screenOf(12, 5), p1 = screenOf(12, 12);
    for (QPoint p : {p0, vertex}) QTest::mouseClick(axial(), Qt::LeftButton, {}, p);
    EXPECT_TRUE(all().empty()) << "two clicks are not an angle yet";
    QTest::mouseClick(axial(), Qt::LeftButton, {}, p1);
    ASSERT_EQ(all().size(), 1u);
    EXPECT_EQ(all().front().kind, MeasurementKind::Angle);
    const Geometry& g = volume->geometry();
    const double clicked = angleDegrees(g.voxelToPatient(voxelAt(p0)), g.voxelToPatient(voxelAt(vertex)),
                                        g.voxelToPatient(voxelAt(p1)));
    EXPECT_NEAR(all().front().value, clicked, 1e-9);
    EXPECT_NEAR(all().front().value, 90, 1.0);
    // (Away from the first angle's points: a press on one of them grabs it.)
    for (QPoint p : {screenOf(5, 9), screenOf(12, 9), screenOf(19, 14)}) QTest::mouseClick(axial(), Qt::LeftButton, {}, p);
    ASSERT_EQ(all().size(), 2u);
    EXPECT_NEAR(all().back().value, 180 - std::atan2(5 * kSpacingJ, 7 * kSpacingI) * 180 / std::numbers::pi, 1.0);
    EXPECT_TRUE(table()->item(1, MeasurementPanel::Value)->text().endsWith(" deg"));
    const QImage img = image("angle");
    EXPECT_GT(colouredAlong(img, p0, vertex), 0.9);
    EXPECT_GT(colouredAlong(img, vertex, p1), 0.9);
    // Delete, the key in the list.
    table()->setFocus();
    table()->selectRow(0);
    QTest::keyClick(table(), Qt::Key_Delete);
    ASSERT_EQ(all().size(), 1u);
    EXPECT_EQ(all().front().id, 2);
}

TEST_F(Measuring, RoiStatisticsEqualTheVoxelsAndCsv) {
    axial()->setFocus();
    QTest::keyClick(axial(), Qt::Key_O);
    ASSERT_TRUE(action("measureEllipseAction")->isChecked()) << "O is the ellipse ROI";
    const QPoint e0 = screenOf(4, 3), e1 = screenOf(17, 12);
    drag(e0, e1);
    ASSERT_EQ(all().size(), 1u);
    {
        const Measurement& m = all().front();
        ASSERT_EQ(m.kind, MeasurementKind::Ellipse);
        const Vec3 a = volume->geometry().patientToVoxel(m.points[0]), b = volume->geometry().patientToVoxel(m.points[1]);
        EXPECT_NEAR(a.x, voxelAt(e0).x, 1e-9);
        EXPECT_NEAR(b.y, voxelAt(e1).y, 1e-9);
        const Expected e = direct(*volume, a, b, k, true);
        EXPECT_GT(e.n, 60u);
        EXPECT_EQ(m.roi.voxels, e.n);
        EXPECT_NEAR(m.roi.mean, e.mean, 1e-9);
        EXPECT_NEAR(m.roi.stddev, e.sd, 1e-9);
        EXPECT_EQ(m.roi.min, e.min);
        EXPECT_EQ(m.roi.max, e.max);
        EXPECT_NEAR(m.roi.areaMm2, std::numbers::pi * std::abs(a.x - b.x) / 2 * kSpacingI * std::abs(a.y - b.y) / 2 * kSpacingJ,
                    1e-9);
        EXPECT_TRUE(table()->item(0, MeasurementPanel::Value)->text().startsWith("mean ")) << "HU on a CT";
        EXPECT_TRUE(table()->item(0, MeasurementPanel::Value)->text().contains(" HU "));
        EXPECT_EQ(table()->item(0, MeasurementPanel::Value)->text().toStdString(), measurementLabel(m, "HU"));
    }
    QTest::keyClick(axial(), Qt::Key_Q);
    ASSERT_TRUE(action("measureRectangleAction")->isChecked()) << "Q is the rectangle ROI";
    const QPoint r0 = screenOf(20, 14), r1 = screenOf(6, 1);  // dragged up and left
    drag(r0, r1);
    ASSERT_EQ(all().size(), 2u);
    const Measurement& r = all().back();
    const Vec3 a = volume->geometry().patientToVoxel(r.points[0]), b = volume->geometry().patientToVoxel(r.points[1]);
    const Expected e = direct(*volume, a, b, k, false);
    // The box from about (20, 14) to (6, 1): up to 15 x 14 voxel centres; a click rounded to a
    // whole pixel may leave the voxel of an edge just outside.
    EXPECT_GE(e.n, 13u * 12u);
    EXPECT_LE(e.n, 15u * 14u);
    EXPECT_EQ(r.roi.voxels, e.n);
    EXPECT_NEAR(r.roi.mean, e.mean, 1e-9);
    EXPECT_NEAR(r.roi.stddev, e.sd, 1e-9);
    EXPECT_EQ(r.roi.min, e.min);
    EXPECT_EQ(r.roi.max, e.max);
    QImage img = image("rois");
    if (const char* dir = std::getenv("LUCENT_MEASURE_SHOTS")) window.grab().save(QString("%1/window.png").arg(dir));
    // The rectangle's top edge, between its corners.
    EXPECT_GT(colouredAlong(img, QPoint(r0.x(), r1.y()), r1), 0.9);

    // Editing a corner recomputes the figures.
    drag(r1, screenOf(12, 6));
    ASSERT_EQ(all().size(), 2u);
    const Vec3 c = volume->geometry().patientToVoxel(all().back().points[1]);
    EXPECT_EQ(all().back().roi.voxels, direct(*volume, a, c, k, false).n);

    // CSV: the header and a row per measurement, with the figures shown.
    QTemporaryDir dir;
    const QString path = dir.filePath("measurements.csv");
    QString error;
    ASSERT_TRUE(panel().exportCsv(path, &error)) << error.toStdString();
    QFile csv(path);
    ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 3);
    EXPECT_EQ(lines[0], "id,type,view,slice,value,unit,mean,sd,min,max,voxels,area_mm2,x0,y0,z0,x1,y1,z1,x2,y2,z2");
    const QStringList ellipse = lines[1].split(','), rect = lines[2].split(',');
    ASSERT_EQ(ellipse.size(), 21);
    EXPECT_EQ(ellipse[1], "ellipse");
    EXPECT_EQ(ellipse[2], "axial");
    EXPECT_EQ(ellipse[3].toInt(), k);
    EXPECT_EQ(ellipse[5], "HU");
    EXPECT_NEAR(ellipse[6].toDouble(), all().front().roi.mean, 1e-6);
    EXPECT_EQ(ellipse[10].toULongLong(), all().front().roi.voxels);
    EXPECT_EQ(rect[1], "rectangle");
    EXPECT_EQ(rect[10].toULongLong(), all().back().roi.voxels);
    EXPECT_FALSE(panel().exportCsv(dir.filePath("no/such/folder/m.csv"), &error));
    EXPECT_TRUE(error.contains("no/such/folder")) << error.toStdString();

    // Measurements belong to their volume: loading another one drops them.
    SeriesInfo info;
    window.model().setVolume(phantom(), info, "");
    EXPECT_TRUE(all().empty());
    EXPECT_EQ(table()->rowCount(), 0);
}

TEST_F(Measuring, ToolsYieldToTheBrushAndBack) {
    axial()->setFocus();
    QTest::keyClick(axial(), Qt::Key_D);
    ASSERT_TRUE(action("measureRulerAction")->isChecked());
    QTest::keyClick(axial(), Qt::Key_B);
    ASSERT_TRUE(action("paintAction")->isChecked());
    EXPECT_FALSE(action("measureRulerAction")->isChecked()) << "the brush takes the views";
    drag(screenOf(3, 3), screenOf(9, 3));
    EXPECT_TRUE(all().empty()) << "a brush stroke is not a ruler";
    QTest::keyClick(axial(), Qt::Key_D);
    EXPECT_FALSE(action("paintAction")->isChecked());
    drag(screenOf(3, 8), screenOf(9, 8));
    EXPECT_EQ(all().size(), 1u);
}

TEST_F(Measuring, RealCtRoiAndObliqueMrRuler) {
    LUCENT_REAL_DATA_OR_SKIP(ct, lucent::testing::kRealCtHead);
    LUCENT_REAL_DATA_OR_SKIP(mr, lucent::testing::kRealMrSeries);
    QString error;
    ASSERT_TRUE(window.openPath(QString::fromStdString(ct), {}, true, &error)) << error.toStdString();
    volume = window.model().volume();
    QTest::qWait(100);
    ASSERT_EQ(axial()->view().normalAxis(), 2);
    k = axial()->view().slice();
    const Vec3 sp = volume->geometry().spacing;
    axial()->setFocus();
    // An ellipse over the head on the real CT (256 x 256 voxels of 0.957 mm): the same figures as
    // the voxels whose centres fall inside it.
    QTest::keyClick(axial(), Qt::Key_O);
    drag(screenOf(80, 90), screenOf(170, 160));
    ASSERT_EQ(all().size(), 1u);
    const Measurement& m = all().front();
    const Vec3 a = volume->geometry().patientToVoxel(m.points[0]), b = volume->geometry().patientToVoxel(m.points[1]);
    const Expected e = direct(*volume, a, b, k, true);
    EXPECT_GT(e.n, 4000u);
    EXPECT_EQ(m.roi.voxels, e.n);
    EXPECT_NEAR(m.roi.mean, e.mean, 1e-9);
    EXPECT_NEAR(m.roi.stddev, e.sd, 1e-9);
    EXPECT_EQ(m.roi.min, e.min);
    EXPECT_EQ(m.roi.max, e.max);
    EXPECT_GT(e.max - e.min, 50) << "real tissue, not a flat region";
    // A ruler across it: within a tenth of a voxel of the distance between the voxels clicked.
    QTest::keyClick(axial(), Qt::Key_D);
    const QPoint r0 = screenOf(40, 128), r1 = screenOf(210, 135);
    drag(r0, r1);
    ASSERT_EQ(all().size(), 2u);
    EXPECT_NEAR(all().back().value, std::hypot(170 * sp.x, 7 * sp.y), 0.1 * sp.x);
    image("real_ct");

    // The oblique MR series: the ruler is measured in patient space, so its length is the in-plane
    // voxel steps times the spacing, whatever the direction cosines.
    ASSERT_TRUE(window.openPath(QString::fromStdString(mr), {}, true, &error)) << error.toStdString();
    volume = window.model().volume();
    QTest::qWait(100);
    EXPECT_TRUE(all().empty()) << "another volume, no measurements";
    const Mat3& d = volume->geometry().direction;
    EXPECT_GT(std::abs(d.col[0].y) + std::abs(d.col[0].z) + std::abs(d.col[1].x) + std::abs(d.col[1].z), 0.01)
        << "the series is oblique";
    const render::SliceViewGeometry& view = axial()->view();
    const QPoint p0(axial()->width() * 3 / 10, axial()->height() * 4 / 10), p1(axial()->width() * 6 / 10, axial()->height() * 7 / 10);
    ASSERT_TRUE(action("measureRulerAction")->isChecked()) << "the tool stays chosen (D again would put it down)";
    drag(p0, p1);
    ASSERT_EQ(all().size(), 1u);
    const Vec3 v0 = voxelAt(p0), v1 = voxelAt(p1);
    const int u = view.rightAxis(), w = view.downAxis();
    const Vec3 s = volume->geometry().spacing;
    EXPECT_NEAR(all().front().value, std::hypot((v1[u] - v0[u]) * s[u], (v1[w] - v0[w]) * s[w]), 1e-6);
    EXPECT_GT(all().front().value, 20.0);
    image("real_mr");
}
