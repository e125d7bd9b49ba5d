/// @brief The live run's HUD from its facts alone (LiveHud.h), without an engine, a window or GL: each
/// method's figure line, the scrubbed snake step on two lines, a recording's pace and state.
#include "lucent/ui/LiveHud.h"

#include "lucent/core/seg/RunSpeed.h"

#include <gtest/gtest.h>

namespace lucent::ui {
namespace {

LiveFacts facts(const SessionWorker::Published& p, Method method) {
    LiveFacts f;
    f.published = &p;
    f.method = method;
    f.backend = "CPU (2 threads)";
    f.speed = 25;
    f.shownVoxels = 1234;
    f.volumeMl = 5.26;
    return f;
}

TEST(LiveHud, VoxelsAndMillilitresForRegionMethods) {
    SessionWorker::Published p;
    p.state = SessionState::Running;
    p.last.iterations = 7;
    const render::HudState h = liveHud(facts(p, Method::FuzzyConnectedness));
    EXPECT_TRUE(h.active);
    EXPECT_EQ(h.method, "Fuzzy connectedness");
    EXPECT_EQ(h.figure, "1234 voxels  5.3 mL");
    EXPECT_EQ(h.iteration, 7);
    EXPECT_EQ(h.state, "running");
    EXPECT_TRUE(h.running);
    EXPECT_EQ(h.speed, "25 steps/s");
    EXPECT_TRUE(h.plot.empty());
}

TEST(LiveHud, TheSnakeShowsItsCriterionAndAScrubbedStepOnTwoLines) {
    SessionWorker::Published p;
    p.state = SessionState::Paused;
    p.last.convergence = 0.125;
    p.last.polygon = {{1, 1}, {5, 1}, {5, 5}};
    p.convergence = {0.5, 0.25, 0.125};
    LiveFacts f = facts(p, Method::Snake);
    EXPECT_EQ(liveHud(f).figure, "GL 0.125  3 nodes  1234 px");
    EXPECT_EQ(liveHud(f).plot.size(), 3u);
    f.shownStep = 1;
    f.shownStepText = "step 1 of 2: 40 px, 10.0 mm²";
    const render::HudState h = liveHud(f);
    EXPECT_EQ(h.figure, "scrubbed: step 1 of 2\n40 px, 10.0 mm²");
    EXPECT_EQ(h.iteration, 1);
    EXPECT_EQ(h.plotLabel, "GL");
}

TEST(LiveHud, ARecordingReadsAsRunningAtTheVideosPace) {
    SessionWorker::Published p;
    p.state = SessionState::Paused;  // a recording steps a paused run between its frames
    LiveFacts f = facts(p, Method::RegionGrowing);
    f.recordedPace = RecordedPace{30, 2, 0};
    render::HudState h = liveHud(f);
    EXPECT_EQ(h.state, "running");
    EXPECT_TRUE(h.running);
    EXPECT_EQ(h.speed, "60 steps/s");
    EXPECT_EQ(h.framesPerSecond, 30);
    f.recordedPace->stepsPerSecond = 10;
    EXPECT_EQ(liveHud(f).speed, "10 steps/s");
    p.state = SessionState::Finished;
    EXPECT_EQ(liveHud(f).state, "finished");
    EXPECT_FALSE(liveHud(f).running);
    f.recordedPace.reset();
    f.speed = kUnpaced;
    p.starting = true;
    EXPECT_EQ(liveHud(f).state, "starting");
    EXPECT_EQ(liveHud(f).speed, "max");
}

}  // namespace
}  // namespace lucent::ui
