/// @brief The 3D snake's scrubber without a window: every state of a CPU engine's run, queued by Snake3dSteps
/// after its start and each step, comes back exactly (as the engine leaves it after that many iterations by
/// itself) in any order; the memory bound drops the oldest states and keeps the way back from the latest; a
/// queue that falls behind by its bound begins the history again after the gap; the statistics the
/// no-contrast test reads are the domain's, kept up to date by the flips.
#include "lucent/core/seg/Snake3dCpu.h"
#include "lucent/core/seg/Snake3dStart.h"
#include "lucent/ui/Snake3dHistory.h"
#include "lucent/ui/Snake3dSteps.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>

using namespace lucent;
using namespace lucent::ui;

namespace {

/// 40 x 40 x 24 int16: a ball of 100 in 0, Gaussian noise of 30.
Volume ballVolume() {
    Geometry g;
    g.dims = {40, 40, 24};
    Volume v(g, PixelType::Int16);
    std::mt19937 rng(5);
    std::normal_distribution<double> noise(0, 30);
    for (int k = 0; k < 24; ++k)
        for (int j = 0; j < 40; ++j)
            for (int i = 0; i < 40; ++i)
                v.int16Data()[g.index(i, j, k)] =
                    std::int16_t(std::lround((std::hypot(i - 20, j - 20, k - 12) <= 8 ? 100 : 0) + noise(rng)));
    return v;
}

SegmentationRequest boxRequest(const Volume& v, const LabelMap* mask = nullptr) {
    SegmentationRequest r;
    r.volume = &v;
    r.mask = mask;
    r.snake3d.box = VoxelBox{{6, 6, 2}, {34, 34, 22}};
    return r;
}

/// The engine by itself after `iterations` (its labels).
LabelMap after(SegmentationRequest r, int iterations) {
    Snake3dCpu e;
    e.start(r);
    for (int n = 0; n < iterations && !e.finished(); ++n) e.step(1);
    LabelMap out;
    e.result(out);
    return out;
}

/// A run observed step by step into `steps`; the iterations it took.
int observeRun(const SegmentationRequest& r, Snake3dSteps& steps, Snake3dHistory* history = nullptr) {
    Snake3dCpu e;
    e.start(r);
    steps.observe(e, 0);
    while (!e.finished()) {
        steps.observe(e, e.step(1).iterations);
        if (!history) continue;
        steps.flush();  // the state of each step taken in turn, as frames take them
        for (Snake3dState& s : steps.take()) history->record(std::move(s));
    }
    steps.flush();
    return e.iterations();
}

Snake3dHistory::Latest latestOf(const Snake3dSteps& steps) {
    return [&steps](std::vector<std::uint64_t>& w, VoxelBox& d, std::uint64_t& serial) { steps.latest(w, d, serial); };
}

/// The history's shown state over the whole volume equals `want`.
void expectShown(const Snake3dHistory& h, const LabelMap& want, const LabelMap* mask, const std::string& what) {
    const Geometry& g = want.geometry();
    std::vector<std::uint8_t> shown(g.voxelCount());
    h.labels(wholeBox(g), mask, shown.data());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < shown.size(); ++i) differ += (shown[i] != 0) != (want[i] != 0);
    EXPECT_EQ(differ, 0u) << what;
}

}  // namespace

TEST(Snake3dHistory, EveryStateOfTheRunComesBackExactlyInAnyOrder) {
    const Volume v = ballVolume();
    // A mask that leaves out a slab: the labels follow it, the level set (and the scrubber's flips) do not.
    LabelMap mask(v.geometry());
    for (std::size_t i = 0; i < mask.voxelCount(); ++i) mask[i] = 1;
    for (int j = 0; j < 40; ++j)
        for (int i = 0; i < 40; ++i) mask[v.geometry().index(i, j, 12)] = 0;
    const SegmentationRequest r = boxRequest(v, &mask);
    Snake3dSteps steps(r, kSnake3dHistoryBytes);
    Snake3dHistory h;
    const int n = observeRun(r, steps, &h);
    ASSERT_GT(n, 4);
    ASSERT_EQ(h.count(), n + 1) << "the start and every step";
    EXPECT_EQ(h.dropped(), 0);
    for (int s = 0; s <= n; ++s) EXPECT_EQ(h.iteration(s), s);
    for (int index : {3, 0, n, n / 2, n / 2, 1, n - 1, -1, 2}) {
        const int state = index < 0 ? n : index;
        ASSERT_NO_FATAL_FAILURE(h.show(index, latestOf(steps)));
        EXPECT_EQ(h.shown(), state == n ? -1 : state);
        const LabelMap want = after(r, state);
        expectShown(h, want, &mask, "state " + std::to_string(state));
        EXPECT_EQ(h.voxels(state), want.voxelCount() - want.count(0)) << "state " << state;
    }
    // The statistics of the last state are the domain's, inside and out, as counted afresh.
    Snake3dCpu e;
    e.start(r);
    e.run(1);
    const MethodFigures f = e.figures();
    const Snake3dContrast& c = h.state(n).contrast;
    EXPECT_NEAR(c.meanInside(), *f.meanInside, 1e-9);
    EXPECT_NEAR(c.meanOutside(), *f.meanOutside, 1e-9);
    EXPECT_TRUE(c.separates()) << c.separation();
    // The start box's share inside the surface, kept up to date by the flips (the level set's, not the
    // labels': the mask's slab counts): the ball is an eighth of its box.
    const Snake3dShape shape = snake3dShape(e.domain());
    auto inside = [&](int i, int j, int k) {
        const int x = i - e.domain().lo[0];
        return e.words()[std::size_t(shape.rowOf(j - e.domain().lo[1], k - e.domain().lo[2])) + std::size_t(x / 64)] >> (x % 64) & 1u;
    };
    std::size_t inBox = 0;
    for (int k = 2; k <= 22; ++k)
        for (int j = 6; j <= 34; ++j)
            for (int i = 6; i <= 34; ++i) inBox += inside(i, j, k);
    EXPECT_EQ(c.boxVoxels, 29.0 * 29 * 21);
    EXPECT_EQ(c.boxInside, double(inBox));
    EXPECT_LT(c.boxShare(), 0.2);
    EXPECT_FALSE(c.holdsTheBox());
}

