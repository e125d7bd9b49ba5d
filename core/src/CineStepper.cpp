/// @brief Cine frame stepping: time to frames, loop and bounce.
#include "lucent/core/CineStepper.h"

#include <algorithm>
#include <cmath>

namespace lucent {

void CineStepper::start(int count, int position) {
    m_count = std::max(1, count);
    m_position = std::clamp(position, 0, m_count - 1);
    m_direction = 1;
    m_pending = 0.0;
}

void CineStepper::setRate(double fps) {
    // Below 0.1 fps nothing visibly plays; above 1000 no display keeps up.
    m_fps = std::clamp(std::isfinite(fps) ? fps : 10.0, 0.1, 1000.0);
}

int CineStepper::advance(double seconds) {
    if (!(seconds > 0)) return 0;
    m_pending += seconds * m_fps;
    const double cycle = m_mode == Mode::Loop ? m_count : std::max(1, 2 * (m_count - 1));
    int steps = int(std::floor(m_pending));
    m_pending -= steps;
    // A long stall (a modal dialog, a suspended laptop) must not replay many cycles at once.
    if (steps > cycle) steps = int(cycle);
    for (int i = 0; i < steps; ++i) step();
    return steps;
}

int CineStepper::step() {
    if (m_count <= 1) return m_position = 0;
    if (m_mode == Mode::Loop) return m_position = (m_position + 1) % m_count;
    if (m_position + m_direction < 0 || m_position + m_direction >= m_count) m_direction = -m_direction;
    return m_position += m_direction;
}

}  // namespace lucent
