/// @brief Axis choice by direction cosines, fitting, and the screen/voxel transforms of a slice view.
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
}  // namespace

void SliceViewGeometry::setVolume(const Geometry& geometry) {
    m_geometry = geometry;
    chooseAxes();
}

void SliceViewGeometry::setOrientation(Orientation orientation) {
    m_orientation = orientation;
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
}

double SliceViewGeometry::fitScale() const {
    const double w = m_geometry.dims[m_axes[0]] * m_geometry.spacing[m_axes[0]];
    const double h = m_geometry.dims[m_axes[1]] * m_geometry.spacing[m_axes[1]];
    return std::min(m_width / std::max(w, 1e-9), m_height / std::max(h, 1e-9));
}

double SliceViewGeometry::pixelsPerMm() const { return fitScale() * m_zoom; }

int SliceViewGeometry::slice() const {
    const int n = m_axes[2];
    return std::clamp(int(std::lround(m_cursor[n])), 0, std::max(0, m_geometry.dims[n] - 1));
}

Vec3 SliceViewGeometry::screenToVoxel(double x, double y) const {
    const int r = m_axes[0], d = m_axes[1], n = m_axes[2];
    const double k = pixelsPerMm();
    Vec3 v;
    // The slice centre sits at the viewport centre plus the pan.
    v[r] = (m_geometry.dims[r] - 1) / 2.0 + (x - m_width / 2.0 - m_pan[0]) / (m_signs[0] * m_geometry.spacing[r] * k);
    v[d] = (m_geometry.dims[d] - 1) / 2.0 + (y - m_height / 2.0 - m_pan[1]) / (m_signs[1] * m_geometry.spacing[d] * k);
    v[n] = slice();
    return v;
}

std::array<double, 2> SliceViewGeometry::voxelToScreen(Vec3 v) const {
    const int r = m_axes[0], d = m_axes[1];
    const double k = pixelsPerMm();
    return {m_width / 2.0 + m_pan[0] + (v[r] - (m_geometry.dims[r] - 1) / 2.0) * m_signs[0] * m_geometry.spacing[r] * k,
            m_height / 2.0 + m_pan[1] + (v[d] - (m_geometry.dims[d] - 1) / 2.0) * m_signs[1] * m_geometry.spacing[d] * k};
}

void SliceViewGeometry::shaderMapping(Vec3& origin, Vec3& dx, Vec3& dy) const {
    origin = screenToVoxel(0, 0);
    const Vec3 x1 = screenToVoxel(1, 0), y1 = screenToVoxel(0, 1);
    dx = x1 - origin;
    dy = y1 - origin;
}

std::string SliceViewGeometry::edgeLetter(int edge) const {
    const Mat3& d = m_geometry.direction;
    Vec3 dir = edge < 2 ? d.col[m_axes[0]] * m_signs[0] : d.col[m_axes[1]] * m_signs[1];
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
