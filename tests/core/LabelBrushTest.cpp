/// @brief Brush footprints in millimetres on anisotropic and oblique grids (counted by hand and by
/// brute force), and strokes: gap-free drags, locked labels, erase, one undo step per stroke.
#include "lucent/core/LabelBrush.h"
#include "lucent/core/LabelStroke.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

using namespace lucent;

namespace {

Geometry grid(Vec3 spacing, std::array<int, 3> dims = {40, 40, 20}) {
    Geometry g;
    g.dims = dims;
    g.spacing = spacing;
    return g;
}

/// Tilted 30 degrees about one axis and 20 about another: distances in mm must not change.
Geometry oblique(Vec3 spacing) {
    Geometry g = grid(spacing);
    const double a = 30 * M_PI / 180, b = 20 * M_PI / 180;
    const Vec3 r{std::cos(a), std::sin(a), 0};
    const Vec3 c = normalized(Vec3{-std::sin(a) * std::cos(b), std::cos(a) * std::cos(b), std::sin(b)});
    g.direction = Mat3::fromColumns(r, c, cross(r, c));
    return g;
}

/// Every voxel of the grid whose centre is within r mm of the centre voxel's, in patient space.
std::set<std::size_t> bruteForce(const Geometry& g, VoxelIndex c, double r, int planeAxis = -1) {
    std::set<std::size_t> out;
    const Vec3 pc = g.voxelToPatient({double(c.i), double(c.j), double(c.k)});
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                const int idx[3] = {i, j, k}, ci[3] = {c.i, c.j, c.k};
                if (planeAxis >= 0 && idx[planeAxis] != ci[planeAxis]) continue;
                const Vec3 d = g.voxelToPatient({double(i), double(j), double(k)}) - pc;
                if (dot(d, d) <= r * r + 1e-9) out.insert(g.index(i, j, k));
            }
    return out;
}

std::set<std::size_t> asSet(const std::vector<std::size_t>& v) { return {v.begin(), v.end()}; }

}  // namespace

TEST(LabelBrush, FiveMillimetreBallOnAnAnisotropicGrid) {
    // 0.5 x 0.5 x 2 mm, radius 2.5 mm: the centre plane holds di^2 + dj^2 <= 25 (81 voxels), the
    // planes at +-2 mm hold di^2 + dj^2 <= 9 (29 each), +-4 mm is out: 139 voxels.
    const Geometry g = grid({0.5, 0.5, 2.0});
    const LabelBrush ball(g, BrushShape::Ball, 5.0);
    EXPECT_EQ(ball.offsets().size(), 139u);
    const VoxelIndex c{20, 20, 10};
    EXPECT_EQ(asSet(ball.footprint(c)), bruteForce(g, c, 2.5));
    for (const auto& o : ball.offsets()) EXPECT_LE(std::abs(o[2]), 1);
}

TEST(LabelBrush, DiscStaysInTheViewPlane) {
    const Geometry g = grid({0.5, 0.5, 2.0});
    const VoxelIndex c{20, 20, 10};
    const LabelBrush axial(g, BrushShape::Disc, 5.0, 2);
    EXPECT_EQ(axial.offsets().size(), 81u);
    EXPECT_EQ(asSet(axial.footprint(c)), bruteForce(g, c, 2.5, 2));
    // Sagittal (normal i): dj over 0.5 mm, dk over 2 mm: 11 + 7 + 7.
    const LabelBrush sagittal(g, BrushShape::Disc, 5.0, 0);
    EXPECT_EQ(sagittal.offsets().size(), 25u);
    EXPECT_EQ(asSet(sagittal.footprint(c)), bruteForce(g, c, 2.5, 0));
}

