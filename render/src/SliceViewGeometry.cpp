/// @brief Axis choice by direction cosines, patient planes, fitting, and the screen/voxel transforms
/// of a slice view.
#include "lucent/render/SliceViewGeometry.h"

#include <algorithm>
#include <cmath>

namespace lucent::render {

const char* orientationName(Orientation o) {
    switch (o) {
    case Orientation::Axial: return "axial";
    case Orientation::Coronal: return "coronal";
    case Orientation::Sagittal: return "sagittal";
    }
    return "?";
}

namespace {
// Patient (LPS) directions wanted for screen right, screen down, and the view normal.
void targets(Orientation o, Vec3& right, Vec3& down, Vec3& normal) {
    switch (o) {
    case Orientation::Axial: right = {1, 0, 0}; down = {0, 1, 0}; normal = {0, 0, 1}; break;
    case Orientation::Coronal: right = {1, 0, 0}; down = {0, 0, -1}; normal = {0, 1, 0}; break;
    case Orientation::Sagittal: right = {0, 1, 0}; down = {0, 0, -1}; normal = {1, 0, 0}; break;
    }
}

// Parallel to within rounding (a DICOM direction of 1.0, 0.0, ... as parsed).
constexpr double kAligned = 1 - 1e-9;
}  // namespace

void SliceViewGeometry::setVolume(const Geometry& geometry) {
    m_geometry = geometry;
    chooseAxes();
}

void SliceViewGeometry::setOrientation(Orientation orientation) {
    m_orientation = orientation;
    chooseAxes();
}

void SliceViewGeometry::setPlaneMode(PlaneMode mode) {
    m_mode = mode;
    chooseAxes();
}

void SliceViewGeometry::setViewport(int width, int height) {
    m_width = std::max(1, width);
    m_height = std::max(1, height);
}

void SliceViewGeometry::chooseAxes() {
    Vec3 right, down, normal;
    targets(m_orientation, right, down, normal);
    const Mat3& d = m_geometry.direction;
    // The normal axis: the volume axis most parallel to the wanted normal.
    int n = 0;
    for (int a = 1; a < 3; ++a)
        if (std::abs(dot(d.col[a], normal)) > std::abs(dot(d.col[n], normal))) n = a;
    const int a0 = (n + 1) % 3, a1 = (n + 2) % 3;
    // Of the other two, the one most parallel to screen-right goes right.
    const bool firstRight = std::abs(dot(d.col[a0], right)) >= std::abs(dot(d.col[a1], right));
    const int r = firstRight ? a0 : a1, dn = firstRight ? a1 : a0;
    m_axes = {r, dn, n};
    m_signs = {dot(d.col[r], right) >= 0 ? 1.0 : -1.0, dot(d.col[dn], down) >= 0 ? 1.0 : -1.0};
    m_aligned = std::abs(dot(d.col[n], normal)) > kAligned && std::abs(dot(d.col[r], right)) > kAligned &&
                std::abs(dot(d.col[dn], down)) > kAligned;
    placePatientPlanes();
}

void SliceViewGeometry::placePatientPlanes() {
    Vec3 wantedNormal;
    targets(m_orientation, m_right, m_down, wantedNormal);
    const Geometry& g = m_geometry;
    const int n = m_axes[2];
    // Slice numbers grow the way the nearest axis's index grows, so that both modes number alike.
    const double cosine = dot(g.direction.col[n], wantedNormal);
    m_normal = cosine >= 0 ? wantedNormal : wantedNormal * -1.0;
    m_centre = g.voxelToPatient({(g.dims[0] - 1) / 2.0, (g.dims[1] - 1) / 2.0, (g.dims[2] - 1) / 2.0});
    // The voxel boxes' extent across the screen axes (as Volume mode fits dims x spacing).
    m_extent = {0, 0};
    for (int a = 0; a < 3; ++a) {
        const double length = g.dims[a] * g.spacing[a];
        m_extent[0] += length * std::abs(dot(g.direction.col[a], m_right));
        m_extent[1] += length * std::abs(dot(g.direction.col[a], m_down));
    }
    // Slices cover the voxel centres' bounding box along the normal.
    double lo = 0, hi = 0;
    for (int c = 0; c < 8; ++c) {
        const Vec3 corner{c & 1 ? g.dims[0] - 1.0 : 0.0, c & 2 ? g.dims[1] - 1.0 : 0.0, c & 4 ? g.dims[2] - 1.0 : 0.0};
        const double t = dot(g.voxelToPatient(corner), m_normal);
        lo = c ? std::min(lo, t) : t;
        hi = c ? std::max(hi, t) : t;
    }
    const double smallest = std::min({g.spacing.x, g.spacing.y, g.spacing.z});
    m_step = std::max(g.spacing[n] * std::abs(cosine), 1e-3 * smallest);
    m_firstSlice = lo;
    m_count = int(std::floor((hi - lo) / m_step + 1e-6)) + 1;
}

double SliceViewGeometry::fitScale() const {
    double w, h;
    if (m_mode == PlaneMode::Patient) {
        w = m_extent[0];
        h = m_extent[1];
    } else {
        w = m_geometry.dims[m_axes[0]] * m_geometry.spacing[m_axes[0]];
        h = m_geometry.dims[m_axes[1]] * m_geometry.spacing[m_axes[1]];
    }
    return std::min(m_width / std::max(w, 1e-9), m_height / std::max(h, 1e-9));
}

double SliceViewGeometry::pixelsPerMm() const { return fitScale() * m_zoom; }

void SliceViewGeometry::setPan(double dx, double dy) {
    const double k = pixelsPerMm();
    m_panMm = {dx / k, dy / k};
}

std::array<double, 2> SliceViewGeometry::pan() const {
    const double k = pixelsPerMm();
    return {m_panMm[0] * k, m_panMm[1] * k};
}

int SliceViewGeometry::sliceCount() const {
    return m_mode == PlaneMode::Patient ? m_count : m_geometry.dims[m_axes[2]];
}

int SliceViewGeometry::slice() const {
    if (m_mode == PlaneMode::Patient) {
        const double t = dot(m_geometry.voxelToPatient(m_cursor), m_normal);
        return std::clamp(int(std::lround((t - m_firstSlice) / m_step)), 0, m_count - 1);
    }
    const int n = m_axes[2];
    return std::clamp(int(std::lround(m_cursor[n])), 0, std::max(0, m_geometry.dims[n] - 1));
}

double SliceViewGeometry::planeOffset() const { return m_firstSlice + slice() * m_step; }

Vec3 SliceViewGeometry::cursorOnSlice(int index) const {
    const Geometry& g = m_geometry;
    index = std::clamp(index, 0, std::max(0, sliceCount() - 1));
    Vec3 c = m_cursor;
    if (m_mode == PlaneMode::Volume) {
        c[m_axes[2]] = index;
        return c;
    }
    // Along the normal first; w is that unit move in voxel steps (the grid is affine).
    const Vec3 w = g.patientToVoxel(g.voxelToPatient(c) + m_normal) - c;
    const double target = m_firstSlice + index * m_step;
    auto inside = [&](Vec3 v) {
        for (int a = 0; a < 3; ++a) v[a] = std::clamp(v[a], 0.0, g.dims[a] - 1.0);
        return v;
    };
    auto offset = [&](double lambda) { return dot(g.voxelToPatient(inside(c + w * lambda)), m_normal); };
    const double direct = target - dot(g.voxelToPatient(c), m_normal);
    const Vec3 straight = c + w * direct;
    if (inside(straight) == straight) return straight;
    // The line leaves the volume: slide along the volume's faces. The clamped path's offset grows
    // with lambda from the lowest corner to the highest, so bisection finds the plane.
    double lo = -1e7, hi = 1e7;
    for (int i = 0; i < 200 && hi - lo > 1e-9; ++i) {
        const double mid = 0.5 * (lo + hi);
        (offset(mid) < target ? lo : hi) = mid;
    }
    return inside(c + w * (0.5 * (lo + hi)));
}

bool SliceViewGeometry::onSlice(Vec3 voxel) const {
    if (m_mode == PlaneMode::Volume) return std::lround(voxel[m_axes[2]]) == slice();
    const double t = dot(m_geometry.voxelToPatient(voxel), m_normal);
    return std::abs(t - planeOffset()) <= 0.5 * m_step * (1 + 1e-9);
}

Vec3 SliceViewGeometry::rightDirection() const {
    return m_mode == PlaneMode::Patient ? m_right : m_geometry.direction.col[m_axes[0]] * m_signs[0];
}

Vec3 SliceViewGeometry::downDirection() const {
    return m_mode == PlaneMode::Patient ? m_down : m_geometry.direction.col[m_axes[1]] * m_signs[1];
}

Vec3 SliceViewGeometry::normalDirection() const {
    return m_mode == PlaneMode::Patient ? m_normal : m_geometry.direction.col[m_axes[2]];
}

double SliceViewGeometry::sliceStepMm() const {
    return m_mode == PlaneMode::Patient ? m_step : m_geometry.spacing[m_axes[2]];
}

Vec3 SliceViewGeometry::screenToVoxel(double x, double y) const {
    const double k = pixelsPerMm();
    if (m_mode == PlaneMode::Patient) {
        // The volume centre, projected on the shown plane, sits at the viewport centre plus the pan.
        const double a = (x - m_width / 2.0) / k - m_panMm[0], b = (y - m_height / 2.0) / k - m_panMm[1];
        const Vec3 p = m_centre + m_right * a + m_down * b + m_normal * (planeOffset() - dot(m_centre, m_normal));
        return m_geometry.patientToVoxel(p);
    }
    const int r = m_axes[0], d = m_axes[1], n = m_axes[2];
    Vec3 v;
    // The slice centre sits at the viewport centre plus the pan.
    v[r] = (m_geometry.dims[r] - 1) / 2.0 + ((x - m_width / 2.0) / k - m_panMm[0]) / (m_signs[0] * m_geometry.spacing[r]);
    v[d] = (m_geometry.dims[d] - 1) / 2.0 + ((y - m_height / 2.0) / k - m_panMm[1]) / (m_signs[1] * m_geometry.spacing[d]);
    v[n] = slice();
    return v;
}

std::array<double, 2> SliceViewGeometry::voxelToScreen(Vec3 v) const {
    const double k = pixelsPerMm();
    if (m_mode == PlaneMode::Patient) {
        const Vec3 p = m_geometry.voxelToPatient(v) - m_centre;
        return {m_width / 2.0 + (m_panMm[0] + dot(p, m_right)) * k, m_height / 2.0 + (m_panMm[1] + dot(p, m_down)) * k};
    }
    const int r = m_axes[0], d = m_axes[1];
    return {m_width / 2.0 + (m_panMm[0] + (v[r] - (m_geometry.dims[r] - 1) / 2.0) * m_signs[0] * m_geometry.spacing[r]) * k,
            m_height / 2.0 + (m_panMm[1] + (v[d] - (m_geometry.dims[d] - 1) / 2.0) * m_signs[1] * m_geometry.spacing[d]) * k};
}

void SliceViewGeometry::shaderMapping(Vec3& origin, Vec3& dx, Vec3& dy) const {
    origin = screenToVoxel(0, 0);
    const Vec3 x1 = screenToVoxel(1, 0), y1 = screenToVoxel(0, 1);
    dx = x1 - origin;
    dy = y1 - origin;
}

std::optional<VolumePlane> SliceViewGeometry::shownVolumePlane() const {
    Vec3 o, dx, dy;
    shaderMapping(o, dx, dy);
    const int n = m_axes[2];
    const long k = std::lround(o[n]);
    // Volume mode sets the normal component to the slice exactly; an aligned patient plane lands
    // within rounding of it.
    if (std::abs(dx[n]) > 1e-9 || std::abs(dy[n]) > 1e-9 || std::abs(o[n] - double(k)) > 1e-6) return std::nullopt;
    if (k < 0 || k >= m_geometry.dims[std::size_t(n)]) return std::nullopt;
    return VolumePlane{n, int(k)};
}

std::string SliceViewGeometry::edgeLetter(int edge) const {
    Vec3 dir = edge < 2 ? rightDirection() : downDirection();
    if (edge == 1 || edge == 2) dir = dir * -1.0;
    const char pos[3] = {'L', 'P', 'S'}, neg[3] = {'R', 'A', 'I'};
    // Components by size; a second letter where the direction leans that way noticeably.
    std::array<int, 3> order{0, 1, 2};
    std::sort(order.begin(), order.end(), [&](int a, int b) { return std::abs(dir[a]) > std::abs(dir[b]); });
    std::string s(1, dir[order[0]] >= 0 ? pos[order[0]] : neg[order[0]]);
    if (std::abs(dir[order[1]]) > 0.34) s += dir[order[1]] >= 0 ? pos[order[1]] : neg[order[1]];
    return s;
}

}  // namespace lucent::render
