/// @brief Fuzzy C-means: Eq. 4 edge cases, histogram path equal to the per-voxel path, stable centres,
/// labels ordered by centre, mask.
#include "SyntheticVolumes.h"

#include "lucent/core/seg/FcmMath.h"
#include "lucent/core/seg/FuzzyCMeansCpu.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace lucent;

namespace {

Volume threeClasses(PixelType type, unsigned seed = 5) {
    Geometry g;
    g.dims = {40, 30, 20};
    Volume v(g, type);
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, 6);
    for (int k = 0; k < 20; ++k)
        for (int j = 0; j < 30; ++j)
            for (int i = 0; i < 40; ++i) {
                const double mean = i < 12 ? 150 : (i < 26 ? 50 : 100);
                v.setValue(g.index(i, j, k), mean + noise(rng));
            }
    return v;
}

struct FcmRun {
    LabelMap labels;
    std::vector<double> centres;
    std::vector<Volume> memberships;
    std::vector<std::size_t> clusterVoxels;  // the engine's figure
    int iterations = 0;
};

/// Each label's voxels, counted in the labels themselves.
std::vector<std::size_t> labelCounts(const LabelMap& labels, std::size_t clusters) {
    std::vector<std::size_t> n(clusters, 0);
    for (std::size_t i = 0; i < labels.voxelCount(); ++i)
        if (labels.data()[i]) ++n.at(labels.data()[i] - 1u);
    return n;
}

FcmRun fcm(const Volume& v, bool perVoxel, const LabelMap* mask = nullptr, unsigned threads = 0) {
    SegmentationRequest r;
    r.volume = &v;
    r.mask = mask;
    r.threads = threads;
    r.fuzzyCMeans.perVoxel = perVoxel;
    FuzzyCMeansCpu engine;
    engine.start(r);
    engine.run(1);
    FcmRun out;
    engine.result(out.labels);
    out.centres = engine.centres();
    out.memberships = engine.softMaps();
    out.clusterVoxels = engine.figures().clusterVoxels;
    out.iterations = engine.iterations();
    return out;
}

}  // namespace

TEST(FcmMath, ValueOnACentreBelongsFullyAndMembershipsSumToOne) {
    const double centres[3] = {10, 20, 30};
    double u[3];
    fcmMemberships(20, centres, 3, 2.0, u);
    EXPECT_EQ(u[0], 0.0);
    EXPECT_EQ(u[1], 1.0);
    EXPECT_EQ(u[2], 0.0);
    fcmMemberships(12, centres, 3, 2.0, u);
    EXPECT_NEAR(u[0] + u[1] + u[2], 1.0, 1e-12);
    EXPECT_GT(u[0], u[1]);
    // m = 2: u_k = 1 / sum_j (d_k/d_j)^2 with d = 2, 8, 18.
    EXPECT_NEAR(u[0], 1.0 / (1 + 4.0 / 64 + 4.0 / 324), 1e-12);
}

namespace {

/// Eq. 4 exactly as the paper writes it (c^2 powers): the reference for the O(c) form.
void quadraticMemberships(double x, const std::vector<double>& centres, double m, std::vector<double>& u) {
    const int c = int(centres.size());
    u.assign(c, 0.0);
    for (int k = 0; k < c; ++k)
        if (x == centres[k]) {
            u[k] = 1.0;
            return;
        }
    for (int k = 0; k < c; ++k) {
        double s = 0.0;
        for (int j = 0; j < c; ++j) s += std::pow(std::abs(x - centres[k]) / std::abs(x - centres[j]), 2.0 / (m - 1.0));
        u[k] = 1.0 / s;
    }
}

}  // namespace

TEST(FcmMath, LinearFormEqualsEquationFour) {
    std::mt19937 rng(12);
    std::uniform_real_distribution<double> value(-1000, 3000);
    double worst = 0;
    for (const double m : {1.1, 1.5, 2.0, 2.5, 4.0}) {
        for (const int c : {2, 3, 7, 20, 64}) {
            std::vector<double> centres(c), u(c), reference;
            for (int trial = 0; trial < 200; ++trial) {
                for (auto& x : centres) x = value(rng);
                // Values near a centre, far outside, and between: the terms span many magnitudes.
                const double x = trial % 3 == 0 ? centres[trial % c] + 1e-6 * (trial + 1) : value(rng) * (1 + trial % 2);
                fcmMemberships(x, centres.data(), c, m, u.data());
                quadraticMemberships(x, centres, m, reference);
                for (int k = 0; k < c; ++k) worst = std::max(worst, std::abs(u[k] - reference[k]));
            }
        }
    }
    EXPECT_LT(worst, 1e-9);
    // Ties to an exact centre still go to the lowest index.
    const double twins[3] = {5, 5, 9};
    double u[3];
    fcmMemberships(5, twins, 3, 2.0, u);
    EXPECT_EQ(u[0], 1.0);
    EXPECT_EQ(u[1], 0.0);
    EXPECT_EQ(u[2], 0.0);
}

class FcmPaths : public ::testing::TestWithParam<PixelType> {};

