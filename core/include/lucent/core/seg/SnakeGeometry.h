/// @brief Integer polygon geometry for the region snake: exact crossing columns, segment intersection.
#pragma once

#include "lucent/core/seg/HostDevice.h"

#include <cstdint>

namespace lucent {

struct PixelPoint {
    int x = 0, y = 0;
    friend bool operator==(const PixelPoint&, const PixelPoint&) = default;
};

/// ceil(a / b) for b != 0, exact in integers.
LUCENT_HD inline long long ceilDiv(long long a, long long b) {
    long long q = a / b;
    if ((a % b != 0) && ((a > 0) == (b > 0))) ++q;
    return q;
}

/// The first pixel column at or right of where segment p->q crosses row y (ceil of the crossing x).
/// Pixels (i, y) with ceil(xLeft) <= i < ceil(xRight) are inside: the scanline rule both the
/// region sums and the rasterised mask use.
LUCENT_HD inline int crossingColumn(PixelPoint p, PixelPoint q, int y) {
    return static_cast<int>(p.x + ceilDiv(static_cast<long long>(y - p.y) * (q.x - p.x), q.y - p.y));
}

/// Sign of the turn a->b->c: >0 left, <0 right, 0 collinear.
inline long long orientation(PixelPoint a, PixelPoint b, PixelPoint c) {
    return static_cast<long long>(b.x - a.x) * (c.y - a.y) - static_cast<long long>(b.y - a.y) * (c.x - a.x);
}

inline bool onSegment(PixelPoint a, PixelPoint b, PixelPoint p) {
    return orientation(a, b, p) == 0 && p.x >= (a.x < b.x ? a.x : b.x) && p.x <= (a.x > b.x ? a.x : b.x) &&
           p.y >= (a.y < b.y ? a.y : b.y) && p.y <= (a.y > b.y ? a.y : b.y);
}

/// True when closed segments ab and cd share any point.
inline bool segmentsTouch(PixelPoint a, PixelPoint b, PixelPoint c, PixelPoint d) {
    const long long o1 = orientation(a, b, c), o2 = orientation(a, b, d), o3 = orientation(c, d, a),
                    o4 = orientation(c, d, b);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
    return onSegment(a, b, c) || onSegment(a, b, d) || onSegment(c, d, a) || onSegment(c, d, b);
}

}  // namespace lucent
