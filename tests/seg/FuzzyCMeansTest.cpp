/// @brief Fuzzy C-means: Eq. 4 edge cases, histogram path equal to the per-voxel path, stable centres,
/// labels ordered by centre, mask.
#include "SyntheticVolumes.h"

#include "lucent/core/seg/FcmMath.h"
#include "lucent/core/seg/FuzzyCMeansCpu.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

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
    int iterations = 0;
};

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

class FcmPaths : public ::testing::TestWithParam<PixelType> {};

TEST_P(FcmPaths, HistogramEqualsPerVoxel) {
    const Volume v = threeClasses(GetParam());
    const FcmRun h = fcm(v, false), p = fcm(v, true, nullptr, 3);
    EXPECT_EQ(h.iterations, p.iterations);
    ASSERT_EQ(h.centres.size(), 3u);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(h.centres[k], p.centres[k], 1e-9 * std::abs(h.centres[k]));
    EXPECT_EQ(0, std::memcmp(h.labels.data(), p.labels.data(), h.labels.voxelCount()));
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
    EXPECT_EQ(r.labels.at(5, 20, 5), 0);
    EXPECT_EQ(r.memberships[0].float32Data()[v.geometry().index(5, 20, 5)], 0.0f);
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
