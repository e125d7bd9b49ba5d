/// @brief Ruler lengths and angles in patient space, ROI statistics over a slice's voxels, labels
/// and CSV text of measurements.
#include "lucent/core/Measurement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <locale>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace lucent {

namespace {

// A voxel centre this close to the ROI's boundary (in voxels) counts as on it: corners that come
// from voxel positions through patient space and back carry rounding of about 1e-13.
constexpr double kOnBoundary = 1e-9;

/// The plane's two in-plane axes, in increasing order.
std::pair<int, int> inPlaneAxes(int axis) {
    if (axis == 0) return {1, 2};
    if (axis == 1) return {0, 2};
    return {0, 1};
}

}  // namespace

const char* measurementKindName(MeasurementKind kind) {
    switch (kind) {
    case MeasurementKind::Ruler: return "ruler";
    case MeasurementKind::Angle: return "angle";
    case MeasurementKind::Ellipse: return "ellipse";
    case MeasurementKind::Rectangle: return "rectangle";
    }
    return "?";
}

int measurementPointCount(MeasurementKind kind) { return kind == MeasurementKind::Angle ? 3 : 2; }

double distanceMm(Vec3 a, Vec3 b) { return norm(b - a); }

double angleDegrees(Vec3 a, Vec3 vertex, Vec3 b) {
    const Vec3 u = a - vertex, v = b - vertex;
    const double nu = norm(u), nv = norm(v);
    if (nu == 0 || nv == 0) return 0;
    // atan2 of |u x v| and u . v keeps full precision near 0 and 180 degrees, where acos does not.
    return std::atan2(norm(cross(u, v)), dot(u, v)) * 180.0 / std::numbers::pi;
}

RoiStatistics roiStatistics(const Volume& volume, MeasurementKind kind, int axis, int slice, Vec3 cornerA,
                            Vec3 cornerB) {
    if (kind != MeasurementKind::Ellipse && kind != MeasurementKind::Rectangle)
        throw std::invalid_argument("roiStatistics: not an ROI");
    if (axis < 0 || axis > 2) throw std::invalid_argument("roiStatistics: axis must be 0, 1 or 2");
    const Geometry& g = volume.geometry();
    const auto [ua, va] = inPlaneAxes(axis);
    const Vec3 a = g.patientToVoxel(cornerA), b = g.patientToVoxel(cornerB);
    const double u0 = std::min(a[ua], b[ua]), u1 = std::max(a[ua], b[ua]);
    const double v0 = std::min(a[va], b[va]), v1 = std::max(a[va], b[va]);
    RoiStatistics s;
    // Area of one voxel face in this plane: the edge vectors' cross product (sheared grids too).
    const double pixelArea = norm(cross(g.direction.col[ua] * g.spacing[ua], g.direction.col[va] * g.spacing[va]));
    const double cu = (u0 + u1) / 2, cv = (v0 + v1) / 2, ru = (u1 - u0) / 2, rv = (v1 - v0) / 2;
    const bool ellipse = kind == MeasurementKind::Ellipse;
    s.areaMm2 = (ellipse ? std::numbers::pi * ru * rv : (u1 - u0) * (v1 - v0)) * pixelArea;
    if (slice < 0 || slice >= g.dims[axis]) return s;
    const int iu0 = std::max(0, int(std::ceil(u0 - kOnBoundary)));
    const int iu1 = std::min(g.dims[ua] - 1, int(std::floor(u1 + kOnBoundary)));
    const int iv0 = std::max(0, int(std::ceil(v0 - kOnBoundary)));
    const int iv1 = std::min(g.dims[va] - 1, int(std::floor(v1 + kOnBoundary)));
    std::vector<double> values;
    for (int iv = iv0; iv <= iv1; ++iv)
        for (int iu = iu0; iu <= iu1; ++iu) {
            if (ellipse) {
                // A flat ellipse (a zero radius) holds no voxel centre but its own line: count none.
                if (ru <= 0 || rv <= 0) continue;
                const double du = (iu - cu) / ru, dv = (iv - cv) / rv;
                if (du * du + dv * dv > 1 + kOnBoundary) continue;
            }
            int ijk[3];
            ijk[axis] = slice;
            ijk[ua] = iu;
            ijk[va] = iv;
            values.push_back(volume.value(ijk[0], ijk[1], ijk[2]));
        }
    s.voxels = values.size();
    if (values.empty()) return s;
    // Two passes: the mean first, then squared deviations from it (no cancellation at -1000 HU).
    double sum = 0;
    s.min = s.max = values.front();
    for (double x : values) {
        sum += x;
        s.min = std::min(s.min, x);
        s.max = std::max(s.max, x);
    }
    s.mean = sum / double(values.size());
    double squares = 0;
    for (double x : values) squares += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(squares / double(values.size()));
    return s;
}

