/// @brief Cine stepping: the rate holds over uneven ticks, loop wraps, bounce turns at both ends.
#include "lucent/core/CineStepper.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using lucent::CineStepper;

TEST(CineStepper, LoopWrapsAfterTheLastFrame) {
    CineStepper c;
    c.start(4, 2);
    std::vector<int> seen;
    for (int i = 0; i < 6; ++i) seen.push_back(c.step());
    EXPECT_EQ(seen, (std::vector<int>{3, 0, 1, 2, 3, 0}));
}

TEST(CineStepper, BounceTurnsAtBothEnds) {
    CineStepper c;
    c.setMode(CineStepper::Mode::Bounce);
    c.start(3, 0);
    std::vector<int> seen;
    for (int i = 0; i < 7; ++i) seen.push_back(c.step());
    EXPECT_EQ(seen, (std::vector<int>{1, 2, 1, 0, 1, 2, 1}));
}

TEST(CineStepper, RateHoldsOverUnevenTicks) {
    CineStepper c;
    c.start(1000, 0);
    c.setRate(12.0);
    // 2.05 s of play in ticks of 7, 40 and 113 ms, as a busy event loop delivers them: 24.6 frames.
    const double ticks[] = {0.007, 0.040, 0.113};
    double t = 0;
    int steps = 0;
    for (int i = 0; t + 1e-9 < 2.05; ++i) {
        const double dt = std::min(ticks[i % 3], 2.05 - t);
        t += dt;
        steps += c.advance(dt);
    }
    EXPECT_EQ(steps, 24);
    EXPECT_EQ(c.position(), 24);
    EXPECT_EQ(c.advance(0.02), 0);  // 0.6 + 0.24 frames: not a whole one yet
    EXPECT_EQ(c.advance(0.02), 1);  // 0.6 + 0.48: the leftover time was kept
}

TEST(CineStepper, LongStallStepsAtMostOneCycleAndOddInputsAreSafe) {
    CineStepper c;
    c.start(5, 4);
    c.setRate(30);
    EXPECT_EQ(c.advance(3600.0), 5);  // an hour asleep: one loop, back where it was
    EXPECT_EQ(c.position(), 4);
    EXPECT_EQ(c.advance(-1.0), 0);
    c.setRate(0.0);
    EXPECT_DOUBLE_EQ(c.rate(), 0.1);
    c.start(0, 7);  // an empty range plays one frame
    EXPECT_EQ(c.count(), 1);
    EXPECT_EQ(c.step(), 0);
}
