/// @brief Fill between slices on shapes with a known answer: an ellipsoid and a branching tube drawn
/// on every 6th slice (Dice against the whole shape, both methods measured), labelled slices and
/// other labels left as they were, regions that start between slices, the sparse axis, threads,
/// progress and cancellation.
#include "lucent/core/SliceFill.h"

#include "SliceFillShapes.h"
#include "lucent/core/Errors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

using namespace lucent;

namespace {

LabelMap grid(int nx, int ny, int nz, Vec3 spacing = {1, 1, 1}) {
    return lucent::testing::fillGrid(nx, ny, nz, spacing);
}
LabelMap ellipsoid() { return lucent::testing::fillEllipsoid(); }
using lucent::testing::branchingTube;
using lucent::testing::everyNthSlice;
using lucent::testing::leaningTube;

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

TEST(SliceFill, LabelledSlicesAndOtherLabelsStayExactlyAsTheyWere) {
    // Label 1: the ellipsoid on every 6th slice; label 2 drawn across slices 14..16 where label 1
    // will grow; label 3 a block on every slice (not chosen).
    LabelMap m = everyNthSlice(ellipsoid(), 0, 6);
    for (int k = 14; k <= 16; ++k)
        for (int j = 30; j < 50; ++j)
            for (int i = 40; i < 60; ++i) m.at(i, j, k) = 2;
    for (int k = 0; k < 70; ++k)
        for (int j = 0; j < 4; ++j)
            for (int i = 0; i < 6; ++i) m.at(i, j, k) = 3;
    const LabelMap before = m;
    SliceFillOptions options;
    options.labels = {1};
    const SliceFillReport report = fillBetweenSlices(m, options);
    ASSERT_EQ(report.axis, 2);
    ASSERT_EQ(report.labels.size(), 1u);
    std::size_t gained = 0;
    for (int k = 0; k < 70; ++k)
        for (int j = 0; j < 80; ++j)
            for (int i = 0; i < 90; ++i) {
                const std::uint8_t was = before.at(i, j, k), now = m.at(i, j, k);
                if (k % 6 == 0 || was != 0) {
                    ASSERT_EQ(now, was) << "voxel " << i << "," << j << "," << k;
                } else {
                    ASSERT_TRUE(now == 0 || now == 1);
                    gained += now == 1;
                }
            }
    EXPECT_EQ(gained, report.labels[0].voxelsAdded);
    EXPECT_GT(gained, 30000u);  // the fill happened (the ellipsoid holds about 43,000 voxels)
    EXPECT_EQ(m.count(2), before.count(2));
    EXPECT_EQ(m.count(3), before.count(3));
    // Labelled slices 12..60 hold it (slices 0 and 6 lie below the ellipsoid); 40 slices between.
    EXPECT_EQ(report.labels[0].labelledSlices, 9);
    EXPECT_EQ(report.labels[0].filledSlices, 40);
}

TEST(SliceFill, OnlyTheChosenLabelsAreFilledAndTheLowerValueWinsASharedVoxel) {
    // Label 4: a disc of radius 5 on slices 0 and 8. Label 7: a disc of radius 7 on the same centre
    // on slices 1 and 7, so both reach the centre on slices 2..6. Label 5: a disc on slices 0 and 8
    // elsewhere, not chosen.
    LabelMap m = grid(40, 40, 9);
    auto disc = [&](int k, double cx, double cy, double r, std::uint8_t v) {
        for (int j = 0; j < 40; ++j)
            for (int i = 0; i < 40; ++i)
                if ((i - cx) * (i - cx) + (j - cy) * (j - cy) <= r * r) m.at(i, j, k) = v;
    };
    disc(0, 12, 12, 5, 4), disc(8, 12, 12, 5, 4);
    disc(1, 12, 12, 7, 7), disc(7, 12, 12, 7, 7);
    disc(0, 30, 30, 5, 5), disc(8, 30, 30, 5, 5);
    SliceFillOptions options;
    options.labels = {7, 4};
    const SliceFillReport report = fillBetweenSlices(m, options);
    ASSERT_EQ(report.labels.size(), 2u);
    EXPECT_EQ(report.labels[0].label, 4);  // ascending: 4 first, so it keeps what both reach
    EXPECT_EQ(report.labels[1].label, 7);
    for (int k = 1; k < 8; ++k) EXPECT_EQ(m.at(30, 30, k), 0) << "label 5 was not chosen, slice " << k;
    for (int k : {1, 7}) EXPECT_EQ(m.at(12, 12, k), 7) << "label 7's own slice " << k << " is not overwritten";
    for (int k = 2; k <= 6; ++k) {
        EXPECT_EQ(m.at(12, 12, k), 4) << "inside both: the lower value, slice " << k;
        EXPECT_EQ(m.at(18, 12, k), 7) << "inside label 7's disc only, slice " << k;
    }
}

TEST(SliceFill, ARegionWithNoPartnerShrinksToNothingHalfwayAndNothingPassesTheEnds) {
    // Slice 4: disc P. Slice 16: disc P and disc Q far from it (Q starts between the slices). Slice
    // 0..3 and 17..23 hold nothing: no extrapolation.
    LabelMap m = grid(60, 40, 24);
    auto disc = [&](int k, double cx, double r) {
        for (int j = 0; j < 40; ++j)
            for (int i = 0; i < 60; ++i)
                if ((i - cx) * (i - cx) + (j - 20) * (j - 20) <= r * r) m.at(i, j, k) = 1;
    };
    disc(4, 14, 8), disc(16, 14, 8), disc(16, 46, 8);
    fillBetweenSlices(m, {});
    auto countNear = [&](int k, double cx) {
        int n = 0;
        for (int j = 0; j < 40; ++j)
            for (int i = 0; i < 60; ++i) n += m.at(i, j, k) == 1 && (i - cx) * (i - cx) + (j - 20) * (j - 20) <= 64;
        return n;
    };
    for (int k : {0, 1, 2, 3, 17, 20, 23}) EXPECT_EQ(countNear(k, 14) + countNear(k, 46), 0) << "slice " << k;
    for (int k = 5; k <= 15; ++k) EXPECT_GT(countNear(k, 14), 190) << "P goes through slice " << k;
    for (int k = 5; k <= 10; ++k) EXPECT_EQ(countNear(k, 46), 0) << "Q is gone halfway: slice " << k;
    // Q grows from nothing halfway (slice 10) to its whole disc at 16, never past it.
    int previous = 0;
    for (int k = 11; k <= 15; ++k) {
        const int n = countNear(k, 46);
        EXPECT_GT(n, previous) << "Q grows towards its slice: " << k;
        previous = n;
    }
    EXPECT_LT(previous, countNear(16, 46));
}

TEST(SliceFill, TheSparseAxisIsTheOneWithEmptySlicesBetweenLabelledOnes) {
    LabelMap alongK = everyNthSlice(ellipsoid(), 0, 6);
    EXPECT_EQ(sparseAxis(alongK), 2);
    // A second label drawn on every slice of k (a rod) leaves k the sparse axis: each label's gaps
    // count within its own span.
    for (int k = 0; k < 70; ++k) alongK.at(1, 1, k) = 2;
    EXPECT_EQ(sparseAxis(alongK), 2);
    EXPECT_EQ(sparseAxis(alongK, {2}), 2);  // the rod alone: no gaps on any axis, the tie goes to k
    // The same ellipsoid drawn on every 5th slice of i.
    LabelMap alongI = ellipsoid();
    for (int k = 0; k < 70; ++k)
        for (int j = 0; j < 80; ++j)
            for (int i = 0; i < 90; ++i)
                if (i % 5 != 0) alongI.at(i, j, k) = 0;
    EXPECT_EQ(sparseAxis(alongI), 0);
    SliceFillOptions options;
    const SliceFillReport report = fillBetweenSlices(alongI, options);
    EXPECT_EQ(report.axis, 0);
    EXPECT_GE(dice(alongI, ellipsoid(), 1), 0.96);
    EXPECT_EQ(sparseAxis(grid(5, 5, 5)), -1);
    EXPECT_EQ(sparseAxis(alongK, {9}), -1);  // a label with no voxel
    options.axis = 3;
    EXPECT_THROW(fillBetweenSlices(alongI, options), std::invalid_argument);
}

TEST(SliceFill, OneAndTwoThreadsFillTheSameVoxelsAndProgressCountsEveryGap) {
    const LabelMap sparse = everyNthSlice(branchingTube(), 6, 6);
    for (FillMethod method : {FillMethod::Morphological, FillMethod::SignedDistance}) {
        LabelMap one = sparse, two = sparse;
        SliceFillOptions options;
        options.method = method;
        options.threads = 1;
        fillBetweenSlices(one, options);
        options.threads = 2;
        std::size_t calls = 0, last = 0, total = 0;
        fillBetweenSlices(two, options, [&](std::size_t done, std::size_t all) {
            ++calls, last = done, total = all;
            return true;
        });
        EXPECT_TRUE(std::equal(one.data(), one.data() + one.voxelCount(), two.data()));
        EXPECT_EQ(total, 10u);  // slices 6, 12, ..., 66: ten gaps
        EXPECT_EQ(calls, 10u);
        EXPECT_EQ(last, 10u);
    }
}

TEST(SliceFill, CancellingStopsTheFill) {
    LabelMap m = everyNthSlice(branchingTube(), 6, 6);
    SliceFillOptions options;
    options.threads = 1;
    std::size_t calls = 0;
    EXPECT_THROW(fillBetweenSlices(m, options, [&](std::size_t, std::size_t) { return ++calls < 3; }), Cancelled);
    EXPECT_EQ(calls, 3u);  // no gap started after the refusal
}

namespace {

/// Brute-force signed distance on one k slice (pixel centres, 1 mm pixels): distance to the nearest
/// pixel of the other kind, negative inside.
std::vector<double> bruteSignedDistance(const LabelMap& m, int k) {
    const int nx = m.geometry().dims[0], ny = m.geometry().dims[1];
    std::vector<double> sd(std::size_t(nx) * ny);
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const bool in = m.at(x, y, k) == 1;
            double best = 1e300;
            for (int v = 0; v < ny; ++v)
                for (int u = 0; u < nx; ++u)
                    if ((m.at(u, v, k) == 1) != in) best = std::min(best, double((u - x) * (u - x) + (v - y) * (v - y)));
            sd[std::size_t(y) * nx + x] = in ? -std::sqrt(best) : std::sqrt(best);
        }
    return sd;
}

/// Brute-force distance from (x, y) to the nearest pixel of slice k where `keep(u, v)` holds.
template <class Keep>
double bruteDistance(const LabelMap& m, int x, int y, const Keep& keep) {
    double best = 1e300;
    for (int v = 0; v < m.geometry().dims[1]; ++v)
        for (int u = 0; u < m.geometry().dims[0]; ++u)
            if (keep(u, v)) best = std::min(best, double((u - x) * (u - x) + (v - y) * (v - y)));
    return best;
}

}  // namespace

