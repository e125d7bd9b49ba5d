/// @brief Measuring gestures on view coordinates, and measurements drawn as screen lines and labels.
#include "lucent/ui/MeasureTool.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <numbers>

namespace lucent::ui {

namespace {

// Cyan, and orange when selected: apart from the yellow crosshair, the green seeds, the red snake.
constexpr std::array<float, 4> kColour{0.3f, 0.9f, 1.0f, 1.0f};
constexpr std::array<float, 4> kSelectedColour{1.0f, 0.55f, 0.1f, 1.0f};
constexpr int kEllipseSegments = 72;

std::array<float, 2> screenOf(const render::SliceViewGeometry& view, Vec3 patient) {
    const auto s = view.voxelToScreen(view.geometry().patientToVoxel(patient));
    return {float(s[0]), float(s[1])};
}

// A measurement belongs to a voxel plane (axis, slice); a resliced oblique plane shows the ones
// whose points all lie on it (within half a slice step), such as those drawn on it.
bool onShownSlice(const render::SliceViewGeometry& view, const Measurement& m) {
    if (view.showsVolumePlane()) return m.axis == view.normalAxis() && m.slice == view.slice();
    if (m.points.empty()) return false;
    for (const Vec3& p : m.points)
        if (!view.onSlice(view.geometry().patientToVoxel(p))) return false;
    return true;
}

double screenDistance(std::array<float, 2> a, double x, double y) { return std::hypot(a[0] - x, a[1] - y); }

}  // namespace

Vec3 patientOnSlice(const render::SliceViewGeometry& view, double x, double y) {
    if (!view.showsVolumePlane()) return view.screenToPatient(x, y);
    Vec3 v = view.screenToVoxel(x, y);
    v[view.normalAxis()] = view.slice();
    return view.geometry().voxelToPatient(v);
}

void MeasureTool::setKind(MeasurementKind kind) {
    m_kind = kind;
    cancel();
}

void MeasureTool::cancel() {
    m_pending.reset();
    m_editId = 0;
    m_editPoint = -1;
}

Measurement MeasureTool::planeMeasurement(const render::SliceViewGeometry& view) const {
    Measurement m;
    m.kind = m_kind;
    m.axis = view.normalAxis();
    m.slice = view.slice();
    m.view = render::orientationName(view.orientation());
    for (char& c : m.view) c = char(std::tolower(static_cast<unsigned char>(c)));
    return m;
}

bool MeasureTool::press(const render::SliceViewGeometry& view, double x, double y, bool) {
    const Vec3 p = patientOnSlice(view, x, y);
    // An angle being placed takes its next point here (on the same slice; elsewhere it restarts).
    if (m_pending && m_pending->kind == MeasurementKind::Angle) {
        if (onShownSlice(view, *m_pending)) {
            m_pending->points.push_back(p);
            return true;
        }
        m_pending.reset();
    }
    // A press on a point of a finished measurement grabs that point.
    double best = kGrabPixels;
    m_editId = 0;
    for (const Measurement& m : m_set->all()) {
        if (!onShownSlice(view, m)) continue;
        for (std::size_t i = 0; i < m.points.size(); ++i) {
            const double d = screenDistance(screenOf(view, m.points[i]), x, y);
            if (d <= best) {
                best = d;
                m_editId = m.id;
                m_editPoint = int(i);
            }
        }
    }
    if (m_editId) return true;
    // Otherwise a new one: a ruler or a box follows the drag; an angle starts with its first arm.
    const Vec3 v = view.screenToVoxel(x, y);
    if (!view.geometry().contains(int(std::lround(v.x)), int(std::lround(v.y)), int(std::lround(v.z)))) return false;
    const bool roi = m_kind == MeasurementKind::Ellipse || m_kind == MeasurementKind::Rectangle;
    if (roi && !view.showsVolumePlane()) {
        // ROI statistics count the voxels of one slice of the grid, which a resliced plane is not.
        if (refused) refused("ROIs measure voxels of the volume's own slices: turn off View > Anatomical planes (N)");
        return true;  // the gesture stays the tool's: no crosshair jump
    }
    m_pending = planeMeasurement(view);
    // On a resliced plane the measurement is filed under the voxel plane nearest to its first point.
    if (!view.showsVolumePlane())
        m_pending->slice =
            std::clamp(int(std::lround(v[m_pending->axis])), 0, view.geometry().dims[m_pending->axis] - 1);
    m_pending->points = {p};
    if (m_kind != MeasurementKind::Angle) m_pending->points.push_back(p);
    return true;
}

bool MeasureTool::drag(const render::SliceViewGeometry& view, double x, double y) {
    const Vec3 p = patientOnSlice(view, x, y);
    if (m_editId) {
        if (m_set->movePoint(m_editId, m_editPoint, p)) {
            m_lastId = m_editId;
            if (changed) changed();
        }
        return true;
    }
    if (!m_pending || m_pending->points.empty()) return false;
    m_pending->points.back() = p;
    return true;
}

bool MeasureTool::release(const render::SliceViewGeometry& view, double x, double y) {
    drag(view, x, y);
    if (m_editId) {
        m_editId = 0;
        m_editPoint = -1;
        return true;
    }
    if (!m_pending) return false;
    if (int(m_pending->points.size()) == measurementPointCount(m_pending->kind)) finish(view);
    return true;
}

void MeasureTool::finish(const render::SliceViewGeometry& view) {
    Measurement m = std::move(*m_pending);
    m_pending.reset();
    if (m.kind != MeasurementKind::Angle) {
        // A click without a drag is not a ruler or a box (fewer than 3 screen pixels).
        const auto a = screenOf(view, m.points[0]), b = screenOf(view, m.points[1]);
        if (std::hypot(a[0] - b[0], a[1] - b[1]) < 3) return;
    }
    m_lastId = m_set->add(std::move(m));
    if (changed) changed();
}

void MeasureTool::overlay(const render::SliceViewGeometry& view, render::ViewOverlay& out) const {
    if (!m_pending || !onShownSlice(view, *m_pending)) return;
    Measurement shown = *m_pending;
    if (int(shown.points.size()) == measurementPointCount(shown.kind)) {
        try {
            computeMeasurement(shown, m_set->volume().get());
        } catch (const std::exception&) {
            return;  // no volume yet: nothing to measure against
        }
    }
    drawMeasurement(view, shown, true, m_set->volume() && m_set->volume()->metadata().modality == "CT" ? "HU" : "",
                    out);
}

void drawMeasurement(const render::SliceViewGeometry& view, const Measurement& m, bool selected,
                     const std::string& unit, render::ViewOverlay& out) {
    const auto colour = selected ? kSelectedColour : kColour;
    render::ViewOverlay::Polyline line;
    line.colour = colour;
    line.thickness = 2.0f;
    line.closed = false;
    const bool finished = int(m.points.size()) == measurementPointCount(m.kind);
    std::array<float, 2> labelAt{0, 0};
    if (m.kind == MeasurementKind::Ruler || m.kind == MeasurementKind::Angle) {
        for (const Vec3& p : m.points) line.points.push_back(screenOf(view, p));
        const auto& anchor = line.points[m.kind == MeasurementKind::Angle && line.points.size() > 1 ? 1 : line.points.size() - 1];
        labelAt = {anchor[0] + 10, anchor[1] + 6};
    } else {
        // The box's sides follow the plane's voxel axes, which are the screen's axes.
        const Vec3 a = view.geometry().patientToVoxel(m.points[0]), b = view.geometry().patientToVoxel(m.points[1]);
        const int u = view.rightAxis(), w = view.downAxis();
        auto corner = [&](double cu, double cw) {
            Vec3 v = a;
            v[u] = cu;
            v[w] = cw;
            const auto s = view.voxelToScreen(v);
            return std::array<float, 2>{float(s[0]), float(s[1])};
        };
        line.closed = true;
        if (m.kind == MeasurementKind::Rectangle) {
            line.points = {corner(a[u], a[w]), corner(b[u], a[w]), corner(b[u], b[w]), corner(a[u], b[w])};
        } else {
            const double cu = (a[u] + b[u]) / 2, cw = (a[w] + b[w]) / 2, ru = (b[u] - a[u]) / 2, rw = (b[w] - a[w]) / 2;
            for (int s = 0; s < kEllipseSegments; ++s) {
                const double t = 2 * std::numbers::pi * s / kEllipseSegments;
                line.points.push_back(corner(cu + ru * std::cos(t), cw + rw * std::sin(t)));
            }
        }
        float left = std::numeric_limits<float>::max(), bottom = std::numeric_limits<float>::lowest();
        for (const auto& p : line.points) {
            left = std::min(left, p[0]);
            bottom = std::max(bottom, p[1]);
        }
        labelAt = {left, bottom + 6};
    }
    out.lines.push_back(line);
    for (const Vec3& p : m.points) {
        render::ViewOverlay::Marker handle;
        handle.at = screenOf(view, p);
        handle.colour = colour;
        handle.radius = 3.5f;
        out.markers.push_back(handle);
    }
    if (finished) out.texts.push_back({labelAt, measurementLabel(m, unit), colour});
}

void drawMeasurements(const render::SliceViewGeometry& view, const MeasurementSet& set, int selected,
                      const std::string& unit, render::ViewOverlay& out) {
    for (const Measurement& m : set.all())
        if (onShownSlice(view, m)) drawMeasurement(view, m, m.id == selected, unit, out);
}

}  // namespace lucent::ui