TEST_P(FcmPaths, HistogramEqualsPerVoxel) {
    const Volume v = threeClasses(GetParam());
    const FcmRun h = fcm(v, false), p = fcm(v, true, nullptr, 3);
    EXPECT_EQ(h.iterations, p.iterations);
    ASSERT_EQ(h.centres.size(), 3u);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(h.centres[k], p.centres[k], 1e-9 * std::abs(h.centres[k]));
    EXPECT_EQ(0, std::memcmp(h.labels.data(), p.labels.data(), h.labels.voxelCount()));
    EXPECT_EQ(h.clusterVoxels, labelCounts(h.labels, 3));
    EXPECT_EQ(p.clusterVoxels, labelCounts(p.labels, 3));
    double worst = 0;
    for (int k = 0; k < 3; ++k)
        for (std::size_t i = 0; i < v.voxelCount(); ++i)
            worst = std::max(worst, double(std::abs(h.memberships[k].float32Data()[i] - p.memberships[k].float32Data()[i])));
    EXPECT_LT(worst, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Types, FcmPaths, ::testing::Values(PixelType::Int16, PixelType::Float32));

TEST(FuzzyCMeans, CentresStableAndLabelsAscend) {
    const Volume v = threeClasses(PixelType::Float32);
    const FcmRun a = fcm(v, false);
    EXPECT_NEAR(a.centres[0], 50, 1.0);
    EXPECT_NEAR(a.centres[1], 100, 1.0);
    EXPECT_NEAR(a.centres[2], 150, 1.0);
    // Label 1 = lowest centre: the middle band (i 12..25) has mean 50.
    EXPECT_EQ(a.labels.at(15, 5, 5), 1);
    EXPECT_EQ(a.labels.at(30, 5, 5), 2);
    EXPECT_EQ(a.labels.at(5, 5, 5), 3);
    // Another noise draw: the same centres within a fraction of the noise.
    const FcmRun b = fcm(threeClasses(PixelType::Float32, 99), false);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(a.centres[k], b.centres[k], 0.5);
}

TEST(FuzzyCMeans, MaskedVoxelsGetLabelZero) {
    const Volume v = threeClasses(PixelType::Int16);
    LabelMap mask(v.geometry());
    for (int k = 0; k < 20; ++k)
        for (int j = 0; j < 15; ++j)
            for (int i = 0; i < 40; ++i) mask.at(i, j, k) = 1;
    const FcmRun r = fcm(v, false, &mask);
    EXPECT_EQ(r.labels.count(0), v.voxelCount() / 2);
    // The figure counts the included voxels only: half the volume in all.
    EXPECT_EQ(r.clusterVoxels, labelCounts(r.labels, 3));
    EXPECT_EQ(r.clusterVoxels[0] + r.clusterVoxels[1] + r.clusterVoxels[2], v.voxelCount() / 2);
    EXPECT_EQ(r.labels.at(5, 20, 5), 0);
    EXPECT_EQ(r.memberships[0].float32Data()[v.geometry().index(5, 20, 5)], 0.0f);
}

TEST(FuzzyCMeans, TwoHundredFiftyFiveClustersFinishInOrder) {
    // 64^3 voxels over 4096 distinct values: with c^2 powers per value this never finished.
    Geometry g;
    g.dims = {64, 64, 64};
    Volume v(g, PixelType::Int16);
    std::mt19937 rng(255);
    std::uniform_int_distribution<int> value(0, 4095);
    for (std::size_t i = 0; i < v.voxelCount(); ++i) v.setValue(i, value(rng));
    SegmentationRequest r;
    r.volume = &v;
    r.fuzzyCMeans.clusters = 255;
    FuzzyCMeansCpu engine;
    engine.start(r);
    const StepReport report = engine.run(1000);
    ASSERT_TRUE(report.finished);
    LabelMap labels;
    engine.result(labels);
    const auto centres = engine.centres();
    ASSERT_EQ(centres.size(), 255u);
    EXPECT_TRUE(std::is_sorted(centres.begin(), centres.end()));
    // Labels 1..255, each used, ascending with the value (nearest centre in one dimension).
    std::vector<int> lowest(4096, 256), highest(4096, 0);
    for (std::size_t i = 0; i < v.voxelCount(); ++i) {
        const int x = int(v.value(i)), label = labels[i];
        lowest[x] = std::min(lowest[x], label);
        highest[x] = std::max(highest[x], label);
    }
    int previous = 1;
    std::vector<bool> used(256, false);
    for (int x = 0; x < 4096; ++x) {
        if (highest[x] == 0) continue;  // a value no voxel took
        EXPECT_EQ(lowest[x], highest[x]) << "value " << x << " got two labels";
        EXPECT_GE(lowest[x], previous) << "labels descend at value " << x;
        EXPECT_GE(lowest[x], 1);
        EXPECT_LE(highest[x], 255);
        previous = highest[x];
        used[highest[x]] = true;
    }
    EXPECT_EQ(std::count(used.begin() + 1, used.end(), true), 255);
}

TEST(FuzzyCMeans, TooFewIntensitiesIsAClearError) {
    Geometry g;
    g.dims = {4, 4, 4};
    Volume v(g, PixelType::Int16);
    v.setValue(0, 5);
    SegmentationRequest r;
    r.volume = &v;
    FuzzyCMeansCpu engine;
    EXPECT_THROW(engine.start(r), std::invalid_argument);
    r.fuzzyCMeans.clusters = 2;
    r.fuzzyCMeans.fuzziness = 1.0;
    EXPECT_THROW(engine.start(r), std::invalid_argument);
}