TEST(Snake3dHistory, AStepWritesTheVoxelsItFlippedAllInsideTheBoxItReturns) {
    // What the viewer writes into its preview for a scrub: the flipped voxels with their new labels (the
    // mask applied), or the box around them. Either, applied to the state shown before, gives the new one.
    const Volume v = ballVolume();
    LabelMap mask(v.geometry());
    for (std::size_t i = 0; i < mask.voxelCount(); ++i) mask[i] = std::uint8_t(i % 5 != 0);
    const SegmentationRequest r = boxRequest(v, &mask);
    Snake3dSteps steps(r, kSnake3dHistoryBytes);
    Snake3dHistory h;
    const int n = observeRun(r, steps, &h);
    ASSERT_GT(n, 4);
    const Geometry& g = v.geometry();
    LabelMap shown = after(r, n);
    for (std::size_t i = 0; i < shown.voxelCount(); ++i) shown[i] = std::uint8_t(shown[i] && mask[i]);
    for (int index : {n - 1, n - 2, 0, n / 2, n / 2 + 1, -1, 1}) {
        const std::optional<VoxelBox> box = h.show(index, latestOf(steps));
        const int state = index < 0 ? n : index;
        LabelMap want = after(r, state);
        for (std::size_t i = 0; i < want.voxelCount(); ++i) want[i] = std::uint8_t(want[i] && mask[i]);
        const std::vector<std::uint64_t> voxels = h.changedVoxels(g, &mask);
        EXPECT_EQ(voxels.size(), h.changedCount());
        LabelMap scattered = shown;
        std::size_t outside = 0;
        for (const std::uint64_t p : voxels) {
            const std::size_t at = std::size_t(p & ~Snake3dHistory::kLabelBit);
            scattered[at] = std::uint8_t(p >> 63);
            const int i = int(at % std::size_t(g.dims[0])), j = int(at / std::size_t(g.dims[0]) % std::size_t(g.dims[1])),
                      k = int(at / (std::size_t(g.dims[0]) * std::size_t(g.dims[1])));
            outside += !box || !box->contains(i, j, k);
        }
        EXPECT_EQ(outside, 0u) << "state " << state << ": every flipped voxel lies in the box returned";
        std::size_t differ = 0, differOutsideBox = 0;
        for (int k = 0; k < g.dims[2]; ++k)
            for (int j = 0; j < g.dims[1]; ++j)
                for (int i = 0; i < g.dims[0]; ++i) {
                    const std::size_t at = g.index(i, j, k);
                    differ += scattered[at] != want[at];
                    differOutsideBox += shown[at] != want[at] && (!box || !box->contains(i, j, k));
                }
        EXPECT_EQ(differ, 0u) << "state " << state << ": the flipped voxels lead from the last state shown to it";
        EXPECT_EQ(differOutsideBox, 0u) << "state " << state << ": nothing changed outside the box";
        shown = want;
    }
}

TEST(Snake3dHistory, ABoxInsideTheBallIsHeldWhole) {
    // The box lies inside the ball: the surface grows to the ball's edge and holds all of the box, the
    // ball set apart from its surroundings all the same.
    const Volume v = ballVolume();
    SegmentationRequest r = boxRequest(v);
    r.snake3d.box = VoxelBox{{17, 17, 9}, {23, 23, 15}};
    r.snake3d.marginMm = 7.0;  // a domain that reaches past the ball, into the background
    Snake3dSteps steps(r, kSnake3dHistoryBytes);
    Snake3dHistory h;
    observeRun(r, steps, &h);
    const Snake3dContrast& c = h.state(h.count() - 1).contrast;
    EXPECT_EQ(c.boxVoxels, 7.0 * 7 * 7);
    EXPECT_TRUE(c.holdsTheBox()) << c.boxShare();
    EXPECT_TRUE(c.separates()) << "a real edge, the ball's, just not inside the box: " << c.separation();
    EXPECT_GT(c.insideVoxels, c.boxVoxels) << "grown past the box";
}

