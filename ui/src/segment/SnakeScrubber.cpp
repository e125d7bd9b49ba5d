/// @brief The region snake's scrubber (SnakeScrubber.h): a step's fill on its slice, and back to the run.
#include "lucent/ui/SnakeScrubber.h"

#include "PolygonFill.h"

#include <algorithm>
#include <utility>

namespace lucent::ui {

void SnakeScrubber::show(int index) {
    if (index >= 0) m_run.pause();
    m_shown = index;
    if (index >= 0) fill(index);
    else restore();
}

void SnakeScrubber::fill(int index) {
    const SegmentationRequest* request = m_run.request();
    if (!request || !request->volume) return;
    const SegmentationRunner::SlicePolygon p = m_run.polygon(index);
    const Geometry& g = request->volume->geometry();
    if (p.points.size() < 3 || p.slice < 0 || p.slice >= g.dims[2]) return;
    std::vector<std::uint8_t> slice = polygonFill(p.points, g);
    // What the engine would label at that step: its ROI and mask apply as to every result.
    clipToRequest(slice, p.slice, *request, g);
    // Another slice's fill goes first (which zeroes the count): the count is this step's.
    if (m_filledSlice >= 0 && m_filledSlice != p.slice) restore();
    m_pixels = std::size_t(std::count(slice.begin(), slice.end(), std::uint8_t(1)));
    m_filledSlice = p.slice;
    m_run.showFill(p.slice, slice);
}

void SnakeScrubber::restore() {
    m_pixels = 0;
    if (m_filledSlice < 0) return;
    m_run.restoreSlice(std::exchange(m_filledSlice, -1));
}

void SnakeScrubber::forget() {
    m_shown = -1;
    m_filledSlice = -1;
    m_pixels = 0;
}

QString SnakeScrubber::text() const {
    const SegmentationRequest* request = m_shown >= 0 ? m_run.request() : nullptr;
    if (!request || !request->volume) return {};
    const Geometry& g = request->volume->geometry();
    return QString("step %1 of %2: %3 px, %4 mm²")
        .arg(m_shown)
        .arg(std::max(0, m_run.polygonCount() - 1))
        .arg(m_pixels)
        .arg(double(m_pixels) * g.spacing.x * g.spacing.y, 0, 'f', 1);
}

}  // namespace lucent::ui