TEST(SliceFill, SignedDistanceEqualsABruteForceReferenceVoxelForVoxel) {
    // An ellipse on slice 0 and a smaller, shifted one on slice 6 (they overlap: one group).
    LabelMap m = grid(34, 30, 7);
    for (int y = 0; y < 30; ++y)
        for (int x = 0; x < 34; ++x) {
            const double a = (x - 14.0) / 9, b = (y - 14.0) / 6, c = (x - 19.0) / 5, d = (y - 16.0) / 7;
            if (a * a + b * b <= 1) m.at(x, y, 0) = 1;
            if (c * c + d * d <= 1) m.at(x, y, 6) = 1;
        }
    const std::vector<double> sdA = bruteSignedDistance(m, 0), sdB = bruteSignedDistance(m, 6);
    LabelMap filled = m;
    SliceFillOptions options;
    options.method = FillMethod::SignedDistance;
    fillBetweenSlices(filled, options);
    std::size_t inside = 0;
    for (int k = 1; k < 6; ++k)
        for (int y = 0; y < 30; ++y)
            for (int x = 0; x < 34; ++x) {
                const double t = k / 6.0, s = (1 - t) * sdA[std::size_t(y) * 34 + x] + t * sdB[std::size_t(y) * 34 + x];
                ASSERT_EQ(filled.at(x, y, k), s < 0 ? 1 : 0) << x << "," << y << "," << k;
                inside += s < 0;
            }
    EXPECT_GT(inside, 500u);
}

