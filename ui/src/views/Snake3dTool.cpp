/// @brief The 3D snake's box and bubble gestures, and the start drawn on every view that cuts it.
#include "lucent/ui/Snake3dTool.h"

#include <cmath>
#include <numbers>

namespace lucent::ui {

namespace {

/// The two volume axes other than `axis`, in order.
std::array<int, 2> planeAxes(int axis) { return axis == 0 ? std::array{1, 2} : axis == 1 ? std::array{0, 2} : std::array{0, 1}; }

/// The voxel index along the view's normal of the slice it shows.
int shownSlice(const render::SliceViewGeometry& view) {
    return int(std::lround(view.screenToVoxel(view.width() / 2.0, view.height() / 2.0)[view.normalAxis()]));
}

VoxelIndex rounded(const Vec3& v) { return {int(std::lround(v.x)), int(std::lround(v.y)), int(std::lround(v.z))}; }

/// A screen press further than this from where it began is a drag (a box), not a click (a bubble).
constexpr double kClickPixels = 3.0;
/// A drawn box is at least this many voxels along each side of its rectangle (a click's jitter is none).
constexpr int kMinBoxSide = 3;
/// Points of a bubble's circle on a slice.
constexpr int kCirclePoints = 48;

}  // namespace

VoxelBox Snake3dTool::extrude(const Vec3& a, const Vec3& b, int axis, int depth, const std::array<int, 3>& dims) {
    VoxelBox box;
    auto clampTo = [](double value, int hi) { return std::max(0, std::min(hi, int(std::lround(value)))); };
    for (int d : planeAxes(axis)) {
        box.lo[d] = clampTo(std::min(a[d], b[d]), dims[d] - 1);
        box.hi[d] = clampTo(std::max(a[d], b[d]), dims[d] - 1);
    }
    // Centred on the slice drawn on: an even depth reaches one slice further towards higher indices.
    const int slice = clampTo(a[axis], dims[axis] - 1), below = (depth - 1) / 2;
    box.lo[axis] = std::max(0, slice - below);
    box.hi[axis] = std::min(dims[axis] - 1, slice - below + depth - 1);
    return box;
}

bool Snake3dTool::press(const render::SliceViewGeometry& view, double x, double y, bool shift) {
    if (!view.showsVolumePlane()) {
        if (refused) refused("The 3D snake's start is drawn on the volume's own slices: turn off Anatomical planes (N)");
        return true;
    }
    const Vec3 v = view.screenToVoxel(x, y);
    const VoxelIndex at = rounded(v);
    if (shift) {
        // Removes the bubble whose circle on this slice holds the click (the nearest centre first).
        const Geometry& g = view.geometry();
        int best = -1;
        double bestMm = 0;
        for (std::size_t n = 0; n < m_bubbles.size(); ++n) {
            const VoxelIndex& c = m_bubbles[n].centre;
            const double dx = (v.x - c.i) * g.spacing.x, dy = (v.y - c.j) * g.spacing.y, dz = (v.z - c.k) * g.spacing.z;
            const double mm = std::sqrt(dx * dx + dy * dy + dz * dz);
            if (mm <= std::max(m_bubbles[n].radiusMm, 0.5 * g.spacing[view.normalAxis()]) && (best < 0 || mm < bestMm)) {
                best = int(n);
                bestMm = mm;
            }
        }
        if (best >= 0) {
            m_bubbles.erase(m_bubbles.begin() + best);
            if (changed) changed();
        }
        return true;
    }
    if (!view.geometry().contains(at.i, at.j, at.k)) return false;
    m_pressVoxel = v;
    m_pressScreen = {x, y};
    m_axis = view.normalAxis();
    m_dragged.reset();
    return true;
}

bool Snake3dTool::drag(const render::SliceViewGeometry& view, double x, double y) {
    if (!m_pressVoxel) return false;
    if (!m_dragged && std::hypot(x - m_pressScreen[0], y - m_pressScreen[1]) < kClickPixels) return true;
    m_dragged = extrude(*m_pressVoxel, view.screenToVoxel(x, y), m_axis, m_depth, view.geometry().dims);
    return true;
}

bool Snake3dTool::release(const render::SliceViewGeometry& view, double x, double y) {
    if (!m_pressVoxel) return false;
    drag(view, x, y);
    const Vec3 from = *m_pressVoxel;
    m_pressVoxel.reset();
    if (!m_dragged) {
        // A click: a bubble around the voxel clicked.
        const VoxelIndex c = rounded(from);
        m_bubbles.push_back({c, m_radius});
        if (placed) placed({double(c.i), double(c.j), double(c.k)});
        if (changed) changed();
        return true;
    }
    const VoxelBox b = *std::exchange(m_dragged, std::nullopt);
    for (int d : planeAxes(m_axis))
        if (b.hi[d] - b.lo[d] + 1 < kMinBoxSide) return true;
    m_box = b;  // a new box replaces the last one; the bubbles stay
    if (placed) {
        // The view drawn on stays on its slice; the others cut the box through its middle.
        Vec3 centre{std::round(from.x), std::round(from.y), std::round(from.z)};
        for (int d : planeAxes(m_axis)) centre[d] = std::floor((b.lo[d] + b.hi[d]) / 2.0);
        placed(centre);
    }
    if (changed) changed();
    return true;
}

void Snake3dTool::overlay(const render::SliceViewGeometry& view, render::ViewOverlay& out) const {
    snake3dStartOverlay(view, m_dragged ? m_dragged : m_box, m_bubbles, out, {1.0f, 0.9f, 0.2f, 1.0f});
}

void snake3dStartOverlay(const render::SliceViewGeometry& view, const std::optional<VoxelBox>& box,
                         const std::vector<Snake3dTool::Bubble>& bubbles, render::ViewOverlay& out,
                         std::array<float, 4> colour) {
    if (!view.showsVolumePlane()) return;
    const int axis = view.normalAxis(), slice = shownSlice(view);
    const auto [p, q] = planeAxes(axis);
    auto screen = [&](Vec3 v) {
        const auto s = view.voxelToScreen(v);
        return std::array<float, 2>{float(s[0]), float(s[1])};
    };
    if (box && box->lo[axis] <= slice && slice <= box->hi[axis]) {
        render::ViewOverlay::Polyline line;
        line.colour = colour;
        line.thickness = 1.5f;
        for (const auto& [a, b] : {std::pair{0, 0}, {1, 0}, {1, 1}, {0, 1}}) {
            Vec3 v;
            v[axis] = slice;
            v[p] = a ? box->hi[p] : box->lo[p];
            v[q] = b ? box->hi[q] : box->lo[q];
            line.points.push_back(screen(v));
        }
        out.lines.push_back(std::move(line));
    }
    const Vec3 spacing = view.geometry().spacing;
    for (const auto& bubble : bubbles) {
        const VoxelIndex& c = bubble.centre;
        const Vec3 centre{double(c.i), double(c.j), double(c.k)};
        const double d = (slice - centre[axis]) * spacing[axis];
        if (std::abs(d) > bubble.radiusMm) {
            if (slice != int(centre[axis])) continue;  // a ball smaller than a voxel: its centre's slice only
        }
        Vec3 at = centre;
        at[axis] = slice;
        if (slice == int(centre[axis])) {
            render::ViewOverlay::Marker m;
            m.at = screen(at);
            m.colour = colour;
            m.radius = 3.0f;
            out.markers.push_back(m);
        }
        const double r = std::sqrt(std::max(0.0, bubble.radiusMm * bubble.radiusMm - d * d));
        if (r * view.pixelsPerMm() < 1.0) continue;
        render::ViewOverlay::Polyline circle;
        circle.colour = colour;
        circle.thickness = 1.5f;
        for (int n = 0; n < kCirclePoints; ++n) {
            const double t = 2 * std::numbers::pi * n / kCirclePoints;
            Vec3 v = at;
            v[p] += r * std::cos(t) / spacing[p];
            v[q] += r * std::sin(t) / spacing[q];
            circle.points.push_back(screen(v));
        }
        out.lines.push_back(std::move(circle));
    }
}

}  // namespace lucent::ui
