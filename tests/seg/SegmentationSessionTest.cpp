/// @brief The viewer's segmentation session without a window: states, time-boxed advance, change
/// boxes, the snake's polygon history, parameter updates, accept into an undoable label layer.
#include "HookedRegionGrowing.h"
#include "SyntheticVolumes.h"

#include "lucent/core/seg/FuzzyCMeansCpu.h"
#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/core/seg/RegionGrowingCpu.h"
#include "lucent/core/seg/SegmentationSession.h"
#include "lucent/core/seg/SnakeCpu.h"

#include <gtest/gtest.h>

using namespace lucent;
using lucent::testing::shapeVolume;
using namespace std::chrono_literals;

namespace {

Volume ball() {
    return shapeVolume({48, 40, 32}, [](int i, int j, int k) { return (i - 20) * (i - 20) + (j - 20) * (j - 20) + (k - 16) * (k - 16) <= 144; },
                       200, 0, 10);
}

SegmentationRequest srgRequest(const Volume& v) {
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {{20, 20, 16}};
    r.regionGrowing = {150, 250, 6};
    r.fuzzyConnectedness.threshold = 0.5;
    return r;
}

/// Runs a started region growing to its end and drops the changes it reported.
void runToTheEnd(SegmentationSession& session) {
    while (session.state() == SessionState::Running) session.advance(10ms);
    session.takeChanges();
}

}  // namespace

TEST(SegmentationSession, RunsPausesStepsAndFinishesWithinBudgets) {
    const Volume v = ball();
    SegmentationSession session;
    EXPECT_EQ(session.state(), SessionState::Idle);
    session.begin(std::make_unique<RegionGrowingCpu>(), srgRequest(v));
    EXPECT_EQ(session.state(), SessionState::Running);
    EXPECT_TRUE(session.takeChanges().has_value()) << "the start is drawn";
    EXPECT_EQ(session.advance(0us), 1) << "a zero budget still makes one step";
    session.pause();
    EXPECT_EQ(session.advance(1s), 0) << "paused: no step";
    session.stepOnce();
    EXPECT_EQ(session.state(), SessionState::Paused);
    EXPECT_EQ(session.lastReport().iterations, 2);
    session.play();
    int frames = 0;
    while (session.state() == SessionState::Running && frames < 1000) {
        session.advance(50us);
        ++frames;
    }
    EXPECT_EQ(session.state(), SessionState::Finished);
    EXPECT_GT(session.msPerStep(), 0.0);
    const auto changes = session.takeChanges();
    ASSERT_TRUE(changes.has_value());
    EXPECT_TRUE(changes->contains(8, 20, 16) && changes->contains(32, 20, 16)) << "the ball's extent changed";
    EXPECT_FALSE(session.takeChanges().has_value()) << "taken once";
}

TEST(SegmentationSession, AcceptIsOneUndoableChangeAndEndsTheSession) {
    const Volume v = ball();
    LabelMap layer(v.geometry());
    layer.at(0, 0, 0) = 9;  // an earlier label stays
    LabelHistory history;
    SegmentationSession session;
    session.begin(std::make_unique<RegionGrowingCpu>(), srgRequest(v), 64);
    while (session.state() == SessionState::Running) session.advance(10ms);
    LabelMap result;
    session.engine()->result(result);
    ASSERT_TRUE(session.accept(layer, history, 3, "Accept region growing"));
    EXPECT_EQ(session.state(), SessionState::Idle);
    EXPECT_EQ(layer.count(3), result.count(1));
    EXPECT_EQ(layer.at(0, 0, 0), 9);
    EXPECT_EQ(history.undoText(), "Accept region growing");
    history.undo(layer);
    EXPECT_EQ(layer.count(3), 0u);
    EXPECT_EQ(layer.at(0, 0, 0), 9);
}

TEST(SegmentationSession, AcceptLeavesLockedLabelsAlone) {
    const Volume v = ball();
    LabelMap layer(v.geometry());
    for (int i = 0; i < 48; ++i) layer.at(i, 20, 16) = 7;  // a locked row through the ball
    std::array<bool, 256> locked{};
    locked[7] = true;
    locked[4] = true;
    std::array<std::uint8_t, 256> asLabel{};
    LabelHistory history;
    SegmentationSession session;
    for (std::uint8_t target : {std::uint8_t(4), std::uint8_t(3)}) {
        session.begin(std::make_unique<RegionGrowingCpu>(), srgRequest(v), 64);
        while (session.state() == SessionState::Running) session.advance(10ms);
        LabelMap result;
        session.engine()->result(result);
        asLabel.fill(target);
        asLabel[0] = 0;
        const bool changed = session.accept(layer, history, asLabel, "Accept", locked);
        if (target == 4) {
            EXPECT_FALSE(changed) << "nothing is written as a locked label";
            continue;
        }
        ASSERT_TRUE(changed);
        std::size_t lockedInBall = 0;
        for (int i = 0; i < 48; ++i) lockedInBall += result.at(i, 20, 16) != 0;
        EXPECT_GT(lockedInBall, 10u);
        EXPECT_EQ(layer.count(7), 48u) << "the locked row keeps its voxels inside the ball";
        EXPECT_EQ(layer.count(3), result.count(1) - lockedInBall);
    }
}

