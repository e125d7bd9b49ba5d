/// @brief The region growing interval control's geometry, without widgets: values along a pixel axis,
/// which part of the interval a press takes, and coarse or fine (Shift) drags of it.
#pragma once

#include <utility>

namespace lucent::ui {

/// Values lo..hi laid along `width` pixels, left to right.
class IntervalAxis {
public:
    /// What a press takes: a handle, or the band between them (which moves whole).
    enum class Part { Lower, Upper, Band };
    using Interval = std::pair<double, double>;

    /// A fine drag moves the value this fraction of a coarse one per pixel.
    static constexpr double kFineFactor = 0.1;
    /// A press this close to a handle (pixels) takes it.
    static constexpr double kGrabPixels = 6;

    IntervalAxis(double lo, double hi, double width);

    double valueAt(double x) const;
    /// The pixel of a value, clamped to the axis (a value off the axis sits at its end).
    double xOf(double value) const;
    /// Value per pixel of a coarse drag.
    double valuePerPixel() const;

    /// The part a press at x takes: the nearer handle within kGrabPixels, else the band when inside
    /// it, else the handle on that side (which then jumps to the press: see press()).
    Part partAt(double x, const Interval& interval) const;
    /// The interval after a press at x: a handle pressed outside the band jumps there.
    Interval press(double x, const Interval& interval) const;
    /// The interval after `part` moves by dx pixels (a tenth per pixel when fine); a handle stops at
    /// the other one, the band keeps its width.
    Interval drag(Part part, double dx, bool fine, const Interval& interval) const;

private:
    double m_lo, m_hi, m_width;
};

}  // namespace lucent::ui
