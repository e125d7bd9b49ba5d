/// @brief Seed and rectangle gestures on view coordinates, and the snake polygon on screen.
#include "lucent/ui/ViewTool.h"

#include <algorithm>
#include <cmath>

namespace lucent::ui {

namespace {

VoxelIndex nearestVoxel(const render::SliceViewGeometry& view, double x, double y) {
    const Vec3 v = view.screenToVoxel(x, y);
    return {int(std::lround(v.x)), int(std::lround(v.y)), int(std::lround(v.z))};
}

bool inside(const render::SliceViewGeometry& view, const VoxelIndex& v) {
    return view.geometry().contains(v.i, v.j, v.k);
}

// On the shown plane: the voxel plane in the volume's own planes; within half a slice step of a
// resliced plane.
bool onShownSlice(const render::SliceViewGeometry& view, const VoxelIndex& v) {
    return view.onSlice({double(v.i), double(v.j), double(v.k)});
}

}  // namespace

bool SeedTool::press(const render::SliceViewGeometry& view, double x, double y, bool shift) {
    m_press = {x, y};
    m_dragging = false;
    const VoxelIndex v = nearestVoxel(view, x, y);
    if (shift) {
        // Remove the seed on this slice nearest to the click, when one is close enough to mean it.
        int best = -1;
        double bestDistance = 10.0;
        for (std::size_t s = 0; s < m_seeds.size(); ++s) {
            if (!onShownSlice(view, m_seeds[s])) continue;
            const auto p = view.voxelToScreen({double(m_seeds[s].i), double(m_seeds[s].j), double(m_seeds[s].k)});
            const double d = std::hypot(p[0] - x, p[1] - y);
            if (d <= bestDistance) {
                bestDistance = d;
                best = int(s);
            }
        }
        if (best >= 0) {
            m_seeds.erase(m_seeds.begin() + best);
            if (changed) changed();
        }
        return true;
    }
    if (!inside(view, v)) return false;
    // A press on a seed's own voxel is the start of a drag from it (or a second click): the seed
    // is there already, and a copy of it would only lengthen the list.
    if (std::find(m_seeds.begin(), m_seeds.end(), v) != m_seeds.end()) return true;
    m_seeds.push_back(v);
    if (changed) changed();
    return true;
}

bool SeedTool::drag(const render::SliceViewGeometry&, double x, double y) {
    const double dx = x - m_press[0], dy = m_press[1] - y;
    if (!m_dragging && std::hypot(dx, dy) < 3) return true;  // a click's jitter is not a drag
    const bool started = !m_dragging;
    m_dragging = true;
    if (dragged) dragged(dx, dy, started);
    return true;
}

void SeedTool::overlay(const render::SliceViewGeometry& view, render::ViewOverlay& out) const {
    for (const auto& s : m_seeds) {
        if (!onShownSlice(view, s)) continue;
        const auto p = view.voxelToScreen({double(s.i), double(s.j), double(s.k)});
        render::ViewOverlay::Marker m;
        m.at = {float(p[0]), float(p[1])};
        out.markers.push_back(m);
    }
}

bool RectangleTool::press(const render::SliceViewGeometry& view, double x, double y, bool) {
    if (view.normalAxis() != 2) return false;  // the snake works on the k planes
    if (!view.showsVolumePlane()) {
        // A resliced oblique plane is no k plane: the gesture is refused (and kept from the crosshair).
        if (refused) refused("The region snake works on the volume's own slices: turn off Anatomical planes (N)");
        return true;
    }
    const Vec3 v = view.screenToVoxel(x, y);
    if (!view.geometry().contains(int(std::lround(v.x)), int(std::lround(v.y)), int(std::lround(v.z)))) return false;
    m_start = v;
    m_slice = view.slice();
    m_rect.reset();
    return true;
}

bool RectangleTool::drag(const render::SliceViewGeometry& view, double x, double y) {
    if (!m_start) return false;
    const Vec3 v = view.screenToVoxel(x, y);
    const auto& d = view.geometry().dims;
    auto clampTo = [](double value, int hi) { return std::max(0, std::min(hi, int(std::lround(value)))); };
    const int i0 = clampTo(std::min(m_start->x, v.x), d[0] - 1), i1 = clampTo(std::max(m_start->x, v.x), d[0] - 1);
    const int j0 = clampTo(std::min(m_start->y, v.y), d[1] - 1), j1 = clampTo(std::max(m_start->y, v.y), d[1] - 1);
    m_rect = std::array<int, 4>{i0, j0, i1, j1};
    return true;
}

bool RectangleTool::release(const render::SliceViewGeometry& view, double x, double y) {
    if (!m_start) return false;
    drag(view, x, y);
    m_start.reset();
    const auto r = *m_rect;
    if (r[2] - r[0] >= 3 && r[3] - r[1] >= 3 && finished) finished(m_slice, r);  // a click is not a rectangle
    return true;
}

void RectangleTool::overlay(const render::SliceViewGeometry& view, render::ViewOverlay& out) const {
    if (!m_rect || !m_start) return;  // drawn while dragging; the snake's polygon takes over after
    const auto& r = *m_rect;
    render::ViewOverlay::Polyline line;
    line.points = slicePolygonOnScreen(view, {{double(r[0]), double(r[1])}, {double(r[2]), double(r[1])},
                                              {double(r[2]), double(r[3])}, {double(r[0]), double(r[3])}}, m_slice);
    line.colour = {1.0f, 0.9f, 0.2f, 1.0f};
    line.thickness = 1.5f;
    if (!line.points.empty()) out.lines.push_back(std::move(line));
}

std::vector<std::array<float, 2>> slicePolygonOnScreen(const render::SliceViewGeometry& view,
                                                       const std::vector<std::array<double, 2>>& polygon, int slice) {
    std::vector<std::array<float, 2>> out;
    if (view.normalAxis() != 2 || !view.showsVolumePlane() || view.slice() != slice) return out;
    out.reserve(polygon.size());
    for (const auto& p : polygon) {
        const auto s = view.voxelToScreen({p[0], p[1], double(slice)});
        out.push_back({float(s[0]), float(s[1])});
    }
    return out;
}

}  // namespace lucent::ui