TEST(SegmentationSession, ThresholdUpdateRelabelsWithoutRunning) {
    const Volume v = ball();
    SegmentationSession session;
    auto r = srgRequest(v);
    session.begin(std::make_unique<FuzzyConnectednessCpu>(), r, 64);
    while (session.state() == SessionState::Running) session.advance(10ms);
    session.takeChanges();
    const int iterations = session.lastReport().iterations;
    r.fuzzyConnectedness.threshold = 0.9;
    EXPECT_EQ(session.update(r), UpdateOutcome::Relabelled);
    EXPECT_EQ(session.state(), SessionState::Finished);
    const auto changes = session.takeChanges();
    ASSERT_TRUE(changes.has_value());
    EXPECT_EQ(changes->hi[0], 47) << "the whole volume may change";
    EXPECT_EQ(session.lastReport().iterations, iterations);
}

TEST(SegmentationSession, AWiderIntervalMarksOnlyTheSeedsItAddsAndTheStepsMarkWhatTheyGrow) {
    // A run that continues keeps its labels: the views redraw what changes, not the volume.
    const Volume v = ball();
    SegmentationSession session;
    auto r = srgRequest(v);
    session.begin(std::make_unique<RegionGrowingCpu>(), r);
    runToTheEnd(session);
    r.regionGrowing.upper = 260;
    ASSERT_EQ(session.update(r), UpdateOutcome::Continued);
    EXPECT_FALSE(session.takeChanges().has_value()) << "a wider interval changes no label by itself";
    r.seeds.push_back({22, 21, 15});
    ASSERT_EQ(session.update(r), UpdateOutcome::Continued);
    const auto seedBox = session.takeChanges();
    ASSERT_TRUE(seedBox.has_value());
    EXPECT_EQ(seedBox->lo, (std::array<int, 3>{22, 21, 15}));
    EXPECT_EQ(seedBox->hi, (std::array<int, 3>{22, 21, 15}));
    r.regionGrowing.lower = -50;  // the background joins: the steps report it
    ASSERT_EQ(session.update(r), UpdateOutcome::Continued);
    while (session.state() == SessionState::Running) session.advance(10ms);
    const auto grown = session.takeChanges();
    ASSERT_TRUE(grown.has_value());
    EXPECT_EQ(grown->lo, (std::array<int, 3>{0, 0, 0}));
    EXPECT_EQ(grown->hi, (std::array<int, 3>{47, 39, 31}));
    r.regionGrowing.lower = 0;  // narrower: a new run, every label may change
    ASSERT_EQ(session.update(r), UpdateOutcome::Restarted);
    const auto all = session.takeChanges();
    ASSERT_TRUE(all.has_value());
    EXPECT_EQ(all->hi, (std::array<int, 3>{47, 39, 31}));
}

TEST(SegmentationSession, AnUpdateTheEngineRefusesLeavesNoStaleResultOnScreen) {
    // An interval that leaves out the seed: the engine restarts, finds no seed and says so. What it
    // holds is then nothing, and the whole volume is marked changed so the preview shows that.
    const Volume v = ball();
    SegmentationSession session;
    auto r = srgRequest(v);
    session.begin(std::make_unique<RegionGrowingCpu>(), r);
    runToTheEnd(session);
    LabelMap before;
    session.engine()->result(before);
    ASSERT_GT(before.voxelCount() - before.count(0), 500u);
    r.regionGrowing = {300, 400, 6};
    try {
        session.update(r);
        ADD_FAILURE() << "an interval without the seed was taken";
    } catch (const std::invalid_argument& e) {
        const std::string why = e.what();
        EXPECT_NE(why.find("no seed lies within [300, 400] inside the ROI/mask (seed 20,20,16 has value "), std::string::npos) << why;
        EXPECT_EQ(why.find(".000000"), std::string::npos) << "values as a reader writes them: " << why;
    }
    const auto changes = session.takeChanges();
    ASSERT_TRUE(changes.has_value());
    EXPECT_EQ(changes->lo, (std::array<int, 3>{0, 0, 0}));
    EXPECT_EQ(changes->hi, (std::array<int, 3>{47, 39, 31}));
    EXPECT_EQ(session.state(), SessionState::Finished);
    LabelMap after;
    session.engine()->result(after);
    EXPECT_EQ(after.count(0), after.voxelCount()) << "what the changed box will show: no voxel";
    r.regionGrowing = {150, 250, 6};  // the seed back in the interval: the run grows again
    session.update(r);
    while (session.state() == SessionState::Running) session.advance(10ms);
    LabelMap again;
    session.engine()->result(again);
    EXPECT_EQ(again.count(0), before.count(0));
}

