/// @brief A binary mask on a box of one slice's plane, and what slice interpolation does with it:
/// 8-connected components, exact Euclidean distance transforms in mm, centroids and shifts.
#pragma once

#include <cstdint>
#include <vector>

namespace lucent::fill {

/// A rectangle of plane pixels [x0, x0 + w) x [y0, y0 + h); it may reach past the plane's edges
/// (a shape moved to another's centroid can), pixels there count as background.
struct PlaneBox {
    int x0 = 0, y0 = 0, w = 0, h = 0;
    bool empty() const { return w <= 0 || h <= 0; }
    PlaneBox grown(int margin) const { return {x0 - margin, y0 - margin, w + 2 * margin, h + 2 * margin}; }
    PlaneBox shifted(int dx, int dy) const { return {x0 + dx, y0 + dy, w, h}; }
};

/// The smallest box holding both (an empty box holds nothing).
PlaneBox unite(const PlaneBox& a, const PlaneBox& b);

/// Pixel spacing of the plane in mm (u: the plane's first axis, v: its second).
struct PlaneSpacing {
    double u = 1, v = 1;
};

class PlaneMask {
public:
    PlaneMask() = default;
    explicit PlaneMask(const PlaneBox& box) : m_box(box), m_bits(std::size_t(box.w) * std::size_t(box.h), 0) {}

    const PlaneBox& box() const { return m_box; }
    std::size_t size() const { return m_bits.size(); }
    std::uint8_t& operator[](std::size_t n) { return m_bits[n]; }
    std::uint8_t operator[](std::size_t n) const { return m_bits[n]; }
    /// The pixel at plane coordinates (x, y); 0 outside the box.
    std::uint8_t at(int x, int y) const {
        const int lx = x - m_box.x0, ly = y - m_box.y0;
        if (lx < 0 || ly < 0 || lx >= m_box.w || ly >= m_box.h) return 0;
        return m_bits[std::size_t(ly) * m_box.w + lx];
    }
    bool any() const;
    /// The box of the set pixels (empty when none).
    PlaneBox tightBox() const;
    /// This mask on another box (pixels outside this box are 0), moved by (dx, dy).
    PlaneMask resampled(const PlaneBox& box, int dx = 0, int dy = 0) const;

private:
    PlaneBox m_box;
    std::vector<std::uint8_t> m_bits;
};

/// Squared Euclidean distance in mm^2 from each pixel of `mask`'s box to the nearest pixel whose
/// value is `target` (1: set, 0: background), pixels outside the box not counted
/// (Felzenszwalb-Huttenlocher, exact, separable). Without such a pixel, a huge value (> 1e19).
std::vector<double> squaredDistance(const PlaneMask& mask, std::uint8_t target, const PlaneSpacing& spacing);

/// Signed distance in mm, negative inside: distance to the set outside it, minus the distance to
/// the background inside it, so the zero crossing lies halfway between pixel centres. The box must
/// hold background around the set (a margin of one pixel).
std::vector<double> signedDistance(const PlaneMask& mask, const PlaneSpacing& spacing);

/// 8-connected components of the set pixels, numbered 1..count in scan order (0: background).
struct PlaneComponents {
    std::vector<std::uint32_t> ids;  ///< one per pixel of the mask's box
    std::uint32_t count = 0;
};
PlaneComponents components(const PlaneMask& mask);

/// The centroid of the set pixels in plane coordinates (x, y); false when the mask is empty.
bool centroid(const PlaneMask& mask, double& cx, double& cy);

}  // namespace lucent::fill
