/// @brief Kernels of the CUDA fill between slices. Compiled with -fmad=false (gpu/CMakeLists.txt):
/// the shapes come from the same double arithmetic as the CPU's, operation for operation.
#include "SliceFillKernels.cuh"

#include "SliceFillDistance.cuh"

#include <climits>

namespace lucent::gpu::fill {

namespace {

__device__ std::uint32_t findRoot(const std::uint32_t* parent, std::uint32_t n) {
    while (parent[n] != n) n = parent[n];
    return n;
}

/// Union of the sets of a and b: the larger root points at the smaller (Playne and Hawick 2018).
__device__ void unite(std::uint32_t* parent, std::uint32_t a, std::uint32_t b) {
    for (;;) {
        a = findRoot(parent, a);
        b = findRoot(parent, b);
        if (a == b) return;
        if (a > b) {
            const std::uint32_t t = a;
            a = b;
            b = t;
        }
        const std::uint32_t old = atomicMin(&parent[b], a);
        if (old == b) return;
        b = old;  // b was joined elsewhere meanwhile: join a with where it went
    }
}

/// Squared distance in mm^2 from each pixel of the box to the nearest pixel whose membership of the
/// group on `side` is `target` (the CPU's squaredDistance on the same box).
__device__ void squaredDistance(const Task& t, int side, bool target, double* out, const Arena& arena,
                                const Plane& plane, const std::uint32_t* parent, const std::uint32_t* groupSum) {
    const BoxScratch scratch{arena.steps + t.pixel, arena.f + t.pixel, arena.v + t.pixel, arena.z + t.zEntry};
    boxSquaredDistance(
        t.w, t.h, [&](int x, int y) { return inGroup(t, side, x, y, plane, parent, groupSum); }, target, plane.su,
        plane.sv, out, scratch);
}

/// The signed distance of the group on `side` into sd (t: scratch).
__device__ void signedDistance(const Task& t, int side, double* sd, double* scratch, const Arena& arena,
                               const Plane& plane, const std::uint32_t* parent, const std::uint32_t* groupSum) {
    squaredDistance(t, side, true, sd, arena, plane, parent, groupSum);
    squaredDistance(t, side, false, scratch, arena, plane, parent, groupSum);
    const std::size_t n = std::size_t(t.w) * t.h;
    for (std::size_t p = threadIdx.x; p < n; p += blockDim.x)
        sd[p] = lucent::fill::signedFromSquared(inGroup(t, side, int(p % t.w), int(p / t.w), plane, parent, groupSum),
                                                sd[p], scratch[p]);
    __syncthreads();
}

__device__ void write(const Task& t, int offset, std::size_t p, const Plane& plane, std::uint8_t label,
                      std::uint8_t* map) {
    const int x = t.x0 + int(p % t.w), y = t.y0 + int(p / t.w);
    if (x < 0 || y < 0 || x >= plane.width || y >= plane.height) return;
    std::uint8_t& v = map[plane.voxel(x, y, t.first + offset)];
    if (v == 0) v = label;  // another group of this gap may write the same label here: the same byte
}

}  // namespace

__global__ void initNodes(const std::uint8_t* map, Plane plane, const int2* gaps, std::size_t nodes,
                          std::uint8_t label, std::uint32_t* parent) {
    const std::size_t P = plane.pixels();
    for (std::size_t n = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; n < nodes;
         n += std::size_t(gridDim.x) * blockDim.x) {
        const std::size_t gap = n / (2 * P), side = (n / P) % 2, p = n % P;
        const int s = side ? gaps[gap].y : gaps[gap].x;
        const bool set = map[plane.voxel(int(p % plane.width), int(p / plane.width), s)] == label;
        parent[n] = set ? std::uint32_t(n) : kEmpty;
    }
}

__global__ void linkNodes(Plane plane, std::size_t nodes, std::uint32_t* parent) {
    const std::size_t P = plane.pixels();
    for (std::size_t n = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; n < nodes;
         n += std::size_t(gridDim.x) * blockDim.x) {
        if (parent[n] == kEmpty) continue;
        const std::size_t p = n % P;
        const int x = int(p % plane.width), y = int(p / plane.width);
        // The 8-neighbours before this pixel in scan order (the others link to it themselves).
        const int dx[4] = {-1, -1, 0, 1}, dy[4] = {0, -1, -1, -1};
        for (int e = 0; e < 4; ++e) {
            const int nx = x + dx[e], ny = y + dy[e];
            if (nx < 0 || ny < 0 || nx >= plane.width) continue;
            const std::size_t m = n - p + std::size_t(ny) * plane.width + nx;
            if (parent[m] != kEmpty) unite(parent, std::uint32_t(n), std::uint32_t(m));
        }
        if ((n / P) % 2 == 1 && parent[n - P] != kEmpty) unite(parent, std::uint32_t(n), std::uint32_t(n - P));
    }
}

__global__ void flattenNodes(std::size_t nodes, std::uint32_t* parent, std::uint32_t* rootFlag) {
    for (std::size_t n = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; n < nodes;
         n += std::size_t(gridDim.x) * blockDim.x) {
        const std::uint32_t own = parent[n];
        if (own != kEmpty) parent[n] = findRoot(parent, std::uint32_t(n));
        rootFlag[n] = own == std::uint32_t(n);
    }
}

__global__ void groupBoxes(Plane plane, std::size_t nodes, const std::uint32_t* parent, const std::uint32_t* groupSum,
                           int* boxes, int* gapOfGroup) {
    const std::size_t P = plane.pixels();
    for (std::size_t n = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; n < nodes;
         n += std::size_t(gridDim.x) * blockDim.x) {
        const std::uint32_t root = parent[n];
        if (root == kEmpty) continue;
        const int group = int(groupSum[root]) - 1;
        const std::size_t p = n % P, side = (n / P) % 2;
        int* box = boxes + std::size_t(group) * 8 + side * 4;
        atomicMin(box + 0, int(p % plane.width));
        atomicMin(box + 1, int(p / plane.width));
        atomicMax(box + 2, int(p % plane.width));
        atomicMax(box + 3, int(p / plane.width));
        if (root == n) gapOfGroup[group] = int(n / (2 * P));
    }
}

__global__ void fillTasks(const Task* tasks, Arena arena, Plane plane, const std::uint32_t* parent,
                          const std::uint32_t* groupSum, std::uint8_t label, bool blendPairs, std::uint8_t* map) {
    const Task t = tasks[blockIdx.x];
    if (t.side < 0 && !blendPairs) return;
    const std::size_t n = std::size_t(t.w) * t.h;
    const int gap = t.last - t.first;
    double* a = arena.a + t.pixel;
    double* b = arena.b + t.pixel;
    double* scratch = arena.t + t.pixel;
    if (t.side < 0) {
        signedDistance(t, 0, a, scratch, arena, plane, parent, groupSum);
        signedDistance(t, 1, b, scratch, arena, plane, parent, groupSum);
        for (std::size_t k = threadIdx.x; k < n * (gap - 1); k += blockDim.x) {
            const int offset = int(k / n) + 1;
            const std::size_t p = k % n;
            if (lucent::fill::blendInside(a[p], b[p], double(offset) / gap)) write(t, offset, p, plane, label, map);
        }
        return;
    }
    // A region with no partner: eroded by depth, gone halfway (the CPU's vanish).
    squaredDistance(t, t.side, false, scratch, arena, plane, parent, groupSum);
    __shared__ double deepestOf[256];
    double deepest = 0;
    for (std::size_t p = threadIdx.x; p < n; p += blockDim.x)
        if (inGroup(t, t.side, int(p % t.w), int(p / t.w), plane, parent, groupSum))
            deepest = fmax(deepest, sqrt(scratch[p]));
    deepestOf[threadIdx.x] = deepest;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (int(threadIdx.x) < half) deepestOf[threadIdx.x] = fmax(deepestOf[threadIdx.x], deepestOf[threadIdx.x + half]);
        __syncthreads();
    }
    deepest = deepestOf[0];
    for (std::size_t k = threadIdx.x; k < n * (gap - 1); k += blockDim.x) {
        const int offset = int(k / n) + 1;
        const std::size_t p = k % n;
        const double keep = lucent::fill::vanishDepth(t.side == 0 ? offset : gap - offset, gap, deepest);
        if (keep < 0) continue;
        if (inGroup(t, t.side, int(p % t.w), int(p / t.w), plane, parent, groupSum) && sqrt(scratch[p]) > keep)
            write(t, offset, p, plane, label, map);
    }
}

__global__ void countSlices(const std::uint8_t* map, Plane plane, const int* slices, std::uint8_t label,
                            unsigned long long* counts) {
    const int s = slices[blockIdx.y];
    const std::size_t P = plane.pixels();
    unsigned long long mine = 0;
    for (std::size_t p = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; p < P; p += std::size_t(gridDim.x) * blockDim.x)
        mine += map[plane.voxel(int(p % plane.width), int(p / plane.width), s)] == label;
    for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xffffffffu, mine, offset);
    if ((threadIdx.x & 31) == 0 && mine) atomicAdd(counts + blockIdx.y, mine);
}

}  // namespace lucent::gpu::fill
