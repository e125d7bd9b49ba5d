/// @brief The morphological CUDA fill's kernel: per pair, the CPU's recursion (recurseMedians,
/// alignedMedian, median, vanish of core/src/fill/ShapeInterpolation.cpp) step for step, the whole
/// block on each median's box. Compiled with -fmad=false (gpu/CMakeLists.txt), as the CPU's files
/// are with -ffp-contract=off: every double is rounded alike on both.
#include "SliceFillMorph.cuh"

#include "SliceFillDistance.cuh"

#include <climits>

namespace lucent::gpu::fill {

namespace {

constexpr unsigned kAllLanes = 0xffffffffu;

/// A box of plane pixels [x0, x0 + w) x [y0, y0 + h) (the CPU's PlaneBox).
struct Box {
    int x0, y0, w, h;
};

__device__ Box tightBox(const Shape& s) { return {s.x0, s.y0, s.x1 - s.x0 + 1, s.y1 - s.y0 + 1}; }

/// The CPU's unite of two non-empty boxes.
__device__ Box unite(const Box& a, const Box& b) {
    const int x0 = min(a.x0, b.x0), y0 = min(a.y0, b.y0);
    return {x0, y0, max(a.x0 + a.w, b.x0 + b.w) - x0, max(a.y0 + a.h, b.y0 + b.h) - y0};
}

__device__ Box grown(const Box& b, int margin) {
    return {b.x0 - margin, b.y0 - margin, b.w + 2 * margin, b.h + 2 * margin};
}

/// The CPU's centroid: the origin of the mask's box plus the mean offset of the set pixels from it
/// (sums of integers, exact in a double, so the order of summing does not matter).
__device__ double centroidX(const Shape& s) { return double(s.ox) + double(s.sx - s.n * s.ox) / double(s.n); }
__device__ double centroidY(const Shape& s) { return double(s.oy) + double(s.sy - s.n * s.oy) / double(s.n); }

/// One thread's share of a shape's pixels (no initialisers: it also lives in shared memory).
struct Tally {
    long long n, sx, sy;
    int x0, y0, x1, y1;
    __device__ void add(int x, int y) {
        ++n, sx += x, sy += y;
        x0 = min(x0, x), y0 = min(y0, y), x1 = max(x1, x), y1 = max(y1, y);
    }
    __device__ void merge(const Tally& o) {
        n += o.n, sx += o.sx, sy += o.sy;
        x0 = min(x0, o.x0), y0 = min(y0, o.y0), x1 = max(x1, o.x1), y1 = max(y1, o.y1);
    }
};

__device__ Tally emptyTally() { return {0, 0, 0, INT_MAX, INT_MAX, INT_MIN, INT_MIN}; }

/// The block's tallies merged, returned to every thread.
__device__ Tally blockTally(Tally t) {
    __shared__ Tally warps[kMorphThreads / 32];
    __shared__ Tally all;
    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
        const Tally o{__shfl_down_sync(kAllLanes, t.n, offset),  __shfl_down_sync(kAllLanes, t.sx, offset),
                      __shfl_down_sync(kAllLanes, t.sy, offset), __shfl_down_sync(kAllLanes, t.x0, offset),
                      __shfl_down_sync(kAllLanes, t.y0, offset), __shfl_down_sync(kAllLanes, t.x1, offset),
                      __shfl_down_sync(kAllLanes, t.y1, offset)};
        t.merge(o);
    }
    if (threadIdx.x % warpSize == 0) warps[threadIdx.x / warpSize] = t;
    __syncthreads();
    if (threadIdx.x == 0) {
        Tally s = warps[0];
        for (int w = 1; w < int(blockDim.x / warpSize); ++w) s.merge(warps[w]);
        all = s;
    }
    __syncthreads();
    const Tally out = all;
    __syncthreads();  // the next call rewrites `all`
    return out;
}

__device__ double blockMax(double v) {
    __shared__ double warps[kMorphThreads / 32];
    __shared__ double all;
    for (int offset = warpSize / 2; offset > 0; offset /= 2) v = fmax(v, __shfl_down_sync(kAllLanes, v, offset));
    if (threadIdx.x % warpSize == 0) warps[threadIdx.x / warpSize] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        double m = warps[0];
        for (int w = 1; w < int(blockDim.x / warpSize); ++w) m = fmax(m, warps[w]);
        all = m;
    }
    __syncthreads();
    const double out = all;
    __syncthreads();
    return out;
}

/// A shape from its tally, on a CPU box whose origin is (ox, oy).
__device__ Shape shapeOf(const Tally& t, int ox, int oy) {
    Shape s;
    s.ox = ox, s.oy = oy;
    s.x0 = t.x0, s.y0 = t.y0, s.x1 = t.x1, s.y1 = t.y1;
    s.n = t.n, s.sx = t.sx, s.sy = t.sy;
    return s;
}

/// One pair's block: what every step reads.
struct Pair {
    MorphTask m;
    Task t;
    Plane plane;
    std::uint8_t label;
    std::uint8_t* map;
    std::uint8_t* canvas;
    Shape* shapes;
    BoxScratch scratch;
    double *d0, *d1, *d2;