TEST(SegmentationSession, SnakeKeepsEveryPolygonAndItsFallingCriterion) {
    LabelMap truth;
    const Volume v = shapeVolume({80, 70, 1}, [](int i, int j, int) { return i >= 25 && i < 55 && j >= 20 && j < 50; }, 150, 50, 8,
                                 &truth);
    SegmentationRequest r;
    r.volume = &v;
    r.snake.slice = 0;
    r.snake.rect = {5, 5, 74, 64};
    r.snake.stepMax = 16;
    SegmentationSession session;
    session.begin(std::make_unique<SnakeCpu>(), r);
    ASSERT_EQ(session.polygons().size(), 1u) << "the starting rectangle";
    while (session.state() == SessionState::Running) session.advance(5ms);
    EXPECT_EQ(session.polygons().size(), std::size_t(session.lastReport().iterations) + 1);
    const auto& gl = session.convergence();
    for (std::size_t s = 1; s < gl.size(); ++s) EXPECT_LE(gl[s], gl[s - 1] + 1e-9 * std::abs(gl[s - 1])) << "GL rose at step " << s;
    EXPECT_NE(session.polygons().front(), session.polygons().back());
    // Every polygon with its slice: here all on the rectangle's.
    ASSERT_EQ(session.polygonSlices().size(), session.polygons().size());
    for (int slice : session.polygonSlices()) EXPECT_EQ(slice, 0);
}

TEST(SegmentationSession, FcmClustersMapToChosenLabelsAndBadRequestsStayIdle) {
    const Volume v = shapeVolume({30, 30, 10}, [](int i, int, int) { return i >= 15; }, 300, 0, 20);
    SegmentationRequest r;
    r.volume = &v;
    r.fuzzyCMeans.clusters = 2;
    SegmentationSession session;
    session.begin(std::make_unique<FuzzyCMeansCpu>(), r, 10);
    while (session.state() == SessionState::Running) session.advance(10ms);
    LabelMap layer(v.geometry());
    LabelHistory history;
    std::array<std::uint8_t, 256> labelFor{};
    labelFor[2] = 5;  // only the bright cluster
    ASSERT_TRUE(session.accept(layer, history, labelFor, "Accept FCM cluster 2"));
    EXPECT_EQ(layer.count(5), 15u * 30 * 10);
    EXPECT_EQ(layer.count(0), 15u * 30 * 10);

    r.fuzzyCMeans.clusters = 1;  // invalid
    EXPECT_THROW(session.begin(std::make_unique<FuzzyCMeansCpu>(), r), std::invalid_argument);
    EXPECT_EQ(session.state(), SessionState::Idle);
    EXPECT_EQ(session.engine(), nullptr);
}

namespace {

/// Region growing whose every step takes `stepTime` on a clock that moves only when told.
std::unique_ptr<Segmenter> timedRegionGrowing(std::chrono::steady_clock::time_point& now,
                                              std::chrono::microseconds stepTime) {
    auto engine = std::make_unique<lucent::testing::HookedRegionGrowing>();
    engine->afterStep = [&now, stepTime](const StepReport&) { now += stepTime; };
    return engine;
}

}  // namespace

TEST(SegmentationSession, SingleStepsAreTimedOnTheSessionsClock) {
    // A recording advances by single steps only: the HUD's ms/step must be the engine's time for
    // them too (it read 0.00 when only advance() was timed).
    const Volume v = ball();
    std::chrono::steady_clock::time_point now{};
    SegmentationSession session([&now] { return now; });
    session.begin(timedRegionGrowing(now, 2500us), srgRequest(v));
    session.pause();
    session.stepOnce();
    EXPECT_EQ(session.lastReport().iterations, 1);
    EXPECT_DOUBLE_EQ(session.msPerStep(), 2.5) << "one step of 2.5 ms on the fake clock";
    session.play();
    EXPECT_EQ(session.advance(10ms, 2), 2);
    EXPECT_DOUBLE_EQ(session.msPerStep(), 2.5) << "two steps of 2.5 ms in one advance";
}

TEST(SegmentationSession, ARefusedUpdateLeavesNoFiguresOfTheRunItDropped) {
    // The HUD reads the last report and the time per step: after a refusal they must describe the
    // run that is left (no step), not the result the preview no longer shows.
    const Volume v = ball();
    std::chrono::steady_clock::time_point now{};
    SegmentationSession session([&now] { return now; });
    auto r = srgRequest(v);
    session.begin(timedRegionGrowing(now, 2500us), r);
    runToTheEnd(session);
    ASSERT_GT(session.lastReport().iterations, 5);
    ASSERT_TRUE(session.lastReport().finished);
    ASSERT_DOUBLE_EQ(session.msPerStep(), 2.5);
    ASSERT_FALSE(session.convergence().empty());
    r.regionGrowing = {300, 400, 6};  // leaves out the seed (200)
    EXPECT_THROW(session.update(r), std::invalid_argument);
    EXPECT_EQ(session.state(), SessionState::Finished);
    EXPECT_EQ(session.lastReport().iterations, 0);
    EXPECT_FALSE(session.lastReport().finished) << "no step finished anything";
    EXPECT_EQ(session.msPerStep(), 0.0);
    EXPECT_TRUE(session.convergence().empty()) << "no steps: the worker publishes 0 of them";
}
