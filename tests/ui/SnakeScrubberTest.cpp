/// @brief The region snake's scrubber without an engine or GL: a step's fill on its slice (pixels by the
/// engines' rule, clipped to the request), the run paused, another slice's fill put back first, the
/// run's result back when the views follow it again, the figures and a replay's pace (StepScrubber.h).
#include "lucent/ui/SnakeScrubber.h"
#include "lucent/ui/StepScrubber.h"

#include "lucent/core/seg/RunSpeed.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace lucent::ui {
namespace {

using Polygon = SegmentationRunner::SlicePolygon;

/// A run of squares, each on its slice: what the views are asked to show and put back is recorded.
class FakeRun {
public:
    FakeRun() : volume(grid(), PixelType::Int16) { request.volume = &volume; }

    static Geometry grid() {
        Geometry g;
        g.dims = {20, 16, 6};
        g.spacing = {0.5, 0.5, 2.0};
        return g;
    }
    ScrubbedRun run() {
        ScrubbedRun r;
        r.polygon = [this](int i) { return polygons.at(std::size_t(i < 0 ? int(polygons.size()) - 1 : i)); };
        r.polygonCount = [this] { return int(polygons.size()); };
        r.request = [this]() -> const SegmentationRequest* { return hasRun ? &request : nullptr; };
        r.pause = [this] { ++pauses; };
        r.showFill = [this](int slice, const std::vector<std::uint8_t>& fill) {
            events.push_back("fill " + std::to_string(slice));
            lastFill = fill;
        };
        r.restoreSlice = [this](int slice) { events.push_back("restore " + std::to_string(slice)); };
        return r;
    }