TEST(SliceFill, TheMorphologicalMiddleSliceIsTheMedianOfABruteForceReference) {
    // A disc of radius 8 on slice 0 and a square of half-width 5 on slice 2, both centred on
    // (15, 15) (no centroid shift): slice 1 is {x : d(x, A & B) <= d(x, outside A | B)} (Meyer's
    // median as Albu et al. use it, with Euclidean discs).
    LabelMap m = grid(31, 31, 3);
    for (int y = 0; y < 31; ++y)
        for (int x = 0; x < 31; ++x) {
            if ((x - 15) * (x - 15) + (y - 15) * (y - 15) <= 64) m.at(x, y, 0) = 1;
            if (std::abs(x - 15) <= 5 && std::abs(y - 15) <= 5) m.at(x, y, 2) = 1;
        }
    LabelMap filled = m;
    fillBetweenSlices(filled, {});
    auto a = [&](int u, int v) { return m.at(u, v, 0) == 1; };
    auto b = [&](int u, int v) { return m.at(u, v, 2) == 1; };
    std::size_t between = 0;
    for (int y = 0; y < 31; ++y)
        for (int x = 0; x < 31; ++x) {
            const double toBoth = bruteDistance(m, x, y, [&](int u, int v) { return a(u, v) && b(u, v); });
            const double toOutside = bruteDistance(m, x, y, [&](int u, int v) { return !a(u, v) && !b(u, v); });
            const bool expected = toBoth <= toOutside;
            ASSERT_EQ(filled.at(x, y, 1), expected ? 1 : 0) << x << "," << y;
            between += expected && !(a(x, y) && b(x, y));
        }
    EXPECT_GT(between, 20u) << "the median lies strictly between the square and the disc somewhere";
}
