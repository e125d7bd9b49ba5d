/// @brief Plane and line against a volume's box: the box's 12 edges cut by the plane, sorted by
/// angle around their centre; the line clipped slab by slab in index space (the grid is affine).
#include "lucent/render/PlaneOutline.h"

#include <algorithm>
#include <cmath>

namespace lucent::render {

std::vector<Vec3> planeOutline(const Geometry& g, Vec3 point, Vec3 normal) {
    const Vec3 n = normalized(normal);
    const Vec3 hi{g.dims[0] - 1.0, g.dims[1] - 1.0, g.dims[2] - 1.0};
    std::array<Vec3, 8> corner;
    std::array<double, 8> side;
    for (int c = 0; c < 8; ++c) {
        corner[c] = g.voxelToPatient({c & 1 ? hi.x : 0.0, c & 2 ? hi.y : 0.0, c & 4 ? hi.z : 0.0});
        side[c] = dot(corner[c] - point, n);
    }
    std::vector<Vec3> cut;
    auto add = [&](Vec3 p) {
        for (const Vec3& q : cut)
            if (norm(p - q) < 1e-7) return;
        cut.push_back(p);
    };
    for (int a = 0; a < 8; ++a)
        for (int bit : {1, 2, 4}) {
            if (a & bit) continue;  // each edge once, from its lower corner
            const int b = a | bit;
            if (side[a] == 0) add(corner[a]);
            if (side[b] == 0) add(corner[b]);
            if ((side[a] < 0 && side[b] > 0) || (side[a] > 0 && side[b] < 0))
                add(corner[a] + (corner[b] - corner[a]) * (side[a] / (side[a] - side[b])));
        }
    if (cut.size() < 3) return {};
    // Around the centre, by angle in the plane.
    Vec3 centre{0, 0, 0};
    for (const Vec3& p : cut) centre = centre + p;
    centre = centre * (1.0 / double(cut.size()));
    const Vec3 helper = std::abs(n.x) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
    const Vec3 u = normalized(cross(n, helper)), v = cross(n, u);
    std::sort(cut.begin(), cut.end(), [&](Vec3 p, Vec3 q) {
        return std::atan2(dot(p - centre, v), dot(p - centre, u)) < std::atan2(dot(q - centre, v), dot(q - centre, u));
    });
    return cut;
}

std::optional<std::array<Vec3, 2>> lineInBox(const Geometry& g, Vec3 point, Vec3 direction) {
    const Vec3 p = g.patientToVoxel(point), w = g.patientToVoxel(point + direction) - p;
    double t0 = -1e300, t1 = 1e300;
    for (int a = 0; a < 3; ++a) {
        const double lo = 0.0, hi = g.dims[a] - 1.0;
        if (std::abs(w[a]) < 1e-12) {
            if (p[a] < lo || p[a] > hi) return std::nullopt;
            continue;
        }
        double ta = (lo - p[a]) / w[a], tb = (hi - p[a]) / w[a];
        if (ta > tb) std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
    }
    if (t0 > t1) return std::nullopt;
    return std::array<Vec3, 2>{point + direction * t0, point + direction * t1};
}

}  // namespace lucent::render
