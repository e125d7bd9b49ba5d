/// @brief Integer polygon geometry for the region snake, shared by the CPU and CUDA engines: exact
/// crossing columns, segment intersection, the candidate moves and the test that a move crosses the polygon.
#pragma once

#include "lucent/core/seg/HostDevice.h"

#include <cstdint>

namespace lucent {

struct PixelPoint {
    int x = 0, y = 0;
    friend bool operator==(const PixelPoint&, const PixelPoint&) = default;
};

/// The pixels the snake sees on every slice, [x0, x1] x [y0, y1] inclusive: the whole slice (the
/// paper's setting) or the request's domain. The engines behave exactly as on the slice cropped to
/// it: nodes stay inside, the image's totals and the region sums count its pixels only.
struct SnakeBounds {
    int x0 = 0, y0 = 0, x1 = -1, y1 = -1;
    LUCENT_HD int width() const { return x1 - x0 + 1; }
    LUCENT_HD int height() const { return y1 - y0 + 1; }
    /// Where a node may go.
    LUCENT_HD bool contains(PixelPoint p) const { return p.x >= x0 && p.y >= y0 && p.x <= x1 && p.y <= y1; }
    /// The pixels of a row inside the bounds and left of crossing column `column` (see
    /// crossingColumn): what a crossing adds to a region's count, cut to the bounds.
    LUCENT_HD int pixelsLeftOf(int column) const {
        const int n = column - x0;
        return n < 0 ? 0 : n > width() ? width() : n;
    }
    friend bool operator==(const SnakeBounds&, const SnakeBounds&) = default;
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
    const long long a = static_cast<long long>(y - p.y) * (q.x - p.x);
    const int b = q.y - p.y;
    // 32-bit division when the product fits (any slice up to 46340 pixels a side): on the device a
    // 64-bit division is a long software routine on every row of every candidate segment. Integer
    // division is exact, so both paths give the same column.
    if (a >= -2147483647LL && a <= 2147483647LL) {
        const int ai = static_cast<int>(a);
        int quotient = ai / b;
        if (ai % b != 0 && (ai > 0) == (b > 0)) ++quotient;
        return p.x + quotient;
    }
    return static_cast<int>(p.x + ceilDiv(a, b));
}

/// Sign of the turn a->b->c: >0 left, <0 right, 0 collinear.
LUCENT_HD inline long long orientation(PixelPoint a, PixelPoint b, PixelPoint c) {
    return static_cast<long long>(b.x - a.x) * (c.y - a.y) - static_cast<long long>(b.y - a.y) * (c.x - a.x);
}

LUCENT_HD inline bool onSegment(PixelPoint a, PixelPoint b, PixelPoint p) {
    return orientation(a, b, p) == 0 && p.x >= (a.x < b.x ? a.x : b.x) && p.x <= (a.x > b.x ? a.x : b.x) &&
           p.y >= (a.y < b.y ? a.y : b.y) && p.y <= (a.y > b.y ? a.y : b.y);
}

/// True when closed segments ab and cd share any point.
LUCENT_HD inline bool segmentsTouch(PixelPoint a, PixelPoint b, PixelPoint c, PixelPoint d) {
    const long long o1 = orientation(a, b, c), o2 = orientation(a, b, d), o3 = orientation(c, d, a),
                    o4 = orientation(c, d, b);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
    return onSegment(a, b, c) || onSegment(a, b, d) || onSegment(c, d, a) || onSegment(c, d, b);
}

/// Candidate move w (0..7) of a node at p by d: E, SE, S, SW, W, NW, N, NE (image coordinates, y
/// down). The index is the tie-break order both engines share: among equal GL the lowest w wins.
LUCENT_HD inline PixelPoint snakeMove(PixelPoint p, int w, int d) {
    const int dx = (w == 0 || w == 1 || w == 7) ? 1 : (w >= 3 && w <= 5) ? -1 : 0;
    const int dy = (w >= 1 && w <= 3) ? 1 : (w >= 5) ? -1 : 0;
    return {p.x + dx * d, p.y + dy * d};
}

/// Rounding k (0..3) of the middle of segment p-q, where a node may be inserted: x rounded down
/// (k = 0, 1) or up (k = 2, 3), y down (k even) or up (k odd). False when the rounding lands on p or
/// q or repeats another (the middle is already on the grid). Both engines try k in this order.
LUCENT_HD inline bool insertCandidate(PixelPoint p, PixelPoint q, int k, PixelPoint& c) {
    const int a = k >> 1, b = k & 1;
    const int x0 = (p.x + q.x) / 2, x1 = (p.x + q.x + 1) / 2, y0 = (p.y + q.y) / 2, y1 = (p.y + q.y + 1) / 2;
    c = {a ? x1 : x0, b ? y1 : y0};
    return !(c == p || c == q || (a && x1 == x0) || (b && y1 == y0));
}

/// A segment at least `minSegment` long (in x or y) gets a node in its middle when nothing moves.
LUCENT_HD inline bool longSegment(PixelPoint p, PixelPoint q, int minSegment) {
    const int dx = q.x > p.x ? q.x - p.x : p.x - q.x, dy = q.y > p.y ? q.y - p.y : p.y - q.y;
    return (dx > dy ? dx : dy) >= minSegment;
}

/// Moving a node between neighbours p and q to c is refused outright when c lands on a neighbour
/// or the two new segments fold back onto each other (collinear overlap).
LUCENT_HD inline bool foldsBack(PixelPoint p, PixelPoint c, PixelPoint q) {
    if (c == p || c == q) return true;
    return orientation(p, c, q) == 0 && (onSegment(p, c, q) || onSegment(c, q, p));
}

/// New segment u-w (u or w being `common`, the neighbour it shares with the polygon when `shares`)
/// against segment a-b: touching only at the shared vertex is fine; collinear overlap is not.
LUCENT_HD inline bool touchesBeyond(PixelPoint u, PixelPoint w, PixelPoint a, PixelPoint b, bool shares, PixelPoint common) {
    if (!segmentsTouch(u, w, a, b)) return false;
    if (!shares) return true;
    const PixelPoint other = (a == common) ? b : a;
    const PixelPoint far = (u == common) ? w : u;
    return onSegment(u, w, other) || onSegment(a, b, far);
}

/// True when the new segments p-c and c-q (a node between neighbours p and q moved or inserted at c)
/// meet segment a-b, one of the polygon's other segments, anywhere but at p or q as a shared end.
/// A move is refused when this holds for any other segment: the polygon stays simple.
LUCENT_HD inline bool blockedBy(PixelPoint p, PixelPoint c, PixelPoint q, PixelPoint a, PixelPoint b) {
    // Disjoint bounding boxes cannot touch: most segments of a long polygon leave here.
    const int lo = a.x < b.x ? a.x : b.x, hi = a.x < b.x ? b.x : a.x, top = a.y < b.y ? a.y : b.y,
              bottom = a.y < b.y ? b.y : a.y;
    if ((p.x < lo && c.x < lo && q.x < lo) || (p.x > hi && c.x > hi && q.x > hi) ||
        (p.y < top && c.y < top && q.y < top) || (p.y > bottom && c.y > bottom && q.y > bottom))
        return false;
    const bool sharesP = (a == p || b == p), sharesQ = (a == q || b == q);
    return touchesBeyond(p, c, a, b, sharesP, p) || touchesBeyond(c, q, a, b, sharesQ, q);
}

}  // namespace lucent