    Volume volume;
    SegmentationRequest request;
    bool hasRun = true;
    /// Step 0: the square [2, 6) x [2, 6) on slice 1 (16 px); step 1: [2, 10) x [2, 6) on slice 2 (32 px).
    std::vector<Polygon> polygons{{{{2, 2}, {6, 2}, {6, 6}, {2, 6}}, 1}, {{{2, 2}, {10, 2}, {10, 6}, {2, 6}}, 2}};
    int pauses = 0;
    std::vector<std::string> events;
    std::vector<std::uint8_t> lastFill;
};

TEST(SnakeScrubber, AStepShownFillsItsSliceWithThePixelsInsideAndPausesTheRun) {
    FakeRun fake;
    SnakeScrubber scrubber(fake.run());
    EXPECT_TRUE(scrubber.text().isEmpty()) << "following the run: no figures";
    scrubber.show(0);
    EXPECT_EQ(fake.pauses, 1);
    EXPECT_EQ(scrubber.shown(), 0);
    EXPECT_EQ(fake.events, std::vector<std::string>{"fill 1"});
    EXPECT_EQ(scrubber.pixels(), 16u);
    ASSERT_EQ(fake.lastFill.size(), 20u * 16u);
    EXPECT_EQ(fake.lastFill[3 * 20 + 3], 1) << "inside the square";
    EXPECT_EQ(fake.lastFill[3 * 20 + 7], 0) << "outside";
    // 16 px of 0.5 x 0.5 mm; the last step of two is step 1.
    EXPECT_EQ(scrubber.text(), QString("step 0 of 1: 16 px, 4.0 mm²"));
}

TEST(SnakeScrubber, AStepOnAnotherSlicePutsTheFirstBackAndCountsItsOwnPixels) {
    FakeRun fake;
    SnakeScrubber scrubber(fake.run());
    scrubber.show(0);
    scrubber.show(1);
    EXPECT_EQ(fake.events, (std::vector<std::string>{"fill 1", "restore 1", "fill 2"}));
    EXPECT_EQ(scrubber.pixels(), 32u) << "the count is the step shown, not zeroed by putting the other slice back";
    scrubber.show(1);
    EXPECT_EQ(fake.events.back(), "fill 2") << "the same slice is filled again, nothing to put back";
}

TEST(SnakeScrubber, FollowingTheRunAgainPutsItsResultBackAndDropsTheFigures) {
    FakeRun fake;
    SnakeScrubber scrubber(fake.run());
    scrubber.show(0);
    scrubber.show(-1);
    EXPECT_EQ(fake.pauses, 1) << "following does not pause";
    EXPECT_EQ(scrubber.shown(), -1);
    EXPECT_EQ(scrubber.pixels(), 0u);
    EXPECT_TRUE(scrubber.text().isEmpty());
    EXPECT_EQ(fake.events, (std::vector<std::string>{"fill 1", "restore 1"}));
    scrubber.show(-1);
    EXPECT_EQ(fake.events.size(), 2u) << "nothing filled: nothing to put back";
}

TEST(SnakeScrubber, RestoreKeepsTheStepAndForgetPutsNothingBack) {
    FakeRun fake;
    SnakeScrubber scrubber(fake.run());
    scrubber.show(1);
    scrubber.restore();  // Play: the result back before the run moves on
    EXPECT_EQ(scrubber.shown(), 1);
    EXPECT_EQ(scrubber.pixels(), 0u);
    EXPECT_EQ(fake.events.back(), "restore 2");
    scrubber.show(0);
    scrubber.forget();  // the preview was cleared: nothing of it to put back
    scrubber.restore();
    EXPECT_EQ(scrubber.shown(), -1);
    EXPECT_EQ(fake.events, (std::vector<std::string>{"fill 2", "restore 2", "fill 1"}));
}

TEST(SnakeScrubber, TheFillIsClippedToTheRequestsRoiAsTheEnginesResultIs) {
    FakeRun fake;
    fake.request.roi = VoxelBox{{0, 0, 0}, {3, 15, 5}};  // columns 0..3: half the square
    SnakeScrubber scrubber(fake.run());
    scrubber.show(0);
    EXPECT_EQ(scrubber.pixels(), 8u);
    EXPECT_EQ(std::count(fake.lastFill.begin(), fake.lastFill.end(), std::uint8_t(1)), 8);
    EXPECT_EQ(fake.lastFill[3 * 20 + 4], 0) << "outside the ROI";
}

TEST(SnakeScrubber, WithoutARunOrAPolygonNothingIsFilled) {
    FakeRun fake;
    fake.hasRun = false;
    SnakeScrubber scrubber(fake.run());
    scrubber.show(0);
    EXPECT_TRUE(fake.events.empty());
    EXPECT_TRUE(scrubber.text().isEmpty());
    FakeRun lines;
    lines.polygons = {{{{2, 2}, {6, 2}}, 1}};  // two points: no inside
    SnakeScrubber two(lines.run());
    two.show(0);
    EXPECT_TRUE(lines.events.empty());
    EXPECT_EQ(two.pixels(), 0u);
    FakeRun outside;
    outside.polygons = {{{{2, 2}, {6, 2}, {6, 6}}, 6}};  // past the last slice
    SnakeScrubber beyond(outside.run());
    beyond.show(0);
    EXPECT_TRUE(outside.events.empty());
}

TEST(SnakeScrubber, AReplayTicksAtTheRunsPaceOrTheSnakesWatchableOne) {
    EXPECT_EQ(StepScrubber::replayIntervalMs(Method::Snake, 20), 50);
    EXPECT_EQ(StepScrubber::replayIntervalMs(Method::Snake, kMaxSpeed), 1000 / kMaxSpeed);
    EXPECT_EQ(StepScrubber::replayIntervalMs(Method::Snake, kUnpaced), 1000 / watchableSpeed(Method::Snake));
    // The 3D snake's page replays by the same rule at its own watchable pace.
    EXPECT_EQ(StepScrubber::replayIntervalMs(Method::Snake3d, kUnpaced), 1000 / watchableSpeed(Method::Snake3d));
}

}  // namespace
}  // namespace lucent::ui
