/// @brief When the next step of a paced run is due: the worker asks with the time now and makes a
/// step when told to. Clock-free (every call takes the time), so tests give it the times they want.
#pragma once

#include <chrono>

namespace lucent {

class StepPacer {
public:
    using TimePoint = std::chrono::steady_clock::time_point;
    using Duration = std::chrono::steady_clock::duration;

    /// `stepsPerSecond`: kMinSpeed..kMaxSpeed (RunSpeed.h), or kUnpaced (0): every step is due.
    explicit StepPacer(int stepsPerSecond = 0) { setSpeed(stepsPerSecond, TimePoint{}); }

    /// A new speed from `now` on: a faster one takes effect at once (the next step comes no later
    /// than one new period from now), a slower one after the step already due.
    void setSpeed(int stepsPerSecond, TimePoint now);
    int speed() const { return m_speed; }
    bool paced() const { return m_speed > 0; }
    /// The run starts or plays again at `now`: its first step comes one period later, so the state
    /// it starts from is seen.
    void restart(TimePoint now);
    /// Whether a step is due at `now`; if so it is counted as made. Steps keep to the schedule
    /// (start + k periods) while the engine keeps up; an engine that falls more than a period behind
    /// goes on as fast as it can and never makes up the lost steps in a burst.
    bool due(TimePoint now);
    /// How long from `now` until the next step is due (zero when one is due, or unpaced).
    Duration untilNext(TimePoint now) const;

private:
    int m_speed = 0;
    Duration m_period{};
    TimePoint m_next{};
};

}  // namespace lucent