TEST(Snake3dHistory, TheBoundDropsTheOldestStatesAndKeepsTheWayBack) {
    const Volume v = ballVolume();
    const SegmentationRequest r = boxRequest(v);
    // What the whole run's flips take, to set a bound that holds about half of them.
    Snake3dSteps all(r, kSnake3dHistoryBytes);
    Snake3dHistory everything;
    const int n = observeRun(r, all, &everything);
    const std::size_t bound = everything.bytes() / 2;
    Snake3dSteps steps(r, kSnake3dHistoryBytes);
    Snake3dHistory h(bound);
    ASSERT_EQ(observeRun(r, steps, &h), n);
    EXPECT_LE(h.bytes(), bound);
    ASSERT_GT(h.dropped(), 0);
    ASSERT_EQ(h.count() + h.dropped(), n + 1);
    EXPECT_EQ(h.iteration(h.count() - 1), n) << "the newest are kept";
    for (int index = h.count() - 1; index >= 0; --index) {
        h.show(index, latestOf(steps));
        expectShown(h, after(r, h.iteration(index)), nullptr, "state " + std::to_string(index));
    }
}

TEST(Snake3dHistory, AQueueThatFallsBehindBeginsTheHistoryAgainAfterTheGap) {
    const Volume v = ballVolume();
    const SegmentationRequest r = boxRequest(v);
    Snake3dSteps probe(r, kSnake3dHistoryBytes);
    Snake3dHistory whole;
    const int n = observeRun(r, probe, &whole);
    // A queue bound of a third of the run's flips, never taken until the end: the oldest states go.
    Snake3dSteps steps(r, whole.bytes() / 3);
    ASSERT_EQ(observeRun(r, steps), n);
    std::vector<Snake3dState> queued = steps.take();
    ASSERT_LT(int(queued.size()), n + 1);
    EXPECT_TRUE(queued.front().first);
    EXPECT_EQ(queued.front().lost + int(queued.size()), n + 1);
    Snake3dHistory h;
    for (Snake3dState& s : queued) h.record(std::move(s));
    EXPECT_EQ(h.dropped() + h.count(), n + 1) << "said as dropped";
    for (int index = 0; index < h.count(); ++index) {
        h.show(index, latestOf(steps));
        expectShown(h, after(r, h.iteration(index)), nullptr, "state " + std::to_string(index));
    }
}

TEST(Snake3dHistory, NothingIsShownFromALevelSetTheHistoryHasNotRecorded) {
    const Volume v = ballVolume();
    const SegmentationRequest r = boxRequest(v);
    Snake3dSteps steps(r, kSnake3dHistoryBytes);
    Snake3dHistory h;
    Snake3dCpu e;
    e.start(r);
    steps.observe(e, 0);
    steps.observe(e, e.step(1).iterations);
    steps.flush();
    for (Snake3dState& s : steps.take()) h.record(std::move(s));
    steps.observe(e, e.step(1).iterations);  // queued, not yet taken: the run moved on
    steps.flush();
    EXPECT_FALSE(h.show(0, latestOf(steps)).has_value());
    EXPECT_EQ(h.shown(), -1);
    for (Snake3dState& s : steps.take()) h.record(std::move(s));
    EXPECT_TRUE(h.show(0, latestOf(steps)).has_value());
    EXPECT_EQ(h.shown(), 0);
}

TEST(Snake3dContrast, SeparationIsTheGapInTheInsidesStandardDeviations) {
    Snake3dContrast c;
    // inside: 10, 20, 30 (mean 20, sd 10); outside: 45, 45 (the domain adds them)
    c.insideVoxels = 3, c.insideSum = 60, c.insideSquares = 100 + 400 + 900;
    c.domainVoxels = 5, c.domainSum = 60 + 90, c.domainSquares = 1400 + 2 * 2025;
    EXPECT_DOUBLE_EQ(c.meanInside(), 20);
    EXPECT_DOUBLE_EQ(c.meanOutside(), 45);
    EXPECT_DOUBLE_EQ(c.sdInside(), 10);
    EXPECT_DOUBLE_EQ(c.separation(), 2.5);
    EXPECT_TRUE(c.separates());
    c.domainSum = 60 + 2 * 25;  // outside 25: half a standard deviation away
    EXPECT_DOUBLE_EQ(c.separation(), 0.5);
    EXPECT_FALSE(c.separates());
    EXPECT_EQ(Snake3dContrast{}.separation(), 0.0) << "nothing inside: nothing set apart";
    c.boxVoxels = 100, c.boxInside = 89;
    EXPECT_FALSE(c.holdsTheBox());
    c.boxInside = 90;
    EXPECT_TRUE(c.holdsTheBox()) << "90 % of the box: kSnake3dBoxHeld";
    EXPECT_FALSE(Snake3dContrast{}.holdsTheBox()) << "no box: bubbles are inside their structure by design";
}