    __device__ std::uint8_t* slot(int offset) const { return canvas + std::size_t(offset) * m.w * m.h; }
    /// Plane pixel (x, y) of a slot's shape (0 off the canvas: the CPU's outside-the-box).
    __device__ bool at(const std::uint8_t* s, int x, int y) const {
        x -= m.x0, y -= m.y0;
        return x >= 0 && y >= 0 && x < m.w && y < m.h && s[std::size_t(y) * m.w + x];
    }
    /// Sets plane pixel (x, y) of a slot; false when it lies off the canvas.
    __device__ bool set(std::uint8_t* s, int x, int y) const {
        x -= m.x0, y -= m.y0;
        if (x < 0 || y < 0 || x >= m.w || y >= m.h) return false;
        s[std::size_t(y) * m.w + x] = 1;
        return true;
    }
    /// The CPU's write: inside the plane, where the map holds 0.
    __device__ void write(int x, int y, int offset) const {
        if (x < 0 || y < 0 || x >= plane.width || y >= plane.height) return;
        std::uint8_t& v = map[plane.voxel(x, y, t.first + offset)];
        if (v == 0) v = label;  // another group of this gap may write the same label here: the same byte
    }
};

/// The group's pixels on one labelled slice as the shape at offset 0 (first) or gap (last), on
/// their tight box as the CPU's matchRegions makes it.
__device__ void loadSide(Pair& c, int side, const std::uint32_t* parent, const std::uint32_t* groupSum) {
    const int offset = side ? c.t.last - c.t.first : 0;
    std::uint8_t* s = c.slot(offset);
    Tally tally = emptyTally();
    const std::size_t n = std::size_t(c.t.w) * c.t.h;
    for (std::size_t p = threadIdx.x; p < n; p += blockDim.x) {
        const int bx = int(p % c.t.w), by = int(p / c.t.w);
        if (!inGroup(c.t, side, bx, by, c.plane, parent, groupSum)) continue;
        c.set(s, c.t.x0 + bx, c.t.y0 + by);  // the canvas holds the task's box
        tally.add(c.t.x0 + bx, c.t.y0 + by);
    }
    const Tally all = blockTally(tally);
    if (threadIdx.x == 0) c.shapes[offset] = shapeOf(all, all.x0, all.y0);
    __syncthreads();
}

/// The CPU's signedDistance of `isSet` on a w x h box into sd (scratch: a second map).
template <typename IsSet>
__device__ void signedDistance(const Pair& c, int w, int h, IsSet isSet, double* sd, double* scratch) {
    boxSquaredDistance(w, h, isSet, true, c.plane.su, c.plane.sv, sd, c.scratch);
    boxSquaredDistance(w, h, isSet, false, c.plane.su, c.plane.sv, scratch, c.scratch);
    const std::size_t n = std::size_t(w) * h;
    for (std::size_t p = threadIdx.x; p < n; p += blockDim.x)
        sd[p] = lucent::fill::signedFromSquared(isSet(int(p % w), int(p / w)), sd[p], scratch[p]);
    __syncthreads();
}

/// The CPU's alignedMedian of the shapes at lo and hi, at mid: written into the map and kept as the
/// shape at mid. False when its box exceeds the scratch or the shape its canvas.
__device__ bool median(Pair& c, int lo, int mid, int hi) {
    const Shape a = c.shapes[lo], b = c.shapes[hi];
    const double ax = centroidX(a), ay = centroidY(a), bx = centroidX(b), by = centroidY(b);
    const int dx = int(lround(ax - bx)), dy = int(lround(ay - by));
    const Box tb = tightBox(b);
    const Box box = grown(unite(tightBox(a), Box{tb.x0 + dx, tb.y0 + dy, tb.w, tb.h}), 1);
    const std::size_t n = std::size_t(box.w) * box.h;
    if (n > c.m.capacity) return false;
    const std::uint8_t *sa = c.slot(lo), *sb = c.slot(hi);
    auto inA = [&](int x, int y) { return c.at(sa, box.x0 + x, box.y0 + y); };
    auto inB = [&](int x, int y) { return c.at(sb, box.x0 + x - dx, box.y0 + y - dy); };
    bool meet = false;
    for (std::size_t p = threadIdx.x; p < n && !meet; p += blockDim.x)
        meet = inA(int(p % box.w), int(p / box.w)) && inB(int(p % box.w), int(p / box.w));
    const bool both = __syncthreads_or(meet);
    if (both) {  // Meyer's median: {x : dist(x, a & b) <= dist(x, outside a | b)}
        boxSquaredDistance(
            box.w, box.h, [&](int x, int y) { return inA(x, y) && inB(x, y); }, true, c.plane.su, c.plane.sv, c.d0,
            c.scratch);
        boxSquaredDistance(
            box.w, box.h, [&](int x, int y) { return inA(x, y) || inB(x, y); }, false, c.plane.su, c.plane.sv, c.d1,
            c.scratch);
    } else {  // sets that do not meet even aligned: the signed-distance midpoint
        signedDistance(c, box.w, box.h, inA, c.d0, c.d2);
        signedDistance(c, box.w, box.h, inB, c.d1, c.d2);
    }
    const double w = double(mid - lo) / double(hi - lo);
    const int mx = int(lround(w * (bx - ax))), my = int(lround(w * (by - ay)));
    std::uint8_t* out = c.slot(mid);
    Tally tally = emptyTally();
    bool off = false;
    for (std::size_t p = threadIdx.x; p < n; p += blockDim.x) {
        const bool inside = both ? c.d0[p] <= c.d1[p] : lucent::fill::blendInside(c.d0[p], c.d1[p], 0.5);
        if (!inside) continue;
        const int x = box.x0 + int(p % box.w) + mx, y = box.y0 + int(p / box.w) + my;
        off = !c.set(out, x, y) || off;
        tally.add(x, y);
        c.write(x, y, mid);
    }
    if (__syncthreads_or(off)) return false;
    const Tally all = blockTally(tally);
    if (threadIdx.x == 0) c.shapes[mid] = shapeOf(all, box.x0 + mx, box.y0 + my);
    __syncthreads();
    return true;
}