void computeMeasurement(Measurement& m, const Volume* volume) {
    if (int(m.points.size()) != measurementPointCount(m.kind))
        throw std::invalid_argument(std::string("a ") + measurementKindName(m.kind) + " needs " +
                                    std::to_string(measurementPointCount(m.kind)) + " points, not " +
                                    std::to_string(m.points.size()));
    switch (m.kind) {
    case MeasurementKind::Ruler: m.value = distanceMm(m.points[0], m.points[1]); break;
    case MeasurementKind::Angle: m.value = angleDegrees(m.points[0], m.points[1], m.points[2]); break;
    case MeasurementKind::Ellipse:
    case MeasurementKind::Rectangle:
        if (!volume) throw std::invalid_argument("an ROI's statistics need the volume");
        m.roi = roiStatistics(*volume, m.kind, m.axis, m.slice, m.points[0], m.points[1]);
        m.value = m.roi.mean;
        break;
    }
}

std::string measurementLabel(const Measurement& m, const std::string& unit) {
    char text[256];
    const std::string u = unit.empty() ? "" : " " + unit;
    switch (m.kind) {
    case MeasurementKind::Ruler: std::snprintf(text, sizeof text, "%.1f mm", m.value); break;
    case MeasurementKind::Angle: std::snprintf(text, sizeof text, "%.1f deg", m.value); break;
    default:
        if (m.roi.voxels == 0) {
            std::snprintf(text, sizeof text, "no voxels\narea %.1f mm2", m.roi.areaMm2);
            break;
        }
        std::snprintf(text, sizeof text, "mean %.1f%s  sd %.1f\nmin %.4g  max %.4g\narea %.1f mm2  (%zu voxels)", m.roi.mean,
                      u.c_str(), m.roi.stddev, m.roi.min, m.roi.max, m.roi.areaMm2, m.roi.voxels);
    }
    return text;
}

std::string measurementsCsv(const std::vector<Measurement>& measurements, const std::string& unit) {
    std::ostringstream out;
    out.imbue(std::locale::classic());  // a decimal point, whatever the user's locale
    out << std::setprecision(10);
    out << "id,type,view,slice,value,unit,mean,sd,min,max,voxels,area_mm2,x0,y0,z0,x1,y1,z1,x2,y2,z2\n";
    for (const Measurement& m : measurements) {
        const bool roi = m.kind == MeasurementKind::Ellipse || m.kind == MeasurementKind::Rectangle;
        const char* valueUnit = m.kind == MeasurementKind::Ruler ? "mm" : m.kind == MeasurementKind::Angle ? "deg" : "";
        // View names are ours ("axial"): no commas or quotes to escape.
        out << m.id << ',' << measurementKindName(m.kind) << ',' << m.view << ',' << m.slice << ',' << m.value << ','
            << (roi ? unit : std::string(valueUnit)) << ',';
        if (roi)
            out << m.roi.mean << ',' << m.roi.stddev << ',' << m.roi.min << ',' << m.roi.max << ',' << m.roi.voxels << ','
                << m.roi.areaMm2;
        else
            out << ",,,,,";
        for (std::size_t p = 0; p < 3; ++p) {
            if (p < m.points.size())
                out << ',' << m.points[p].x << ',' << m.points[p].y << ',' << m.points[p].z;
            else
                out << ",,,";
        }
        out << '\n';
    }
    return out.str();
}

}  // namespace lucent
