/// @brief The fuzzy C-means background cluster (BackgroundCluster.h): a body in air has one, in
/// whichever place the air's centre comes; a volume cropped through three tissues has none.
#include "SyntheticVolumes.h"

#include "lucent/core/seg/BackgroundCluster.h"

#include <gtest/gtest.h>

using namespace lucent;
using lucent::testing::shapeVolume;

namespace {

/// A ball of 200 in air (0), noisy, the ball off the faces.
Volume ballInAir() {
    return shapeVolume({40, 36, 30}, [](int i, int j, int k) { return (i - 20) * (i - 20) + (j - 18) * (j - 18) + (k - 15) * (k - 15) <= 100; },
                       200, 0, 20);
}

}  // namespace

TEST(BackgroundCluster, TheAirAroundABodyIsTheBackgroundWhereverItsCentreComes) {
    const Volume v = ballInAir();
    EXPECT_EQ(backgroundCluster(v, {0.0, 200.0}), 1);
    EXPECT_EQ(backgroundCluster(v, {200.0, 3.0}), 2);
    EXPECT_EQ(backgroundCluster(v, {150.0, 210.0, -5.0}), 3);
}

TEST(BackgroundCluster, AVolumeCroppedThroughSeveralTissuesHasNone) {
    // Three slabs along i: each face voxel's nearest centre is its slab's, no cluster holds half.
    const Volume v = shapeVolume(
        {60, 20, 20}, [](int i, int, int) { return i >= 20; }, 300, 100, 5);
    Volume three = v;
    for (int k = 0; k < 20; ++k)
        for (int j = 0; j < 20; ++j)
            for (int i = 40; i < 60; ++i) three.setValue(three.geometry().index(i, j, k), 500.0);
    EXPECT_EQ(backgroundCluster(three, {100.0, 300.0, 500.0}), std::nullopt);
}

TEST(BackgroundCluster, OneClusterOrAnEmptyVolumeHasNone) {
    EXPECT_EQ(backgroundCluster(ballInAir(), {0.0}), std::nullopt);
    EXPECT_EQ(backgroundCluster(Volume(), {0.0, 1.0}), std::nullopt);
}
