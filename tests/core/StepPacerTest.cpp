/// @brief StepPacer on given times: the schedule, a change of speed, play again, no bursts, unpaced.
#include "lucent/core/seg/RunSpeed.h"
#include "lucent/core/seg/StepPacer.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace lucent {
namespace {

using std::chrono::milliseconds;
const StepPacer::TimePoint t0{std::chrono::seconds(100)};

/// Steps made when the pacer is asked every millisecond from `from` for `span`.
int stepsOver(StepPacer& pacer, StepPacer::TimePoint from, milliseconds span) {
    int steps = 0;
    for (milliseconds t{0}; t < span; t += milliseconds(1)) steps += pacer.due(from + t);
    return steps;
}

TEST(StepPacer, TwentyStepsASecondIsOneStepEveryFiftyMilliseconds) {
    StepPacer pacer(20);
    pacer.restart(t0);
    EXPECT_FALSE(pacer.due(t0)) << "the start state is shown for a period first";
    EXPECT_FALSE(pacer.due(t0 + milliseconds(49)));
    EXPECT_EQ(pacer.untilNext(t0 + milliseconds(49)), milliseconds(1));
    EXPECT_TRUE(pacer.due(t0 + milliseconds(50)));
    EXPECT_FALSE(pacer.due(t0 + milliseconds(50))) << "one step per due time";
    EXPECT_FALSE(pacer.due(t0 + milliseconds(99)));
    EXPECT_TRUE(pacer.due(t0 + milliseconds(100)));
    // 39 steps (the CT head's snake) take 39 periods: 1.95 s.
    StepPacer run(20);
    run.restart(t0);
    EXPECT_EQ(stepsOver(run, t0, milliseconds(1950)), 38);
    EXPECT_EQ(stepsOver(run, t0 + milliseconds(1950), milliseconds(1)), 1);
}

TEST(StepPacer, LateWakeUpsKeepTheScheduleAndFallingBehindNeverBursts) {
    StepPacer pacer(10);  // 100 ms a step
    pacer.restart(t0);
    EXPECT_TRUE(pacer.due(t0 + milliseconds(130)));   // woke 30 ms late
    EXPECT_FALSE(pacer.due(t0 + milliseconds(190)));  // the next is still at 200, not 230
    EXPECT_TRUE(pacer.due(t0 + milliseconds(200)));
    // A slow step: 1 s late. One step now, then the schedule starts again from there (no 9 steps in a row).
    EXPECT_TRUE(pacer.due(t0 + milliseconds(1300)));
    EXPECT_FALSE(pacer.due(t0 + milliseconds(1301)));
    EXPECT_TRUE(pacer.due(t0 + milliseconds(1400)));
}

TEST(StepPacer, AFasterSpeedTakesEffectAtOnce) {
    StepPacer pacer(1);  // 1 s a step
    pacer.restart(t0);
    pacer.setSpeed(100, t0 + milliseconds(5));
    EXPECT_FALSE(pacer.due(t0 + milliseconds(14)));
    EXPECT_TRUE(pacer.due(t0 + milliseconds(15))) << "one new period after the change, not the old second";
    EXPECT_EQ(stepsOver(pacer, t0 + milliseconds(16), milliseconds(1000)), 100);
    pacer.setSpeed(1, t0 + milliseconds(1016));
    EXPECT_EQ(stepsOver(pacer, t0 + milliseconds(1016), milliseconds(3000)), 3);
}

TEST(StepPacer, UnpacedIsAlwaysDueAndSpeedsAreClamped) {
    StepPacer pacer(kUnpaced);
    EXPECT_FALSE(pacer.paced());
    for (int i = 0; i < 5; ++i) EXPECT_TRUE(pacer.due(t0));
    EXPECT_EQ(pacer.untilNext(t0), StepPacer::Duration::zero());
    pacer.setSpeed(100000, t0);
    EXPECT_EQ(pacer.speed(), kMaxSpeed);
    pacer.setSpeed(-3, t0);
    EXPECT_EQ(pacer.speed(), kUnpaced);
}

TEST(RunSpeed, ParsesMaxAndTheRangeAndSaysWhatIsWrong) {
    EXPECT_EQ(parseSpeed("max"), kUnpaced);
    EXPECT_EQ(parseSpeed("1"), 1);
    EXPECT_EQ(parseSpeed("240"), 240);
    for (const char* bad : {"0", "241", "fast", "20x", "", "-5"}) EXPECT_THROW(parseSpeed(bad), std::invalid_argument) << bad;
    try {
        parseSpeed("fast");
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("1..240"), std::string::npos) << e.what();
    }
    EXPECT_EQ(speedText(kUnpaced), "max");
    EXPECT_EQ(speedText(20), "20");
    EXPECT_EQ(fasterSpeed(20), 30);
    EXPECT_EQ(fasterSpeed(25), 30);
    EXPECT_EQ(fasterSpeed(240), kUnpaced);
    EXPECT_EQ(fasterSpeed(kUnpaced), kUnpaced);
    EXPECT_EQ(slowerSpeed(kUnpaced), 240);
    EXPECT_EQ(slowerSpeed(20), 10);
    EXPECT_EQ(slowerSpeed(25), 20);
    EXPECT_EQ(slowerSpeed(1), 1);
    for (const auto& m : methodTable()) {
        EXPECT_GE(watchableSpeed(m.method), kMinSpeed);
        EXPECT_LE(watchableSpeed(m.method), kMaxSpeed);
    }
}

}  // namespace
}  // namespace lucent
