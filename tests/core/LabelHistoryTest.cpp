/// @brief Undo/redo as run-length deltas: exact maps after any undo/redo sequence, memory that
/// follows the change and not the volume, the redo branch dropped by a new change, a byte cap.
#include "lucent/core/LabelHistory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace lucent;

namespace {

LabelMap map(std::array<int, 3> dims) {
    Geometry g;
    g.dims = dims;
    return LabelMap(g);
}

bool same(const LabelMap& a, const LabelMap& b) { return std::memcmp(a.data(), b.data(), a.voxelCount()) == 0; }

/// A ball of `label` at (c, c, c) of radius r painted over `m`.
LabelMap paintBall(LabelMap m, int c, int r, std::uint8_t label) {
    const auto& d = m.geometry().dims;
    for (int k = 0; k < d[2]; ++k)
        for (int j = 0; j < d[1]; ++j)
            for (int i = 0; i < d[0]; ++i)
                if ((i - c) * (i - c) + (j - c) * (j - c) + (k - c) * (k - c) <= r * r) m.at(i, j, k) = label;
    return m;
}

}  // namespace

TEST(LabelHistory, RandomEditsUndoAndRedoExactly) {
    std::mt19937 rng(3);
    LabelHistory history;
    std::vector<LabelMap> states{map({37, 29, 23})};
    LabelMap current = states.front();
    for (int e = 0; e < 12; ++e) {  // random boxes of random labels, some overlapping
        LabelMap next = current;
        const int i0 = int(rng() % 30), j0 = int(rng() % 20), k0 = int(rng() % 15);
        for (int k = k0; k < k0 + 8; ++k)
            for (int j = j0; j < j0 + 9; ++j)
                for (int i = i0; i < i0 + 7; ++i) next.at(i, j, k) = std::uint8_t(rng() % 4);
        if (!history.record(current, next, "edit " + std::to_string(e))) continue;
        current = next;
        states.push_back(current);
    }
    ASSERT_GT(states.size(), 8u);
    for (std::size_t s = states.size() - 1; s > 0; --s) {
        EXPECT_EQ(history.undoText().rfind("edit ", 0), 0u);
        ASSERT_TRUE(history.undo(current));
        ASSERT_TRUE(same(current, states[s - 1])) << "after undoing to state " << s - 1;
    }
    EXPECT_FALSE(history.undo(current));
    for (std::size_t s = 1; s < states.size(); ++s) {
        ASSERT_TRUE(history.redo(current));
        ASSERT_TRUE(same(current, states[s])) << "after redoing to state " << s;
    }
    EXPECT_FALSE(history.redo(current));
}

TEST(LabelHistory, MemoryFollowsTheChangeNotTheVolume) {
    LabelHistory history;
    const LabelMap empty = map({256, 256, 128});  // 8 MiB
    const LabelMap ball = paintBall(empty, 60, 40, 1);  // about 268,000 voxels
    ASSERT_TRUE(history.record(empty, ball, "Accept region growing"));
    // A few bytes per changed row segment: under a byte per changed voxel, a fortieth of the map.
    EXPECT_LT(history.bytes(), ball.count(1));
    EXPECT_LT(history.bytes(), ball.voxelCount() / 40);
    EXPECT_EQ(history.undoText(), "Accept region growing");
    LabelMap m = ball;
    history.undo(m);
    EXPECT_TRUE(same(m, empty));
    EXPECT_EQ(history.redoText(), "Accept region growing");
}

TEST(LabelHistory, NewChangeDropsTheRedoBranchAndEqualMapsRecordNothing) {
    LabelHistory history;
    LabelMap a = map({20, 20, 20});
    const LabelMap b = paintBall(a, 10, 5, 1), c = paintBall(b, 10, 3, 2), d = paintBall(b, 4, 3, 3);
    EXPECT_FALSE(history.record(a, a, "nothing"));
    EXPECT_FALSE(history.canUndo());
    history.record(a, b, "first");
    history.record(b, c, "second");
    LabelMap m = c;
    history.undo(m);
    EXPECT_TRUE(history.canRedo());
    history.record(b, d, "third");
    EXPECT_FALSE(history.canRedo());
    EXPECT_EQ(history.steps(), 2u);
    m = d;
    history.undo(m);
    history.undo(m);
    EXPECT_TRUE(same(m, a));
}

TEST(LabelHistory, ByteCapForgetsTheOldestSteps) {
    const LabelMap empty = map({64, 64, 64});
    LabelHistory probe;
    probe.record(empty, paintBall(empty, 32, 20, 1), "probe");
    LabelHistory history(probe.bytes() * 2 + probe.bytes() / 2);  // room for two such steps
    LabelMap m = empty;
    for (std::uint8_t l = 1; l <= 4; ++l) {
        const LabelMap next = paintBall(m, 32, 20, l);
        history.record(m, next, "paint " + std::to_string(l));
        m = next;
    }
    EXPECT_EQ(history.steps(), 2u);
    EXPECT_EQ(history.undoText(), "paint 4");
    history.undo(m);
    history.undo(m);
    EXPECT_FALSE(history.canUndo());
    EXPECT_EQ(m.at(32, 32, 32), 2);  // back to after "paint 2", the oldest step kept
}
