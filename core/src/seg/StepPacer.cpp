/// @brief The paced run's schedule: one step a period, no catching up in bursts.
#include "lucent/core/seg/StepPacer.h"

#include "lucent/core/seg/RunSpeed.h"

#include <algorithm>

namespace lucent {

void StepPacer::setSpeed(int stepsPerSecond, TimePoint now) {
    m_speed = stepsPerSecond <= kUnpaced ? kUnpaced : std::clamp(stepsPerSecond, kMinSpeed, kMaxSpeed);
    if (!paced()) return;
    m_period = std::chrono::duration_cast<Duration>(std::chrono::nanoseconds(1'000'000'000 / m_speed));
    m_next = std::min(m_next, now + m_period);
}

void StepPacer::restart(TimePoint now) { m_next = now + m_period; }

bool StepPacer::due(TimePoint now) {
    if (!paced()) return true;
    if (now < m_next) return false;
    // Less than a period late (a wake-up's latency): keep the schedule. More (a slow step): start
    // the schedule again from now, so no lost step is made up in a burst.
    m_next = now - m_next < m_period ? m_next + m_period : now + m_period;
    return true;
}

StepPacer::Duration StepPacer::untilNext(TimePoint now) const {
    if (!paced() || now >= m_next) return Duration::zero();
    return m_next - now;
}

}  // namespace lucent