TEST(LabelBrush, ObliqueGridsMeasureInPatientSpace) {
    for (double d : {3.0, 5.0, 7.5}) {
        const Geometry g = oblique({0.7, 0.9, 1.6});
        const VoxelIndex c{20, 20, 10};
        const LabelBrush ball(g, BrushShape::Ball, d);
        EXPECT_EQ(asSet(ball.footprint(c)), bruteForce(g, c, d / 2)) << d << " mm";
        const LabelBrush disc(g, BrushShape::Disc, d, 1);
        EXPECT_EQ(asSet(disc.footprint(c)), bruteForce(g, c, d / 2, 1)) << d << " mm";
    }
}

TEST(LabelBrush, ClippedAtTheEdgesAndNeverEmpty) {
    const Geometry g = grid({1, 1, 1});
    const LabelBrush ball(g, BrushShape::Ball, 4.0);
    VoxelBox box = VoxelBox::none();
    const auto corner = ball.footprint({0, 0, 0}, &box);
    EXPECT_EQ(asSet(corner), bruteForce(g, {0, 0, 0}, 2.0));
    EXPECT_EQ(box.lo, (std::array<int, 3>{0, 0, 0}));
    EXPECT_EQ(box.hi, (std::array<int, 3>{2, 2, 2}));
    const LabelBrush tiny(g, BrushShape::Ball, 0.1);
    EXPECT_EQ(tiny.offsets().size(), 1u) << "a brush smaller than a voxel still paints the voxel under it";
}

TEST(LabelStroke, PaintsAlongTheDragWithoutGapsAsOneUndoStep) {
    LabelMap layer(grid({1, 1, 1}, {60, 20, 3}));
    LabelTable table;
    table.ensure(2);
    LabelHistory history;
    const LabelBrush brush(layer.geometry(), BrushShape::Disc, 3.0, 2);
    LabelStroke stroke(layer, brush, 2, table);
    EXPECT_EQ(stroke.description(), "Paint Label 2");
    stroke.moveTo({5, 10, 1});
    const VoxelBox box = stroke.moveTo({50, 10, 1});  // one jump of 45 voxels
    // A 3 mm disc on a 1 mm grid is a 3 x 3 square (the corners are 1.41 mm away); the first
    // stamp covered columns 4..6, so this call's box starts at 7.
    EXPECT_EQ(box.lo[0], 7);
    EXPECT_EQ(box.hi[0], 51);
    EXPECT_EQ(box.lo[1], 9);
    EXPECT_EQ(box.hi[1], 11);
    for (int j = 9; j <= 11; ++j)
        for (int i = 4; i <= 51; ++i) EXPECT_EQ(layer.at(i, j, 1), 2) << i << ", " << j;
    EXPECT_EQ(layer.count(2), std::size_t(3 * 48)) << "nothing outside the swept band";
    EXPECT_EQ(layer.at(20, 10, 0), 0) << "a disc keeps to its slice";
    ASSERT_TRUE(stroke.finish(history));
    EXPECT_EQ(history.steps(), 1u);
    EXPECT_EQ(history.undoText(), "Paint Label 2");
    ASSERT_TRUE(history.undo(layer));
    EXPECT_EQ(layer.count(0), layer.voxelCount());
}

TEST(LabelStroke, LockedLabelsAreLeftAlone) {
    LabelMap layer(grid({1, 1, 1}, {20, 20, 1}));
    for (int i = 0; i < 20; ++i) layer.at(i, 10, 0) = 1;  // a row of label 1
    for (int i = 0; i < 20; ++i) layer.at(i, 11, 0) = 3;  // a row of label 3
    LabelTable table;
    table.ensure(1).locked = true;
    table.ensure(3);
    const LabelBrush brush(layer.geometry(), BrushShape::Ball, 7.0);
    LabelHistory history;
    {
        LabelStroke paint(layer, brush, 2, table);
        paint.moveTo({10, 10, 0});
        paint.finish(history);
    }
    EXPECT_EQ(layer.count(1), 20u) << "painting over a locked label does not take its voxels";
    EXPECT_EQ(layer.at(10, 11, 0), 2) << "an unlocked label's voxels are painted over";
    EXPECT_EQ(layer.at(10, 12, 0), 2);
    {
        LabelStroke erase(layer, brush, 0, table);
        EXPECT_EQ(erase.description(), "Erase");
        erase.moveTo({10, 10, 0});
        erase.finish(history);
    }
    EXPECT_EQ(layer.count(1), 20u) << "erasing leaves a locked label";
    EXPECT_EQ(layer.count(2), 0u);
    EXPECT_EQ(layer.at(10, 11, 0), 0);
    EXPECT_EQ(layer.at(0, 11, 0), 3) << "outside the brush";
    table.find(1)->name = "Bone";
    LabelStroke locked(layer, brush, 1, table);
    EXPECT_FALSE(locked.allowed());
    EXPECT_EQ(locked.description(), "Paint Bone");
    EXPECT_TRUE(locked.moveTo({3, 3, 0}).empty());
    EXPECT_FALSE(locked.finish(history)) << "nothing changed: no step";
    EXPECT_EQ(history.steps(), 2u);
}

