/// @brief Geometry sanity shared by every reader: refuse what is meaningless, repair the rest aloud.
#include "lucent/io/GeometryCheck.h"

#include "lucent/core/Errors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lucent::io {

namespace {

constexpr const char* kAxis[3] = {"i", "j", "k"};
constexpr double kMinSpacing = 1e-6, kMaxSpacing = 1e6;  // mm: a nanometre to a kilometre
constexpr double kUnitTolerance = 1e-3;                  // float headers round to about 1e-7
constexpr double kParallel = 1e-3;                       // |det| of unit axes: under 0.06 degrees apart
constexpr double kPerpendicular = 1e-2;                  // |cos|: more than 0.6 degrees off 90

std::string text(Vec3 v) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "(%.6g, %.6g, %.6g)", v.x, v.y, v.z);
    return buf;
}

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

void refuseNonFinite(const Geometry& g, const std::string& source) {
    if (!finite(g.spacing))
        throw IoError(source + ": spacing " + text(g.spacing) + " is not finite (finite mm expected)");
    for (int a = 0; a < 3; ++a)
        if (!finite(g.direction.col[a]))
            throw IoError(source + ": direction of the " + kAxis[a] + " axis " + text(g.direction.col[a]) +
                          " is not finite (a unit vector expected)");
    if (!finite(g.origin)) throw IoError(source + ": origin " + text(g.origin) + " is not finite (finite mm expected)");
}

void checkSpacing(Geometry& g, const std::string& source, std::vector<std::string>& warnings) {
    for (int a = 0; a < 3; ++a) {
        double& s = g.spacing[a];
        if (s == 0) {
            warnings.push_back("spacing along the " + std::string(kAxis[a]) + " axis is 0: 1 mm assumed");
            s = 1.0;
        } else if (s < 0) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "spacing along the %s axis is %.6g: %.6g mm assumed, with the axis reversed",
                          kAxis[a], s, -s);
            warnings.push_back(buf);
            s = -s;
            g.direction.col[a] = g.direction.col[a] * -1.0;
        }
        if (s < kMinSpacing || s > kMaxSpacing) {
            char buf[160];
            std::snprintf(buf, sizeof buf,
                          ": spacing %.6g mm along the %s axis is not plausible (%g to %g mm expected)", s, kAxis[a],
                          kMinSpacing, kMaxSpacing);
            throw IoError(source + buf);
        }
    }
}

/// Unit length for every axis that has a direction; returns the axes that have none.
int normaliseAxes(Geometry& g, std::vector<std::string>& warnings, bool missing[3]) {
    int count = 0;
    for (int a = 0; a < 3; ++a) {
        Vec3& v = g.direction.col[a];
        const double len = norm(v);
        missing[a] = len < 1e-9;
        if (missing[a]) {
            ++count;
            continue;
        }
        if (std::abs(len - 1.0) > kUnitTolerance)
            warnings.push_back("direction of the " + std::string(kAxis[a]) + " axis " + text(v) +
                               " is not a unit vector: normalised");
        if (std::abs(len - 1.0) > 1e-12) v = v * (1.0 / len);  // unit vectors stay bit for bit
    }
    return count;
}

void checkDirection(Geometry& g, std::vector<std::string>& warnings) {
    bool missing[3];
    const int absent = normaliseAxes(g, warnings, missing);
    Mat3& d = g.direction;
    if (absent == 1) {
        const int a = missing[0] ? 0 : (missing[1] ? 1 : 2);
        const Vec3 n = cross(d.col[(a + 1) % 3], d.col[(a + 2) % 3]);
        if (norm(n) > kParallel) {
            d.col[a] = normalized(n);
            warnings.push_back("the " + std::string(kAxis[a]) +
                               " axis has no direction: taken perpendicular to the "
                               "other two " +
                               text(d.col[a]));
            return;
        }
    }
    if (absent > 0 || std::abs(d.determinant()) < kParallel) {
        warnings.push_back("direction axes " + text(d.col[0]) + " " + text(d.col[1]) + " " + text(d.col[2]) +
                           " are not independent (zero or parallel): identity orientation (axial) assumed");
        d = Mat3{};
        return;
    }
    for (int a = 0; a < 3; ++a) {
        const int b = (a + 1) % 3;
        const double c = dot(d.col[a], d.col[b]);
        if (std::abs(c) > kPerpendicular) {
            char buf[200];
            std::snprintf(buf, sizeof buf,
                          "the %s and %s axes are %.3g degrees apart, not 90: the grid is sheared and "
                          "kept as it is",
                          kAxis[std::min(a, b)], kAxis[std::max(a, b)],
                          std::acos(std::max(-1.0, std::min(1.0, c))) * 180.0 / 3.14159265358979);
            warnings.push_back(buf);
        }
    }
}

}  // namespace

void checkGeometry(Geometry& g, const std::string& source, std::vector<std::string>& warnings) {
    for (int a = 0; a < 3; ++a)
        if (g.dims[a] < 1)
            throw IoError(source + ": size " + std::to_string(g.dims[a]) + " along the " + kAxis[a] +
                          " axis (1 or more expected)");
    refuseNonFinite(g, source);
    checkSpacing(g, source, warnings);
    checkDirection(g, warnings);
}

}  // namespace lucent::io
