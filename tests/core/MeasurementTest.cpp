/// @brief Measurements with known answers: ruler lengths and angles in patient space (anisotropic
/// and oblique grids), ROI statistics over the voxels whose centres fall inside (by hand, and
/// against a brute-force count on random data), the set's ids and edits, and the CSV text.
#include "lucent/core/MeasurementSet.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <sstream>

using namespace lucent;

namespace {

/// 10 x 8 x 4 voxels of 0.5 x 1.5 x 2 mm; value 10 i + 100 j + 1000 k.
Volume ramp(Mat3 direction = {}) {
    Geometry g;
    g.dims = {10, 8, 4};
    g.spacing = {0.5, 1.5, 2.0};
    g.origin = {-7, 12, 30};
    g.direction = direction;
    Volume v(g, PixelType::Int16);
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 8; ++j)
            for (int i = 0; i < 10; ++i) v.setValue(g.index(i, j, k), 10 * i + 100 * j + 1000 * k);
    return v;
}

/// Rotation by `degrees` about the patient axis z, then tilted about x: an oblique grid.
Mat3 oblique(double degrees) {
    const double a = degrees * std::numbers::pi / 180, t = 0.3;
    const Vec3 c0{std::cos(a), std::sin(a), 0}, c1{-std::sin(a), std::cos(a), 0};
    auto tilt = [t](Vec3 v) { return Vec3{v.x, v.y * std::cos(t) - v.z * std::sin(t), v.y * std::sin(t) + v.z * std::cos(t)}; };
    return Mat3::fromColumns(tilt(c0), tilt(c1), tilt(Vec3{0, 0, 1}));
}

Vec3 at(const Volume& v, double i, double j, double k) { return v.geometry().voxelToPatient({i, j, k}); }

}  // namespace

TEST(Measurement, RulerLengthIsMeasuredInPatientSpace) {
    for (const Mat3& d : {Mat3{}, oblique(30), oblique(-72)}) {
        const Volume v = ramp(d);
        Measurement m;
        m.kind = MeasurementKind::Ruler;
        m.points = {at(v, 1, 2, 3), at(v, 4, 6, 3)};
        computeMeasurement(m, nullptr);
        // 3 voxels of 0.5 mm and 4 of 1.5 mm: sqrt(1.5^2 + 6^2), whatever the orientation.
        EXPECT_NEAR(m.value, std::sqrt(38.25), 1e-12);
        EXPECT_EQ(measurementLabel(m, "HU"), "6.2 mm");
    }
}

TEST(Measurement, AnglesInDegrees) {
    EXPECT_NEAR(angleDegrees({1, 0, 0}, {0, 0, 0}, {0, 1, 0}), 90, 1e-12);
    EXPECT_NEAR(angleDegrees({1, 0, 0}, {0, 0, 0}, {1, 1, 0}), 45, 1e-12);
    EXPECT_NEAR(angleDegrees({1, 0, 0}, {0, 0, 0}, {-3, 0, 0}), 180, 1e-12);
    EXPECT_NEAR(angleDegrees({5, 5, 5}, {1, 1, 1}, {9, 9, 9}), 0, 1e-12);
    EXPECT_EQ(angleDegrees({1, 1, 1}, {1, 1, 1}, {2, 0, 0}), 0) << "an empty arm has no angle";
    // On the anisotropic grid: arms of 2 voxels along i (1 mm) and 1 voxel along j (1.5 mm) from
    // the vertex: atan(1.5 / 1) in patient space, not the 45 degrees the voxel indices suggest.
    const Volume v = ramp(oblique(15));
    Measurement m;
    m.kind = MeasurementKind::Angle;
    m.points = {at(v, 5, 2, 1), at(v, 3, 2, 1), at(v, 3, 3, 1)};
    computeMeasurement(m, nullptr);
    EXPECT_NEAR(m.value, 90, 1e-9);
    m.points = {at(v, 5, 2, 1), at(v, 3, 2, 1), at(v, 5, 3, 1)};
    computeMeasurement(m, nullptr);
    EXPECT_NEAR(m.value, std::atan2(1.5, 1.0) * 180 / std::numbers::pi, 1e-9);
    EXPECT_EQ(measurementLabel(m, ""), "56.3 deg");
}