TEST(LabelStroke, PaintsAndErasesOverOneValueOnly) {
    // Three rows under a 7 mm ball: clear, label 1, label 3.
    LabelMap layer(grid({1, 1, 1}, {20, 20, 1}));
    for (int i = 0; i < 20; ++i) layer.at(i, 10, 0) = 1;
    for (int i = 0; i < 20; ++i) layer.at(i, 11, 0) = 3;
    LabelTable table;
    table.ensure(1);
    table.ensure(2);
    table.ensure(3);
    const LabelBrush brush(layer.geometry(), BrushShape::Ball, 7.0);
    LabelHistory history;
    {
        LabelStroke paint(layer, brush, 2, table, std::uint8_t(0));  // clear voxels only
        paint.moveTo({10, 10, 0});
        paint.finish(history);
    }
    EXPECT_EQ(layer.count(1), 20u) << "label 1 is not clear: kept";
    EXPECT_EQ(layer.count(3), 20u);
    EXPECT_EQ(layer.at(10, 9, 0), 2) << "a clear voxel is painted";
    EXPECT_EQ(layer.at(10, 12, 0), 2);
    const std::size_t painted = layer.count(2);
    {
        LabelStroke erase(layer, brush, 0, table, std::uint8_t(3));  // erase label 3 only
        erase.moveTo({10, 10, 0});
        erase.finish(history);
    }
    EXPECT_EQ(layer.count(2), painted) << "label 2 is not erased";
    EXPECT_EQ(layer.count(1), 20u);
    EXPECT_EQ(layer.at(10, 11, 0), 0) << "label 3 under the brush is erased";
    EXPECT_EQ(layer.at(0, 11, 0), 3) << "outside the brush";
    EXPECT_EQ(layer.count(3), 20u - 7u) << "the ball's 7 voxels of that row";
    {
        LabelStroke paint(layer, brush, 2, table, std::uint8_t(1));  // over label 1 only
        paint.moveTo({10, 10, 0});
        paint.finish(history);
    }
    EXPECT_EQ(layer.at(10, 10, 0), 2);
    EXPECT_EQ(layer.at(10, 11, 0), 0) << "a clear voxel is not label 1: kept";
    EXPECT_EQ(history.steps(), 3u);
}

