/// @brief The interval control's histogram: counts on a volume whose values are known by construction,
/// the bin rule at the edges, and the stride that bounds the work on large volumes.
#include "lucent/core/ValueHistogram.h"

#include <gtest/gtest.h>

using namespace lucent;

namespace {
/// 10 x 10 x 10: the first 600 voxels -1000 (air), 300 at 40, 100 at 1000.
Volume threeTissues() {
    Geometry g;
    g.dims = {10, 10, 10};
    Volume v(g, PixelType::Int16);
    for (std::size_t i = 0; i < v.voxelCount(); ++i) v.setValue(i, i < 600 ? -1000 : i < 900 ? 40 : 1000);
    return v;
}
}  // namespace

TEST(ValueHistogram, CountsEachTissueInItsBin) {
    const ValueHistogram h = sampleHistogram(threeTissues(), -1000, 1000, 20);  // bins 100 wide
    ASSERT_EQ(h.counts.size(), 20u);
    EXPECT_EQ(h.sampled, 1000u);
    EXPECT_EQ(h.counts[0], 600u) << "-1000 is the range's low edge: first bin";
    EXPECT_EQ(h.counts[10], 300u) << "40 lies in [0, 100)";
    EXPECT_EQ(h.counts[19], 100u) << "the range's high edge falls in the last bin";
    std::uint64_t total = 0;
    for (auto c : h.counts) total += c;
    EXPECT_EQ(total, 1000u);
}

TEST(ValueHistogram, ValuesOutsideTheRangeHaveNoBin) {
    const ValueHistogram h = sampleHistogram(threeTissues(), -500, 500, 10);
    std::uint64_t total = 0;
    for (auto c : h.counts) total += c;
    EXPECT_EQ(total, 300u) << "air and bone lie outside -500..500";
    EXPECT_EQ(h.binOf(-500.5), -1);
    EXPECT_EQ(h.binOf(500), 9);
}

TEST(ValueHistogram, LargeVolumesAreSampledWithAStride) {
    const ValueHistogram h = sampleHistogram(threeTissues(), -1000, 1000, 2, 100);  // every 10th voxel
    EXPECT_EQ(h.sampled, 100u);
    EXPECT_EQ(h.counts[0], 60u);
    EXPECT_EQ(h.counts[1], 40u);
}

TEST(ValueHistogram, AnIntervalControlGetsWholeValueBinsOnANarrowRangeElseTheFixedCount) {
    const Volume v = threeTissues();
    EXPECT_EQ(intervalHistogram(v, 0, 99).counts.size(), 100u) << "0..99: a bin per whole value";
    EXPECT_EQ(intervalHistogram(v, -1000, 3000).counts.size(), kIntervalHistogramBins);
    EXPECT_EQ(intervalHistogram(v, 5, 5).counts.size(), 1u);
    EXPECT_EQ(kIntervalHistogramBins, 256u);
}
