/// @brief The 3D snake's scrubber history without a window: states recorded as flipped voxels come back
/// exactly in any order, and the memory bound drops the oldest states, never the way back from the latest.
#include "lucent/ui/Snake3dHistory.h"

#include <gtest/gtest.h>

#include <random>

using namespace lucent;
using namespace lucent::ui;

namespace {

/// A random 0/1 state of a 12 x 10 x 8 grid that differs from `from` in a box.
LabelMap next(const LabelMap& from, std::mt19937& rng, VoxelBox& box) {
    const auto& d = from.geometry().dims;
    std::uniform_int_distribution<int> at(0, 5);
    box = {{at(rng), at(rng), at(rng) / 2}, {6 + at(rng), 4 + at(rng), 3 + at(rng) / 2}};
    LabelMap out = from;
    for (int k = box.lo[2]; k <= std::min(box.hi[2], d[2] - 1); ++k)
        for (int j = box.lo[1]; j <= box.hi[1]; ++j)
            for (int i = box.lo[0]; i <= box.hi[0]; ++i) out[from.geometry().index(i, j, k)] = rng() % 3 == 0;
    return out;
}

Geometry grid() {
    Geometry g;
    g.dims = {12, 10, 8};
    return g;
}

}  // namespace

TEST(Snake3dHistory, StatesComeBackExactlyInAnyOrder) {
    std::mt19937 rng(7);
    Snake3dHistory h;
    std::vector<LabelMap> states;
    LabelMap now(grid());
    for (int s = 0; s < 12; ++s) {
        VoxelBox box;
        now = next(now, rng, box);
        states.push_back(now);
        ASSERT_TRUE(h.record(grid(), 10 * s, box, [&](LabelMap& mirror) { mirror = now; }));
    }
    ASSERT_EQ(h.count(), 12);
    for (int index : {3, 0, 11, 7, 7, 1, 10, -1, 5}) {
        h.show(index);
        const LabelMap& want = states[std::size_t(index < 0 ? 11 : index)];
        for (std::size_t i = 0; i < want.voxelCount(); ++i) ASSERT_EQ(h.mirror()[i], want[i]) << "state " << index;
        EXPECT_EQ(h.voxels(index < 0 ? 11 : index), want.voxelCount() - want.count(0));
        EXPECT_EQ(h.shown(), index == 11 ? -1 : index);
    }
    EXPECT_EQ(h.iteration(4), 40);
    h.show(2);
    VoxelBox box;
    EXPECT_FALSE(h.record(grid(), 999, box, [](LabelMap&) {})) << "nothing is recorded while an earlier state is shown";
}

TEST(Snake3dHistory, TheBoundDropsTheOldestStatesAndKeepsTheWayBack) {
    std::mt19937 rng(11);
    const std::size_t budget = 2 * grid().voxelCount();  // the mirror, and its size again in flips
    Snake3dHistory h(budget);
    std::vector<LabelMap> states;
    LabelMap now(grid());
    for (int s = 0; s < 20; ++s) {
        VoxelBox box;
        now = next(now, rng, box);
        states.push_back(now);
        ASSERT_TRUE(h.record(grid(), s, box, [&](LabelMap& mirror) { mirror = now; }));
        EXPECT_LE(h.bytes(), budget) << "state " << s;
    }
    ASSERT_GT(h.dropped(), 0);
    ASSERT_EQ(h.count() + h.dropped(), 20);
    for (int index = 0; index < h.count(); ++index) {
        h.show(index);
        const LabelMap& want = states[std::size_t(h.dropped() + index)];
        EXPECT_EQ(h.iteration(index), h.dropped() + index);
        for (std::size_t i = 0; i < want.voxelCount(); ++i) ASSERT_EQ(h.mirror()[i], want[i]) << "state " << index;
    }
    // A volume whose mirror would take over half the bound keeps no history.
    Snake3dHistory small(grid().voxelCount());
    VoxelBox box;
    EXPECT_FALSE(small.record(grid(), 0, box, [](LabelMap&) {}));
    EXPECT_EQ(small.count(), 0);
}