TEST(LabelBrush, PlaneDiscCoversWhatANearestVoxelViewOfTheReslicedPlaneShows) {
    // An oblique, anisotropic grid seen on the patient's axial plane (normal +z, not a voxel plane).
    const Geometry g = oblique({0.7, 0.9, 2.5});
    const Vec3 normal{0, 0, 1};
    const double diameter = 6.0, r = diameter / 2;
    const LabelBrush brush(g, diameter, normal);
    EXPECT_TRUE(brush.acrossPlane());
    LabelMap layer(g);
    LabelStroke stroke(layer, brush, 1, LabelTable());
    // The brush at a point of the plane z = z0 (a continuous voxel position).
    const Vec3 at = g.patientToVoxel(g.voxelToPatient({20.3, 19.6, 9.8}));
    const Vec3 p = g.voxelToPatient(at);
    stroke.moveTo(at);
    // (1) Every point of the disc (sampled finely, a hair inside the rim) shows a painted voxel.
    const Vec3 u{1, 0, 0}, w{0, 1, 0};
    const double diagonal = 0.5 * std::sqrt(0.7 * 0.7 + 0.9 * 0.9 + 2.5 * 2.5);  // centre to a box corner
    int samples = 0;
    for (double a = -r; a <= r; a += 0.05)
        for (double b = -r; b <= r; b += 0.05) {
            if (a * a + b * b > (r - diagonal) * (r - diagonal)) continue;  // the rim: centres decide there
            const Vec3 v = g.patientToVoxel(p + u * a + w * b);
            const std::size_t idx = g.index(int(std::lround(v.x)), int(std::lround(v.y)), int(std::lround(v.z)));
            EXPECT_EQ(layer[idx], 1) << "disc point (" << a << ", " << b << ") shows an unpainted voxel";
            ++samples;
        }
    EXPECT_GT(samples, 2000);
    // (2) Every painted voxel's box is cut by the plane and its centre is within r of p in the plane.
    double half = 0;
    for (int axis = 0; axis < 3; ++axis) half += 0.5 * g.spacing[axis] * std::abs(dot(g.direction.col[axis], normal));
    std::size_t painted = 0;
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                if (!layer[g.index(i, j, k)]) continue;
                ++painted;
                const Vec3 d = g.voxelToPatient({double(i), double(j), double(k)}) - p;
                EXPECT_LE(std::abs(d.z), half + 1e-9);
                EXPECT_LE(d.x * d.x + d.y * d.y, r * r + 1e-9);
            }
    // A disc 6 mm across on a slab one voxel thick: about pi r^2 / (mm^2 per voxel face) voxels, not a ball.
    EXPECT_GT(painted, 30u);
    EXPECT_LT(painted, 200u);
}

TEST(LabelStroke, EraserClearsTheActiveLabelOnlyUnlessAllLabels) {
    // Rows of label 3 (locked), 1 and 2 under a 7 mm disc: 7 voxels of each row are covered (|dx|
    // <= 3.5 mm in its own row, <= sqrt(3.5^2 - 1) = 3.35 mm in the rows beside it).
    auto layerOf = [] {
        LabelMap layer(grid({1, 1, 1}, {20, 20, 1}));
        for (int i = 0; i < 20; ++i) {
            layer.at(i, 9, 0) = 3;
            layer.at(i, 10, 0) = 1;
            layer.at(i, 11, 0) = 2;
        }
        return layer;
    };
    LabelTable table;
    table.ensure(1);
    table.ensure(2);
    table.ensure(3).locked = true;
    const LabelBrush brush(grid({1, 1, 1}, {20, 20, 1}), BrushShape::Disc, 7.0, 2);
    auto erase = [&](LabelMap& layer, std::uint8_t active, EraseScope scope, std::optional<std::uint8_t> over,
                     std::string* description = nullptr) {
        LabelHistory history;
        LabelStroke stroke = LabelStroke::eraser(layer, brush, active, scope, table, over);
        if (description) *description = stroke.description();
        stroke.moveTo({10, 10, 0});
        return stroke.finish(history);
    };

    LabelMap active = layerOf();
    std::string description;
    ASSERT_TRUE(erase(active, 2, EraseScope::ActiveLabel, std::nullopt, &description));
    EXPECT_EQ(description, "Erase Label 2");
    EXPECT_EQ(active.count(2), 20u - 7u) << "the active label's voxels under the disc are cleared";
    EXPECT_EQ(active.at(10, 11, 0), 0);
    EXPECT_EQ(active.count(1), 20u) << "the label underneath is left";
    EXPECT_EQ(active.count(3), 20u);

    LabelMap all = layerOf();
    ASSERT_TRUE(erase(all, 2, EraseScope::AllLabels, std::nullopt, &description));
    EXPECT_EQ(description, "Erase");
    EXPECT_EQ(all.count(1), 20u - 7u) << "every unlocked label is cleared";
    EXPECT_EQ(all.count(2), 20u - 7u);
    EXPECT_EQ(all.count(3), 20u) << "a locked label never";
    EXPECT_EQ(all.at(10, 10, 0), 0);
    EXPECT_EQ(all.at(0, 10, 0), 1) << "outside the disc";

    LabelMap locked = layerOf();
    EXPECT_FALSE(erase(locked, 3, EraseScope::ActiveLabel, std::nullopt)) << "a locked active label: nothing";
    EXPECT_EQ(locked.count(3), 20u);
    EXPECT_FALSE(LabelStroke::eraser(locked, brush, 3, EraseScope::ActiveLabel, table).allowed());

    // A "Paint over" label narrows either scope to it; "clear voxels only" leaves the scope's choice.
    LabelMap over = layerOf();
    ASSERT_TRUE(erase(over, 2, EraseScope::ActiveLabel, std::uint8_t(1), &description));
    EXPECT_EQ(description, "Erase Label 1");
    EXPECT_EQ(over.count(1), 20u - 7u);
    EXPECT_EQ(over.count(2), 20u);
    LabelMap clearOnly = layerOf();
    ASSERT_TRUE(erase(clearOnly, 1, EraseScope::ActiveLabel, std::uint8_t(0)));
    EXPECT_EQ(clearOnly.count(1), 20u - 7u);
    EXPECT_EQ(clearOnly.count(2), 20u);
}

