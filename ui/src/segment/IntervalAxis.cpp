/// @brief IntervalAxis: pixel <-> value along the interval control, grabs and drags.
#include "lucent/ui/IntervalAxis.h"

#include <algorithm>
#include <cmath>

namespace lucent::ui {

IntervalAxis::IntervalAxis(double lo, double hi, double width)
    : m_lo(lo), m_hi(hi > lo ? hi : lo + 1), m_width(std::max(1.0, width)) {}

double IntervalAxis::valuePerPixel() const { return (m_hi - m_lo) / m_width; }

double IntervalAxis::valueAt(double x) const { return m_lo + x * valuePerPixel(); }

double IntervalAxis::xOf(double value) const { return std::clamp((value - m_lo) / valuePerPixel(), 0.0, m_width); }

IntervalAxis::Part IntervalAxis::partAt(double x, const Interval& interval) const {
    const double dl = std::abs(x - xOf(interval.first)), du = std::abs(x - xOf(interval.second));
    if (std::min(dl, du) <= kGrabPixels) return dl < du || (dl == du && x < xOf(interval.first)) ? Part::Lower : Part::Upper;
    if (x > xOf(interval.first) && x < xOf(interval.second)) return Part::Band;
    return x <= xOf(interval.first) ? Part::Lower : Part::Upper;
}

IntervalAxis::Interval IntervalAxis::press(double x, const Interval& interval) const {
    const Part part = partAt(x, interval);
    const double v = std::round(valueAt(x));
    if (part == Part::Lower && x < xOf(interval.first) - kGrabPixels) return {v, interval.second};
    if (part == Part::Upper && x > xOf(interval.second) + kGrabPixels) return {interval.first, v};
    return interval;
}

IntervalAxis::Interval IntervalAxis::drag(Part part, double dx, bool fine, const Interval& interval) const {
    const double delta = dx * valuePerPixel() * (fine ? kFineFactor : 1.0);
    auto [lower, upper] = interval;
    switch (part) {
    case Part::Lower: lower = std::min(lower + delta, upper); break;
    case Part::Upper: upper = std::max(upper + delta, lower); break;
    case Part::Band: lower += delta, upper += delta; break;
    }
    return {lower, upper};
}

}  // namespace lucent::ui
