/// @brief Snake polygons filled on their slice (PolygonFill.h).
#include "PolygonFill.h"

#include "lucent/core/seg/SnakeSlices.h"

#include <cmath>

namespace lucent::ui {

std::vector<std::uint8_t> polygonFill(const std::vector<std::array<double, 2>>& points, const Geometry& g) {
    std::vector<std::uint8_t> slice(g.sliceSize(), 0);
    std::vector<PixelPoint> poly;
    for (const auto& q : points) poly.push_back({int(std::lround(q[0])), int(std::lround(q[1]))});
    if (poly.size() >= 3) rasterisePolygon(poly, g.dims[0], g.dims[1], slice.data());
    return slice;
}

void clipToRequest(std::vector<std::uint8_t>& slice, int k, const SegmentationRequest& r, const Geometry& g) {
    if (!r.roi && !r.mask) return;
    for (int j = 0; j < g.dims[1]; ++j)
        for (int i = 0; i < g.dims[0]; ++i) {
            std::uint8_t& v = slice[std::size_t(j) * std::size_t(g.dims[0]) + std::size_t(i)];
            if ((r.roi && !r.roi->contains(i, j, k)) || (r.mask && !(*r.mask)[g.index(i, j, k)])) v = 0;
        }
}

}  // namespace lucent::ui