TEST(LabelStroke, PaintsAndErasesOnlyWhereTheVoxelsValueIsInTheRange) {
    // Voxel values 10 x i: the range [100, 300] holds columns 10..30 only.
    const Geometry g = grid({1, 1, 1}, {60, 20, 3});
    Volume volume(g, PixelType::Int16);
    for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 20; ++j)
            for (int i = 0; i < 60; ++i) volume.setValue(g.index(i, j, k), 10.0 * i);
    LabelMap layer(g);
    LabelTable table;
    table.ensure(2);
    LabelHistory history;
    const LabelBrush brush(g, BrushShape::Disc, 3.0, 2);  // a 3 x 3 square on this grid
    LabelStroke paint(layer, brush, 2, table);
    paint.limitToValues(volume, 100, 300);
    paint.moveTo({5, 10, 1});
    paint.moveTo({50, 10, 1});
    for (int j = 9; j <= 11; ++j)
        for (int i = 4; i <= 51; ++i) EXPECT_EQ(layer.at(i, j, 1), i >= 10 && i <= 30 ? 2 : 0) << i << ", " << j;
    EXPECT_EQ(layer.count(2), std::size_t(3 * 21));
    ASSERT_TRUE(paint.finish(history));

    // The eraser under [200, 250] clears columns 20..25 only.
    LabelStroke erase = LabelStroke::eraser(layer, brush, 2, EraseScope::ActiveLabel, table);
    erase.limitToValues(volume, 200, 250);
    erase.moveTo({5, 10, 1});
    erase.moveTo({50, 10, 1});
    for (int i = 4; i <= 51; ++i)
        EXPECT_EQ(layer.at(i, 10, 1), (i >= 10 && i < 20) || (i > 25 && i <= 30) ? 2 : 0) << "column " << i;
    ASSERT_TRUE(erase.finish(history));
    ASSERT_TRUE(history.undo(layer));
    EXPECT_EQ(layer.count(2), std::size_t(3 * 21)) << "one undo step brings the erased columns back";

    LabelStroke other(layer, brush, 2, table);
    EXPECT_THROW(other.limitToValues(volume, 300, 100), std::invalid_argument);
    const Volume smaller(grid({1, 1, 1}, {30, 20, 3}), PixelType::Int16);
    EXPECT_THROW(other.limitToValues(smaller, 0, 1), std::invalid_argument);
}
