/// @brief Segmenter::takeResult (the CLI's hand-over of an engine's memory to the labels) gives result()'s
/// labels, for the engines that hand over (CPU srg, fcm; float and int16 volumes, with a ROI) and the default.
#include "SyntheticVolumes.h"

#include "lucent/core/seg/FuzzyCMeansCpu.h"
#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/core/seg/RegionGrowingCpu.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <memory>

using namespace lucent;

namespace {

/// Two runs of one request: result() of the first, takeResult() of the second, byte for byte.
void expectSameLabels(const std::function<std::unique_ptr<Segmenter>()>& make, const SegmentationRequest& r) {
    auto a = make(), b = make();
    a->start(r);
    a->run();
    b->start(r);
    b->run();
    LabelMap viaResult, handedOver;
    a->result(viaResult);
    b->takeResult(handedOver);
    ASSERT_EQ(handedOver.voxelCount(), viaResult.voxelCount()) << methodName(a->method());
    EXPECT_TRUE(handedOver.geometry().sameGrid(viaResult.geometry()));
    EXPECT_EQ(0, std::memcmp(handedOver.data(), viaResult.data(), viaResult.voxelCount())) << methodName(a->method());
    EXPECT_GT(viaResult.count(1), 0u) << "a run that labels nothing cannot tell the two apart";
}

}  // namespace

TEST(TakeResult, HandsOverTheSameLabelsAsResult) {
    // Two balls apart: region growing from one must leave the other (candidates, not grown).
    const auto ball = [](int i, int j, int k) {
        const auto d2 = [&](int x) { return (i - x) * (i - x) + (j - 18) * (j - 18) + (k - 10) * (k - 10); };
        return d2(11) < 49 || d2(29) < 36;
    };
    const Volume int16 = lucent::testing::shapeVolume({40, 36, 22}, ball, 300, 100, 20);
    Volume float32(int16.geometry(), PixelType::Float32);
    for (std::size_t i = 0; i < int16.voxelCount(); ++i) float32.setValue(i, int16.value(i) * 0.5 + 0.25);
    for (const Volume* v : {&int16, static_cast<const Volume*>(&float32)}) {
        const double scale = v == &int16 ? 1.0 : 0.5;
        SegmentationRequest r;
        r.volume = v;
        r.seeds = {{11, 18, 10}};
        r.regionGrowing.lower = 250 * scale;
        r.regionGrowing.upper = 400 * scale;
        r.fuzzyConnectedness.threshold = 0.5;
        expectSameLabels([] { return std::make_unique<RegionGrowingCpu>(); }, r);
        expectSameLabels([] { return std::make_unique<FuzzyCMeansCpu>(); }, r);
        expectSameLabels([] { return std::make_unique<FuzzyConnectednessCpu>(); }, r);
        r.roi = VoxelBox{{5, 5, 2}, {30, 30, 18}};  // outside it fcm writes 0: the inclusion bytes matter
        expectSameLabels([] { return std::make_unique<FuzzyCMeansCpu>(); }, r);
    }
}