/// The CPU's vanish of the shape at `from` over the slices strictly between lo and hi (it lies on lo
/// when atFirst, else on hi): eroded in proportion to the distance, gone halfway. False when its box
/// exceeds the scratch.
__device__ bool vanish(const Pair& c, int from, bool atFirst, int lo, int hi) {
    const Box r = grown(tightBox(c.shapes[from]), 1);
    const std::size_t n = std::size_t(r.w) * r.h;
    if (n > c.m.capacity) return false;
    const std::uint8_t* s = c.slot(from);
    auto inR = [&](int x, int y) { return c.at(s, r.x0 + x, r.y0 + y); };
    boxSquaredDistance(r.w, r.h, inR, false, c.plane.su, c.plane.sv, c.d0, c.scratch);
    double deepest = 0;
    for (std::size_t p = threadIdx.x; p < n; p += blockDim.x)
        if (inR(int(p % r.w), int(p / r.w))) deepest = fmax(deepest, sqrt(c.d0[p]));
    deepest = blockMax(deepest);
    const int span = hi - lo;
    for (std::size_t k = threadIdx.x; k < n * (span - 1); k += blockDim.x) {
        const int offset = int(k / n) + 1;
        const std::size_t p = k % n;
        const double keep = lucent::fill::vanishDepth(atFirst ? offset : span - offset, span, deepest);
        if (keep < 0) continue;
        const int x = int(p % r.w), y = int(p / r.w);
        if (inR(x, y) && sqrt(c.d0[p]) > keep) c.write(r.x0 + x, r.y0 + y, lo + offset);
    }
    __syncthreads();
    return true;
}

}  // namespace

__global__ void __launch_bounds__(kMorphThreads, 1)
    morphTasks(const MorphTask* morph, const Task* tasks, MorphArena arena, Plane plane, const std::uint32_t* parent,
               const std::uint32_t* groupSum, std::uint8_t label, std::uint8_t* map) {
    Pair c;
    c.m = morph[blockIdx.x];
    c.t = tasks[c.m.task];
    c.plane = plane;
    c.label = label;
    c.map = map;
    c.canvas = arena.canvas + c.m.canvas;
    c.shapes = arena.shapes + c.m.shapes;
    const std::size_t s = c.m.scratch;
    c.scratch = BoxScratch{arena.steps + s, arena.f + s, arena.v + s, arena.z + 2 * s};
    c.d0 = arena.d0 + s, c.d1 = arena.d1 + s, c.d2 = arena.d2 + s;
    const int gap = c.t.last - c.t.first;
    loadSide(c, 0, parent, groupSum);
    loadSide(c, 1, parent, groupSum);
    // The CPU's recursion on an explicit stack (every thread holds the same one): each interval's
    // median, then its two halves. Intervals halve, so the stack never holds more than 2 log2(gap) + 2.
    int2 stack[72];
    int top = 0;
    stack[top++] = make_int2(0, gap);
    while (top > 0) {
        const int2 span = stack[--top];
        const int lo = span.x, hi = span.y;
        if (hi - lo < 2) continue;
        const bool hasA = c.shapes[lo].n > 0, hasB = c.shapes[hi].n > 0;
        bool done = true;
        if (!hasA || !hasB) {
            if (hasA || hasB) done = vanish(c, hasA ? lo : hi, hasA, lo, hi);
        } else {
            const int mid = lo + (hi - lo) / 2;
            done = median(c, lo, mid, hi);
            stack[top++] = make_int2(mid, hi);
            stack[top++] = make_int2(lo, mid);
        }
        if (!done) {
            if (threadIdx.x == 0) atomicExch(arena.overflow, 1);
            return;
        }
    }
}

}  // namespace lucent::gpu::fill
