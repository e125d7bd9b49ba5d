/// @brief Label statistics and island tools on the real ITK T1 brain and its 6-class label map
/// (labels 4/5/6 = CSF/GM/WM), checked against direct computations and a flood fill's invariants.
#include "lucent/core/LabelIslands.h"
#include "lucent/core/LabelStatistics.h"
#include "lucent/io/VolumeFile.h"
#include "RealData.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

using namespace lucent;

namespace {

std::string data(const std::string& sub) { return lucent::testing::realData(sub); }

}  // namespace

TEST(LabelRealData, StatisticsOfTheItkClassesMatchADirectSum) {
    const std::string t1 = data("itk/KmeansTest_T1UCharRaw.nii.gz");
    const std::string classes = data("itk/KmeansTest_T1KmeansPrelimSegmentation.nii.gz");
    if (t1.empty() || classes.empty()) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh (CI does)";
    const Volume volume = io::readVolumeFile(t1);
    const LabelMap labels = io::readLabelMapFile(classes);
    const auto stats = computeLabelStatistics(volume, labels);
    ASSERT_GE(stats.size(), 3u);
    std::size_t total = 0;
    for (const auto& s : stats) {
        double sum = 0, sq = 0;
        std::size_t n = 0;
        for (std::size_t i = 0; i < labels.voxelCount(); ++i)
            if (labels[i] == s.value) {
                sum += volume.value(i);
                ++n;
            }
        const double mean = sum / double(n);
        for (std::size_t i = 0; i < labels.voxelCount(); ++i)
            if (labels[i] == s.value) sq += (volume.value(i) - mean) * (volume.value(i) - mean);
        EXPECT_EQ(s.voxels, n);
        EXPECT_NEAR(s.mean, mean, 1e-9 * (1 + std::abs(mean)));
        EXPECT_NEAR(s.stddev, std::sqrt(sq / double(n)), 1e-9 * (1 + mean));
        EXPECT_NEAR(s.millilitres, double(n) * labels.geometry().voxelVolumeMl(), 1e-12);
        total += n;
    }
    EXPECT_EQ(total, labels.voxelCount() - labels.count(0));
    // T1: white matter (6) is brighter than grey matter (5), which is brighter than CSF (4).
    auto meanOf = [&](int v) {
        for (const auto& s : stats)
            if (s.value == v) return s.mean;
        return std::nan("");
    };
    EXPECT_GT(meanOf(6), meanOf(5));
    EXPECT_GT(meanOf(5), meanOf(4));
}

TEST(LabelRealData, KeepLargestLeavesOneComponentOfThatSize) {
    const std::string classes = data("itk/KmeansTest_T1KmeansPrelimSegmentation.nii.gz");
    if (classes.empty()) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh (CI does)";
    LabelMap labels = io::readLabelMapFile(classes);
    const LabelComponents before(labels, 5);
    ASSERT_GT(before.count(), 1u) << "grey matter has islands in this rough classification";
    std::size_t sum = 0;
    for (std::size_t s : before.sizes()) sum += s;
    EXPECT_EQ(sum, labels.count(5));
    const std::size_t largest = before.size(before.largest());
    const std::size_t other = labels.count(6);
    EXPECT_EQ(keepLargestIsland(labels, 5), sum - largest);
    EXPECT_EQ(labels.count(5), largest);
    EXPECT_EQ(LabelComponents(labels, 5).count(), 1u);
    EXPECT_EQ(labels.count(6), other);
    // Removing islands under 10 voxels from white matter drops exactly the small components.
    const LabelComponents wm(labels, 6);
    std::size_t small = 0;
    for (std::size_t s : wm.sizes()) small += s < 10 ? s : 0;
    EXPECT_EQ(removeSmallIslands(labels, 6, 10), small);
    const LabelComponents after(labels, 6);  // named: a range over a temporary's member would dangle
    for (std::size_t s : after.sizes()) EXPECT_GE(s, 10u);
}
