/// @brief Which frame a cine loop shows next: a rate in frames per second, looping or bouncing.
#pragma once

namespace lucent {

/// Plays through frames 0..count-1 at `fps`, driven by elapsed time (not by timer ticks, so a late
/// or coalesced tick still keeps the rate). Loop: after the last frame comes the first. Bounce:
/// the direction turns at each end (0 1 2 1 0 1 ...). No Qt: the ui drives it from one QTimer.
class CineStepper {
public:
    enum class Mode { Loop, Bounce };

    /// Starts at `position` (clamped into 0..count-1) going forward; forgets leftover time.
    void start(int count, int position);
    void setRate(double fps);
    double rate() const { return m_fps; }
    void setMode(Mode mode) { m_mode = mode; }
    Mode mode() const { return m_mode; }

    /// Adds `seconds` of play time; returns how many frames were stepped (0 when less than a
    /// frame's time has passed). At most one whole cycle is stepped, however long the pause was.
    int advance(double seconds);
    /// One frame on, whatever the time; returns the new position.
    int step();
    int position() const { return m_position; }
    int count() const { return m_count; }

private:
    int m_count = 1, m_position = 0, m_direction = 1;
    double m_fps = 10.0, m_pending = 0.0;  // m_pending: play time not yet turned into a frame
    Mode m_mode = Mode::Loop;
};

}  // namespace lucent