TEST(Measurement, RectangleStatisticsByHand) {
    for (const Mat3& d : {Mat3{}, oblique(40)}) {
        const Volume v = ramp(d);
        // Corners drawn in either order: voxels i 2..5, j 3..4 of slice k = 1.
        const RoiStatistics s = roiStatistics(v, MeasurementKind::Rectangle, 2, 1, at(v, 5, 4, 1), at(v, 2, 3, 1));
        EXPECT_EQ(s.voxels, 8u);
        EXPECT_NEAR(s.mean, 1385, 1e-9);
        // Variance of i over {2..5} is 1.25, of j over {3, 4} 0.25: 100 * 1.25 + 10000 * 0.25.
        EXPECT_NEAR(s.stddev, std::sqrt(2625.0), 1e-9);
        EXPECT_EQ(s.min, 1320);
        EXPECT_EQ(s.max, 1450);
        EXPECT_NEAR(s.areaMm2, 3 * 0.5 * 1 * 1.5, 1e-12);
    }
}

TEST(Measurement, EllipseCountsTheCentresInside) {
    const Volume v = ramp();
    // The circle of radius 2 voxels about (2, 2): 13 lattice points, on axial slice 0.
    RoiStatistics s = roiStatistics(v, MeasurementKind::Ellipse, 2, 0, at(v, 0, 0, 0), at(v, 4, 4, 0));
    EXPECT_EQ(s.voxels, 13u);
    EXPECT_NEAR(s.mean, 10 * 2 + 100 * 2, 1e-9) << "symmetric about its centre";
    EXPECT_EQ(s.min, 20 + 0) << "(2, 0)";
    EXPECT_EQ(s.max, 20 + 400) << "(2, 4)";
    EXPECT_NEAR(s.areaMm2, std::numbers::pi * 2 * 2 * 0.5 * 1.5, 1e-12);
    // On a coronal plane (axis j = 5): i and k vary. Box i 1..5, k 0..2: centre (3, 1), radii 2, 1.
    s = roiStatistics(v, MeasurementKind::Ellipse, 1, 5, at(v, 1, 5, 0), at(v, 5, 5, 2));
    // Inside: (i-3)^2/4 + (k-1)^2 <= 1: k = 1, i 1..5 (5); k = 0 or 2, i = 3 (2).
    EXPECT_EQ(s.voxels, 7u);
    EXPECT_NEAR(s.mean, 30 + 500 + 1000, 1e-9);
    EXPECT_NEAR(s.areaMm2, std::numbers::pi * 2 * 1 * 0.5 * 2.0, 1e-12);
    // A flat ellipse holds nothing; a rectangle half outside the volume counts only what is inside.
    EXPECT_EQ(roiStatistics(v, MeasurementKind::Ellipse, 2, 0, at(v, 1, 1, 0), at(v, 5, 1, 0)).voxels, 0u);
    s = roiStatistics(v, MeasurementKind::Rectangle, 2, 3, at(v, -3, -3, 3), at(v, 1, 0, 3));
    EXPECT_EQ(s.voxels, 2u);
    EXPECT_NEAR(s.mean, 3005, 1e-9);
    EXPECT_NEAR(s.areaMm2, 4 * 0.5 * 3 * 1.5, 1e-12) << "the shape's own area";
}

TEST(Measurement, RoiAgreesWithBruteForceOnRandomData) {
    Geometry g;
    g.dims = {37, 29, 9};
    g.spacing = {0.7, 1.3, 2.5};
    g.direction = oblique(23);
    Volume v(g, PixelType::Float32);
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(-950, 120);
    for (std::size_t i = 0; i < v.voxelCount(); ++i) v.setValue(i, noise(rng));
    std::uniform_real_distribution<double> pos(-4, 40);
    for (int trial = 0; trial < 200; ++trial) {
        const int axis = trial % 3, slice = trial % g.dims[axis];
        Vec3 a{pos(rng), pos(rng), pos(rng)}, b{pos(rng), pos(rng), pos(rng)};
        a[axis] = b[axis] = slice;
        const auto kind = trial % 2 ? MeasurementKind::Ellipse : MeasurementKind::Rectangle;
        const RoiStatistics s = roiStatistics(v, kind, axis, slice, g.voxelToPatient(a), g.voxelToPatient(b));
        // Every voxel of the slice, tested against the box / ellipse in voxel coordinates.
        const int u = axis == 0 ? 1 : 0, w = axis == 2 ? 1 : 2;
        const double cu = (a[u] + b[u]) / 2, cw = (a[w] + b[w]) / 2, ru = std::abs(a[u] - b[u]) / 2,
                     rw = std::abs(a[w] - b[w]) / 2;
        std::vector<double> in;
        for (int p = 0; p < g.dims[u]; ++p)
            for (int q = 0; q < g.dims[w]; ++q) {
                const double du = (p - cu) / ru, dw = (q - cw) / rw;
                const bool inside = kind == MeasurementKind::Rectangle ? std::abs(p - cu) <= ru && std::abs(q - cw) <= rw
                                                                       : du * du + dw * dw <= 1;
                if (!inside) continue;
                int ijk[3];
                ijk[axis] = slice;
                ijk[u] = p;
                ijk[w] = q;
                in.push_back(v.value(ijk[0], ijk[1], ijk[2]));
            }
        ASSERT_EQ(s.voxels, in.size()) << "trial " << trial;
        if (in.empty()) continue;
        double mean = 0, var = 0;
        for (double x : in) mean += x;
        mean /= double(in.size());
        for (double x : in) var += (x - mean) * (x - mean);
        EXPECT_NEAR(s.mean, mean, 1e-9);
        EXPECT_NEAR(s.stddev, std::sqrt(var / double(in.size())), 1e-9);
        EXPECT_EQ(s.min, *std::min_element(in.begin(), in.end()));
        EXPECT_EQ(s.max, *std::max_element(in.begin(), in.end()));
    }
}

TEST(MeasurementSet, AddMoveRemoveAndIds) {
    auto v = std::make_shared<Volume>(ramp());
    MeasurementSet set;
    Measurement roi;
    roi.kind = MeasurementKind::Rectangle;
    roi.points = {at(*v, 2, 3, 1), at(*v, 5, 4, 1)};
    roi.slice = 1;
    EXPECT_THROW(set.add(roi), std::invalid_argument) << "an ROI needs the volume";
    set.setVolume(v);
    const auto r0 = set.revision();
    const int a = set.add(roi);
    EXPECT_GT(set.revision(), r0);
    EXPECT_NEAR(set.find(a)->value, 1385, 1e-9);
    Measurement ruler;
    ruler.points = {at(*v, 0, 0, 0)};
    EXPECT_THROW(set.add(ruler), std::invalid_argument) << "a ruler has two ends";
    ruler.points.push_back(at(*v, 4, 0, 0));
    const int b = set.add(ruler);
    EXPECT_NE(a, b);
    EXPECT_NEAR(set.find(b)->value, 2.0, 1e-12);
    // Dragging an end recomputes the figures.
    ASSERT_TRUE(set.movePoint(b, 1, at(*v, 0, 2, 0)));
    EXPECT_NEAR(set.find(b)->value, 3.0, 1e-12);
    ASSERT_TRUE(set.movePoint(a, 0, at(*v, 4, 3, 1)));
    EXPECT_EQ(set.find(a)->roi.voxels, 4u);
    EXPECT_FALSE(set.movePoint(b, 2, {}));
    EXPECT_TRUE(set.remove(a));
    EXPECT_FALSE(set.remove(a));
    EXPECT_EQ(set.find(a), nullptr);
    ASSERT_EQ(set.all().size(), 1u);
    const int c = set.add(ruler);
    EXPECT_GT(c, b) << "ids are not reused";
    set.setVolume(v);
    EXPECT_TRUE(set.all().empty()) << "a new volume starts without measurements";
}

TEST(Measurement, CsvText) {
    auto v = std::make_shared<Volume>(ramp());
    MeasurementSet set;
    set.setVolume(v);
    Measurement ruler;
    ruler.view = "axial";
    ruler.slice = 0;
    ruler.points = {{0, 0, 0}, {3, 4, 0}};
    set.add(ruler);
    Measurement roi;
    roi.kind = MeasurementKind::Rectangle;
    roi.view = "axial";
    roi.slice = 1;
    roi.points = {at(*v, 2, 3, 1), at(*v, 5, 4, 1)};
    set.add(roi);
    std::istringstream csv(measurementsCsv(set.all(), "HU"));
    std::string header, first, second, extra;
    std::getline(csv, header);
    std::getline(csv, first);
    std::getline(csv, second);
    EXPECT_FALSE(std::getline(csv, extra));
    EXPECT_EQ(header, "id,type,view,slice,value,unit,mean,sd,min,max,voxels,area_mm2,x0,y0,z0,x1,y1,z1,x2,y2,z2");
    EXPECT_EQ(first, "1,ruler,axial,0,5,mm,,,,,,,0,0,0,3,4,0,,,");
    EXPECT_EQ(second.substr(0, 54), "2,rectangle,axial,1,1385,HU,1385,51.23475383,1320,1450");
    EXPECT_NE(second.find(",8,2.25,"), std::string::npos) << second;
    EXPECT_EQ(measurementLabel(set.all()[1], "HU"), "mean 1385.0 HU  sd 51.2\nmin 1320  max 1450\narea 2.2 mm2  (8 voxels)");
    EXPECT_EQ(measurementLabel(set.all()[1], ""), "mean 1385.0  sd 51.2\nmin 1320  max 1450\narea 2.2 mm2  (8 voxels)");
}
