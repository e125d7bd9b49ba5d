/// @brief Snake kernels (the cooperative stage program, labels; the checkpoint scan is SnakeScanCuda) and the engine's
/// host side: launches, read-back, growing the node arrays, slices through SnakeSlices.
#include "CudaCheck.h"
#include "SnakeCuda.h"
#include "SnakeExecParts.cuh"
#include "SnakeReplicaCuda.h"
#include "SnakeScanCuda.h"
#include "lucent/gpu/programs/SnakeProgram.h"
#include "lucent/gpu/DeviceVolume.h"

#include <cooperative_groups.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace lucent::gpu {

namespace {

constexpr int kThreads = 512;      // the program's blocks (the leader block's scans are sized by it)
constexpr int kLabelThreads = 256;  // labels: a warp per row, up to 8 a block
constexpr int kMaxNodes = 1 << 22;
constexpr int kSharedItems = 768;  // leader scratch in shared memory up to this many items

/// The device side of the stage program's executor (SnakeHostExec is the host side): grid
/// barriers from cooperative groups, block 0 as the leader, warp jobs reduced by shuffles and
/// added with one atomic per sum, block scans from CUB.
struct DeviceExec {
    __device__ bool leader() const { return blockIdx.x == 0; }
    __device__ long long clock() const { return clock64(); }
    __device__ void gridSync() { cooperative_groups::this_grid().sync(); }
    __device__ void leaderSync() { __syncthreads(); }
    template <class F>
    __device__ void leaderFor(long long n, F&& f) {
        for (long long i = threadIdx.x; i < n; i += blockDim.x) f(i);
    }
    template <class F>
    __device__ void warpJobs(long long jobs, F&& f) {
        const int lane = threadIdx.x & 31;
        const long long warps = (long long)gridDim.x * (blockDim.x >> 5);
        for (long long job = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); job < jobs; job += warps) {
            ExactSums out{};
            ExactSums* target = f(job, lane, 32, out);
            if (target) snakeexec::addWarpSums(out, target, lane);  // target: the same for every lane of the warp
        }
    }
    /// Exclusive prefix over [0, n) in passes of a block with a carry; every thread gets the total.
    template <class V, class Get, class Put>
    __device__ V leaderScan(int n, Get&& get, Put&& put) {
        return snakeexec::scanWithCarry<kThreads, V>(n, get, put);
    }
    /// The leader block's counters, in its shared memory (one array per block, whatever the caller).
    __device__ int* leaderInt(int which) {
        __shared__ int counters[snake::kLeaderInts];
        return counters + which;
    }
    /// A counter after a leader barrier: a plain shared-memory load (volatile: not cached in a register
    /// across the barrier by the compiler).
    __device__ int readLeaderInt(int which) { return *static_cast<volatile int*>(leaderInt(which)); }
    __device__ int atomicAddInt(int* p, int v) { return atomicAdd(p, v); }
    __device__ void atomicMinInt(int* p, int v) { atomicMin(p, v); }
    __device__ void atomicMaxInt(int* p, int v) { atomicMax(p, v); }
    __device__ void atomicSetInt(int* p, int v) { atomicExch(p, v); }
};

/// The leader block's scratch for `items` items (a phase's nodes, the long segments) carved from
/// `base` (null: the size only). Shared memory answers the leader's many small dependent loads far
/// sooner than L2.
__host__ __device__ std::size_t leaderScratch(unsigned char* base, int items, snake::Arrays* a) {
    const std::size_t c = std::size_t(items);
    std::size_t at = 0;
    auto take = [&](std::size_t bytes) {
        unsigned char* p = base ? base + at : nullptr;
        at += (bytes + 15) & ~std::size_t(15);
        return p;
    };
    unsigned char* candGl = take(c * 8 * sizeof(double));
    unsigned char* delta = take(c * sizeof(ExactSums));
    unsigned char* prefix = take(c * sizeof(ExactSums));
    unsigned char* blocked = take(c * 8 * sizeof(int));
    unsigned char* list = take(c * 8 * sizeof(int));
    unsigned char* ints[5];
    for (auto& q : ints) q = take(c * sizeof(int));
    if (a) {
        a->candGl = reinterpret_cast<double*>(candGl);
        a->delta = reinterpret_cast<ExactSums*>(delta);
        a->prefix = reinterpret_cast<ExactSums*>(prefix);
        a->blocked = reinterpret_cast<int*>(blocked);
        a->list = reinterpret_cast<int*>(list);
        a->best = reinterpret_cast<int*>(ints[0]);
        a->spec = reinterpret_cast<int*>(ints[1]);
        a->dec = reinterpret_cast<int*>(ints[2]);
        a->eligible = reinterpret_cast<int*>(ints[3]);
        a->newIndex = reinterpret_cast<int*>(ints[4]);
    }
    return at;
}

/// `sharedItems` > 0: block 0 keeps its scratch in shared memory (no other block reads it). Every
/// item array of an iteration has at most n <= capacity / 2 entries, hence sharedItems = capacity / 2.
__global__ void __launch_bounds__(kThreads) programKernel(snake::Program p, int sharedItems) {
    extern __shared__ __align__(16) unsigned char scratch[];
    if (sharedItems > 0 && blockIdx.x == 0) leaderScratch(scratch, sharedItems, &p.a);
    DeviceExec ex;
    snake::runProgram(ex, p);
}

struct LabelScope {
    int nx, ny, nz;
    VoxelBox roi;
    const std::uint8_t* mask;
};

/// Bytes k of a 4-pixel word (pixels x .. x + 3) with a <= x + k < b, as 1s.
__device__ inline unsigned runBytes(int x, int a, int b) {
    const int lo = min(max(a - x, 0), 4), hi = min(max(b - x, 0), 4);
    if (hi <= lo) return 0u;
    return (0x01010101u << (8 * lo)) & (0x01010101u >> (8 * (4 - hi)));
}

/// 1 in each byte of `m` that is not 0.
__device__ inline unsigned nonzeroBytes(unsigned m) {
    return (((m & 0x7f7f7f7fu) + 0x7f7f7f7fu) | m) >> 7 & 0x01010101u;
}

/// Labels of `box`, a warp per row (y, z): the warp collects where the slice's polygon crosses row
/// y (the cuts); sorted, they bound the row's inside runs [c0, c1), [c2, c3), ... as in
/// SnakeSlices::rasterise, cut to the ROI's columns. The row is written in aligned 16-byte words,
/// consecutive lanes on consecutive words, each word from the runs in a few integer operations.
/// (Not a block per 512 pixels writing bytes, each counting the cuts left of it: at 150 MP most of
/// its time went to starting and ending 290,000 blocks. Figures in BENCHMARKS.md.)
__global__ void __launch_bounds__(kLabelThreads) labelKernel(const PixelPoint* polygons, const int2* ranges,
                                                             LabelScope s, VoxelBox box, int rowsInBox,
                                                             int cutRoom, std::uint8_t* out) {
    extern __shared__ int cutSpace[];
    __shared__ int counts[kLabelThreads / 32];
    const int warp = int(threadIdx.x) >> 5, lane = int(threadIdx.x) & 31;
    const int rowIndex = int(blockIdx.x) * int(blockDim.x >> 5) + warp;
    if (rowIndex >= rowsInBox) return;  // whole warps only: no block barrier below
    const int boxRows = box.hi[1] - box.lo[1] + 1;
    const int y = box.lo[1] + rowIndex % boxRows, z = box.lo[2] + rowIndex / boxRows;
    int* cuts = cutSpace + warp * cutRoom;
    int& count = counts[warp];
    const int2 range = ranges[z];  // first node, node count (0: no polygon on this slice)
    if (lane == 0) count = 0;
    __syncwarp();
    for (int i = lane; i < range.y; i += 32) {
        const PixelPoint p = polygons[range.x + i], q = polygons[range.x + (i + 1) % range.y];
        if (p.y == q.y || y < min(p.y, q.y) || y >= max(p.y, q.y)) continue;
        cuts[atomicAdd(&count, 1)] = min(max(crossingColumn(p, q, y), 0), s.nx);
    }
    __syncwarp();
    const int cutCount = count;
    if (lane == 0) {  // a handful of cuts a row: insertion sort, then the runs cut to the ROI
        for (int i = 1; i < cutCount; ++i)
            for (int j = i, c = cuts[i]; j > 0 && cuts[j - 1] > c; --j) {
                cuts[j] = cuts[j - 1];
                cuts[j - 1] = c;
            }
        const bool rowInRoi = y >= s.roi.lo[1] && y <= s.roi.hi[1] && z >= s.roi.lo[2] && z <= s.roi.hi[2];
        for (int i = 0; i + 1 < cutCount; i += 2) {
            cuts[i] = rowInRoi ? max(cuts[i], s.roi.lo[0]) : 0;
            cuts[i + 1] = rowInRoi ? min(cuts[i + 1], s.roi.hi[0] + 1) : 0;
        }
    }
    __syncwarp();
    const int runs = cutCount / 2;  // a closed polygon crosses a row an even number of times
    const std::size_t rowStart = (std::size_t(z) * s.ny + y) * s.nx;
    auto label = [&](int x) -> std::uint8_t {
        bool in = false;
        for (int k = 0; k < runs; ++k) in |= x >= cuts[2 * k] && x < cuts[2 * k + 1];
        return in && (!s.mask || s.mask[rowStart + x]) ? 1 : 0;
    };
    // Words of 16 pixels from the first 16-byte boundary at or after lo; the pixels before it and
    // after the last whole word one at a time. (16-byte words: a quarter of the stores of 4-byte
    // ones; BENCHMARKS.md, commit eba7e3c.)
    const int lo = box.lo[0], end = box.hi[0] + 1;
    const int head = min(end - lo, int((16 - (reinterpret_cast<std::uintptr_t>(out + rowStart + lo) & 15)) & 15));
    const int words = (end - lo - head) / 16;
    const int tail = lo + head + 16 * words;
    if (lane < head) out[rowStart + lo + lane] = label(lo + lane);
    if (tail + lane < end) out[rowStart + tail + lane] = label(tail + lane);
    auto* wordsOut = reinterpret_cast<uint4*>(out + rowStart + lo + head);
    // The mask has the labels' layout; read in words where it has their alignment too (both are
    // allocations of their own, so it does), else a byte at a time.
    const std::uint8_t* maskRow = s.mask ? s.mask + rowStart + lo + head : nullptr;
    const bool maskWords = maskRow && (reinterpret_cast<std::uintptr_t>(maskRow) & 15) == 0;
    for (int w = lane; w < words; w += 32) {
        const int x = lo + head + 16 * w;
        unsigned bytes[4] = {0u, 0u, 0u, 0u};
        for (int k = 0; k < runs; ++k) {
            const int a = cuts[2 * k], b = cuts[2 * k + 1];
#pragma unroll
            for (int j = 0; j < 4; ++j) bytes[j] |= runBytes(x + 4 * j, a, b);
        }
        if (maskWords) {
            const uint4 m = reinterpret_cast<const uint4*>(maskRow)[w];
            bytes[0] &= nonzeroBytes(m.x);
            bytes[1] &= nonzeroBytes(m.y);
            bytes[2] &= nonzeroBytes(m.z);
            bytes[3] &= nonzeroBytes(m.w);
        } else if (maskRow) {
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const std::uint8_t* m = maskRow + 16 * w + 4 * j;
                bytes[j] &= unsigned(m[0] != 0) | unsigned(m[1] != 0) << 8 | unsigned(m[2] != 0) << 16 |
                            unsigned(m[3] != 0) << 24;
            }
        }
        wordsOut[w] = make_uint4(bytes[0], bytes[1], bytes[2], bytes[3]);
    }
}

std::size_t alignUp(std::size_t bytes) { return (bytes + 255) & ~std::size_t(255); }

/// The node arrays of `capacity` nodes carved from one allocation at `base` (null: sizes only).
snake::Arrays carve(char* base, int capacity, double* history, std::size_t* total) {
    const std::size_t c = std::size_t(capacity);
    std::size_t at = 0;
    auto take = [&](std::size_t bytes) {
        char* p = base ? base + at : nullptr;
        at += alignUp(bytes);
        return p;
    };
    snake::Arrays a{};
    a.pos = reinterpret_cast<PixelPoint*>(take(c * sizeof(PixelPoint)));
    a.pos2 = reinterpret_cast<PixelPoint*>(take(c * sizeof(PixelPoint)));
    a.seg = reinterpret_cast<ExactSums*>(take(c * sizeof(ExactSums)));
    a.seg2 = reinterpret_cast<ExactSums*>(take(c * sizeof(ExactSums)));
    a.acc = reinterpret_cast<ExactSums*>(take(c * snake::kSlots * sizeof(ExactSums)));
    a.delta = reinterpret_cast<ExactSums*>(take(c * sizeof(ExactSums)));
    a.prefix = reinterpret_cast<ExactSums*>(take(c * sizeof(ExactSums)));
    a.candGl = reinterpret_cast<double*>(take(c * 8 * sizeof(double)));
    a.blocked = reinterpret_cast<int*>(take(c * 8 * sizeof(int)));
    a.list = reinterpret_cast<int*>(take(c * 8 * sizeof(int)));
    for (int** array : {&a.best, &a.spec, &a.dec, &a.items, &a.eligible, &a.newIndex})
        *array = reinterpret_cast<int*>(take(c * sizeof(int)));
    a.history = history;
    if (total) *total = at;
    return a;
}

}  // namespace

SnakeCuda::SnakeCuda(std::shared_ptr<GpuContext> context) : m_context(std::move(context)) {}

SnakeCuda::~SnakeCuda() {
    if (m_host) cudaFreeHost(m_host);
}

void SnakeCuda::start(const SegmentationRequest& request) {
    validateRequest(Method::Snake, request);
    if (request.volume->pixelType() != PixelType::Int16)
        throw GpuError("the CUDA snake engine works on int16 volumes (float volumes run on the CPU engine)");
    checkGridLimits(request.volume->geometry());
    const bool fresh = !m_context || &m_context->volume() != request.volume;
    m_context = contextFor(m_context, request);
    m_msUpload = fresh ? m_context->uploadMs() : 0;
    m_request = request;
    m_tuning = readSnakeTuning();  // at every start: tests set the variables between runs
    m_slices.reset(m_request);
    m_iterations = 0;
    m_finished = false;
    if (!m_host)
        cudaCheck(cudaHostAlloc(reinterpret_cast<void**>(&m_host), sizeof(snake::State), cudaHostAllocDefault),
                  "pinned memory");
    if (!m_blocks) {
        int device = 0, sms = 0, cooperative = 0, optin = 0, perSm = 0;
        cudaCheck(cudaGetDevice(&device), "snake launch");
        cudaCheck(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "snake launch");
        cudaCheck(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device), "snake launch");
        cudaCheck(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "snake launch");
        if (!cooperative) throw GpuError("the CUDA snake engine needs cooperative launch, which this device lacks");
        // The leader's scratch in shared memory for polygons of up to kSharedItems nodes (about 150
        // KB), within what the device offers beside the kernel's own shared memory.
        // LUCENT_SNAKE_LEADER_SHARED=0 keeps it in global memory (tests run both paths).
        cudaFuncAttributes attributes{};
        cudaCheck(cudaFuncGetAttributes(&attributes, programKernel), "snake launch");
        m_sharedItems = kSharedItems;
        while (m_sharedItems > 0 &&
               leaderScratch(nullptr, m_sharedItems, nullptr) + attributes.sharedSizeBytes > std::size_t(optin))
            m_sharedItems /= 2;
        if (!m_tuning.leaderShared) m_sharedItems = 0;
        const std::size_t most = leaderScratch(nullptr, m_sharedItems, nullptr);
        cudaCheck(cudaFuncSetAttribute(programKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(most)),
                  "snake launch");
        cudaCheck(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, programKernel, kThreads, most), "snake launch");
        if (perSm < 1) throw GpuError("the CUDA snake engine's kernel does not fit on this device");
        m_sms = sms;
        m_maxBlocks = sms * perSm;
        m_blocks = sms;
        // The replicated-decision kernel (SnakeReplica.h) runs polygons that fit a block's shared
        // memory. LUCENT_SNAKE_REPLICA=0 turns it off; LUCENT_SNAKE_REPLICA_NODES caps the nodes it
        // holds (tests make it small so that a slice moves on to the block-0 program mid-way).
        if (m_tuning.replica) m_replica = snakeReplicaShape(m_tuning.replicaNodes);
    }
    // At most one block per SM: the cheapest grid barrier. Small slices have few rows to sum per
    // stage, so fewer blocks (a cheaper barrier) win there: a quarter of the SMs up to 1 MP, half up
    // to 32 MP, all beyond (BENCHMARKS.md).
    // LUCENT_SNAKE_BLOCKS overrides it (for tuning), never beyond what can be resident.
    m_bounds = snakeBounds(request);  // the pixels summed: the domain when there is one
    const double pixels = double(m_bounds.width()) * m_bounds.height();
    m_blocks = pixels <= (1 << 20) ? std::max(1, m_sms / 4) : pixels <= (1 << 25) ? std::max(1, m_sms / 2) : m_sms;
    if (m_tuning.blocks) m_blocks = *m_tuning.blocks;
    m_blocks = std::min(m_blocks, m_maxBlocks);
    // The replica kernel: a block per SM (its items are whole nodes, and all blocks decide alike).
    m_replicaBlocks = m_sms;
    if (m_tuning.replicaBlocks) m_replicaBlocks = *m_tuning.replicaBlocks;
    m_replicaBlocks = std::min(m_replicaBlocks, std::max(1, m_replica.maxBlocks));
    // The replica kernel's candidate cache skips the sums of nodes that kept their place and
    // neighbours, so a stage sums only what moved (BENCHMARKS.md, commit d278e00).
    // LUCENT_SNAKE_CACHE=0 turns it off.
    m_cacheSums = m_tuning.cacheSums;
    if (request.mask) {
        auto stream = static_cast<cudaStream_t>(m_context->stream());
        m_userMask.reserve(request.mask->voxelCount(), "the mask");
        cudaCheck(cudaMemcpyAsync(m_userMask.get(), request.mask->data(), request.mask->voxelCount(),
                                  cudaMemcpyHostToDevice, stream),
                  "mask upload");
    }
    m_timer.reset();
    if (m_tuning.profile) {  // where a stage's time goes, printed when the run ends
        m_profile.reserve(kProfileCounters * sizeof(long long), "the snake profile");
        cudaCheck(cudaMemsetAsync(m_profile.get(), 0, kProfileCounters * sizeof(long long), static_cast<cudaStream_t>(m_context->stream())),
                  "the snake profile");
    }
    beginSlice(request.snake.slice, snakeStartPolygon(request), request.snake.stepMax);
}

void SnakeCuda::reserveNodes(int capacity, bool keep) {
    if (capacity <= m_capacity) return;
    if (capacity > kMaxNodes)
        throw GpuError("the snake polygon outgrew the CUDA engine's " + std::to_string(kMaxNodes) + " nodes");
    std::size_t bytes = 0;
    carve(nullptr, capacity, nullptr, &bytes);
    DeviceBuffer grown(bytes, "the snake's node arrays");
    if (keep && m_capacity > 0) {  // the polygon and its segment sums
        auto stream = static_cast<cudaStream_t>(m_context->stream());
        const snake::Arrays from = carve(m_nodes.as<char>(), m_capacity, nullptr, nullptr);
        const snake::Arrays to = carve(grown.as<char>(), capacity, nullptr, nullptr);
        const std::size_t n = std::size_t(std::min(m_host->n, m_capacity));
        cudaCheck(cudaMemcpyAsync(to.pos, from.pos, n * sizeof(PixelPoint), cudaMemcpyDeviceToDevice, stream),
                  "snake nodes");
        cudaCheck(cudaMemcpyAsync(to.seg, from.seg, n * sizeof(ExactSums), cudaMemcpyDeviceToDevice, stream),
                  "snake nodes");
        cudaCheck(cudaStreamSynchronize(stream), "snake nodes");
    }
    m_nodes = std::move(grown);
    m_capacity = capacity;
}

void SnakeCuda::beginSlice(int slice, const std::vector<PixelPoint>& polygon, int d) {
    const Geometry& g = m_request.volume->geometry();
    // The checkpoints cover the bounds only (the pixels the snake sees), as SnakeCpu's cumulated images.
    const int width = m_bounds.width(), height = m_bounds.height(), groups = snake::checkpointGroups(width);
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    m_slice = slice;
    m_polygon = polygon;
    m_glHistory.clear();
    *m_host = snake::State{};
    m_host->n = int(polygon.size());
    m_host->d = std::max(1, d);
    m_host->minSegment = m_request.snake.minSegment;
    m_host->fresh = 1;
    // LUCENT_SNAKE_NODES sets the first room for nodes (tests make it small to exercise growing).
    reserveNodes(std::max({m_tuning.nodes ? *m_tuning.nodes : std::max(1024, 2 * m_sharedItems),
                           2 * int(polygon.size()), m_replica.capacity}),
                 false);
    if (m_replica.capacity > 0) {
        const std::size_t c = std::size_t(m_replica.capacity);
        m_handoff.reserve(2 * c * sizeof(snake::Handoff), "the snake's handoff");
        // Split items gather here; every launch leaves them zero, a failed one might not.
        m_gather.reserve(c * (snake::kSlots * sizeof(ExactSums) + sizeof(int)), "the snake's handoff");
        m_cache.reserve(c * snake::kSlots * sizeof(ExactSums), "the snake's candidate cache");
        cudaCheck(cudaMemsetAsync(m_gather.get(), 0, c * (snake::kSlots * sizeof(ExactSums) + sizeof(int)), stream),
                  "the snake's handoff");
    }
    m_host->capacity = m_capacity;
    m_checkpoints.reserve(std::size_t(groups) * height * sizeof(snake::Checkpoint), "the snake's cumulated images");
    m_state.reserve(sizeof(snake::State), "the snake state");
    const snake::Arrays a = carve(m_nodes.as<char>(), m_capacity, nullptr, nullptr);
    const auto* pixels = static_cast<const std::int16_t*>(m_context->deviceVolume().devicePointer()) +
                         g.index(m_bounds.x0, m_bounds.y0, slice);
    auto* state = m_state.as<snake::State>();
    m_timer.begin(stream);
    cudaCheck(cudaMemcpyAsync(state, m_host, sizeof(snake::State), cudaMemcpyHostToDevice, stream), "snake state");
    launchCheckpointScan(pixels, width, height, g.dims[0], m_checkpoints.as<snake::Checkpoint>(), &state->image,
                         m_tuning.scan, stream);
    m_timer.end(stream);  // waits: the polygon below is copied from pageable memory
    cudaCheck(
        cudaMemcpyAsync(a.pos, polygon.data(), polygon.size() * sizeof(PixelPoint), cudaMemcpyHostToDevice, stream),
        "snake polygon");
    launch(0);  // the first sums and GL
}

int SnakeCuda::launch(int budget) {
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    auto* state = m_state.as<snake::State>();
    const snake::Slice slice{m_checkpoints.as<snake::Checkpoint>(), m_bounds,
                             snake::checkpointGroups(m_bounds.width())};
    int total = 0;
    for (;;) {
        m_host->budget = budget - total;
        m_host->done = m_host->sliceDone = m_host->needRoom = m_host->glCount = 0;
        m_host->capacity = m_capacity;
        m_history.reserve((std::size_t(m_host->budget) + 2) * sizeof(double), "the snake's GL history");
        snake::Program program{state, carve(m_nodes.as<char>(), m_capacity, m_history.as<double>(), nullptr), slice,
                               m_profile.as<long long>()};
        // Polygons that fit a block's shared memory run the replica kernel; larger ones (and a
        // slice whose polygon outgrows it) the block-0 program, on the same state and node arrays.
        const bool replica = m_replica.capacity > 0 && 2 * m_host->n <= m_replica.capacity;
        m_timer.begin(stream);
        // The control fields only: the sums and GL the device holds stay as they are.
        cudaCheck(cudaMemcpyAsync(state, m_host, offsetof(snake::State, rounds), cudaMemcpyHostToDevice, stream),
                  "snake state");
        if (replica) {
            const snake::ReplicaProgram rp{state,
                                           program.a.pos,
                                           program.a.seg,
                                           program.a.history,
                                           m_handoff.as<snake::Handoff>(),
                                           m_replica.capacity,
                                           m_gather.as<ExactSums>(),
                                           reinterpret_cast<int*>(m_gather.as<ExactSums>() +
                                                                  std::size_t(m_replica.capacity) * snake::kSlots),
                                           m_cache.as<ExactSums>(),
                                           m_cacheSums,
                                           slice,
                                           m_profile.get() ? m_profile.as<long long>() + kProgramCounters : nullptr};
            launchSnakeReplica(rp, m_replica, m_replicaBlocks, stream);
        } else {
            int sharedItems = m_capacity / 2 <= m_sharedItems ? m_capacity / 2 : 0;
            const std::size_t sharedBytes = leaderScratch(nullptr, sharedItems, nullptr);
            void* args[] = {&program, &sharedItems};
            cudaCheck(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(programKernel), dim3(m_blocks),
                                                  dim3(kThreads), args, sharedBytes, stream),
                      "snake steps");
        }
        cudaCheck(cudaMemcpyAsync(m_host, state, sizeof(snake::State), cudaMemcpyDeviceToHost, stream), "snake state");
        m_timer.end(stream);
        // Pageable destinations: these copies return when done.
        std::vector<double> history(std::size_t(m_host->glCount));
        m_polygon.resize(std::size_t(m_host->n));
        cudaCheck(cudaMemcpyAsync(history.data(), m_history.get(), history.size() * sizeof(double),
                                  cudaMemcpyDeviceToHost, stream),
                  "snake history");
        cudaCheck(cudaMemcpyAsync(m_polygon.data(), program.a.pos, m_polygon.size() * sizeof(PixelPoint),
                                  cudaMemcpyDeviceToHost, stream),
                  "snake polygon");
        cudaCheck(cudaStreamSynchronize(stream), "snake polygon");
        m_glHistory.insert(m_glHistory.end(), history.begin(), history.end());
        m_gl = m_host->gl;
        total += m_host->done;
        if (!m_host->needRoom) return total;
        // Stopped at an iteration start, as insertion could double the polygon: grow and go on (a
        // replica launch out of room goes on with the block-0 program).
        if (2 * m_host->n > m_capacity) reserveNodes(std::max(2 * m_capacity, 2 * m_host->n), true);
    }
}

void SnakeCuda::finishSlice() {
    const ExactSums target = m_host->target, background = m_host->image - m_host->target;
    auto next = m_slices.finish({m_slice, m_polygon, m_glHistory}, toDouble(target), toDouble(background));
    if (!next) {
        m_finished = true;
        return;
    }
    beginSlice(next->slice, next->polygon, next->d);
}

StepReport SnakeCuda::step(int maxIterations) {
    const std::size_t finishedBefore = m_slices.done().size();
    int left = maxIterations;
    while (left > 0 && !m_finished) {
        const int done = launch(left);
        m_iterations += done;
        left -= done;
        if (m_host->sliceDone)
            finishSlice();
        else if (done == 0)
            throw GpuError("the CUDA snake made no progress (an engine fault)");
    }
    if (m_finished && m_profile.get()) printProfile();
    StepReport r;
    r.iterations = m_iterations;
    r.convergence = m_gl;
    r.finished = m_finished;
    r.changed = m_slices.changedSince(finishedBefore);  // labels change only when a slice finishes
    r.progress =
        m_finished ? 1.0 : 1.0 - std::log2(double(m_host->d) + 1) / std::log2(double(m_request.snake.stepMax) + 2);
    for (const auto& p : m_polygon) r.polygon.push_back({double(p.x), double(p.y)});
    r.polygonSlice = m_slice;
    return r;
}

void SnakeCuda::printProfile() const {
    using P = snake::ProgramProfile;
    using R = snake::ReplicaProfile;
    snake::Tally<P> program{};
    snake::Tally<R> replica{};
    static_assert(sizeof program + sizeof replica == kProfileCounters * sizeof(long long));
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    const long long* counters = m_profile.as<long long>();
    cudaCheck(cudaMemcpyAsync(program.at, counters, sizeof program, cudaMemcpyDeviceToHost, stream),
              "the snake profile");
    cudaCheck(cudaMemcpyAsync(replica.at, counters + kProgramCounters, sizeof replica, cudaMemcpyDeviceToHost, stream),
              "the snake profile");
    cudaCheck(cudaStreamSynchronize(stream), "the snake profile");
    int device = 0, khz = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device);
    const double us = khz > 0 ? 1e3 / khz : 1.0;
    auto per = [](long long v, long long count) { return double(v) / std::max(1.0, double(count)); };
    if (program[P::Stages] > 0)
        std::fprintf(stderr,
                     "snake profile: %lld stages, %d iterations; per stage (leader block, %s): sums + barrier %.2f, "
                     "decisions %.2f, barrier %.2f\n",
                     program[P::Stages], m_iterations, khz > 0 ? "us" : "cycles",
                     per(program[P::SumsAndBarrier], program[P::Stages]) * us,
                     per(program[P::Decisions], program[P::Stages]) * us,
                     per(program[P::Barrier], program[P::Stages]) * us);
    if (replica[R::Stages] == 0) return;
    const long long stages = replica[R::Stages], moves = replica[R::MoveStages], inserts = replica[R::InsertStages];
    std::fprintf(stderr,
                 "snake profile: %lld replica stages; per stage (block 0, %s): own items %.2f, barrier %.2f, "
                 "decisions %.2f; per move stage: handoff %.2f, speculation %.2f in %.2f rounds; per insertion "
                 "stage (%lld): decisions %.2f in %.2f rounds; %.1f nodes summed per move stage\n",
                 stages, khz > 0 ? "us" : "cycles", per(replica[R::OwnItems], stages) * us,
                 per(replica[R::Barrier], stages) * us, per(replica[R::Decisions], stages) * us,
                 per(replica[R::MoveHandoff], moves) * us, per(replica[R::MoveSpeculation], moves) * us,
                 per(replica[R::MoveRounds], moves), inserts, per(replica[R::InsertDecisions], inserts) * us,
                 per(replica[R::InsertRounds], inserts), per(replica[R::NodesSummed], moves));
    const long long rounds = replica[R::MoveRounds];
    std::fprintf(stderr,
                 "snake profile: per move stage (us): stale scan %.2f, its items' decisions %.2f, moves applied "
                 "%.2f; per speculation round: scan %.2f, GL %.2f, crossings and the guess's check %.2f\n",
                 per(replica[R::StaleScan], moves) * us, per(replica[R::ItemDecisions], moves) * us,
                 per(replica[R::MovesApplied], moves) * us, per(replica[R::RoundScan], rounds) * us,
                 per(replica[R::RoundGl], rounds) * us, per(replica[R::RoundCrossings], rounds) * us);
    const long long split = replica[R::SplitMoveStages];
    std::fprintf(stderr,
                 "snake profile: %lld move stages with items cut into parts: own items %.2f, barrier %.2f; "
                 "block 0's summing %.2f, gathering %.2f, loading %.2f per move stage\n",
                 split, per(replica[R::SplitOwnItems], split) * us, per(replica[R::SplitBarrier], split) * us,
                 per(replica[R::OwnSumming], moves) * us, per(replica[R::OwnGathering], moves) * us,
                 per(replica[R::OwnLoading], moves) * us);
}

void SnakeCuda::cancel() {
    if (!m_finished && m_host) m_slices.keep({m_slice, m_polygon, m_glHistory});
    m_finished = true;
}

bool SnakeCuda::writeContours(JsonWriter& json) const {
    m_slices.writeContours(json);
    return true;
}

MethodFigures SnakeCuda::figures() const {
    MethodFigures f;
    f.gl = m_gl;
    f.slices = m_slices.done().size();
    f.nodes = m_polygon.size();
    f.msDevice = m_timer.totalMs();
    if (m_msUpload > 0) f.msUpload = m_msUpload;
    return f;
}

void SnakeCuda::writeLabels(const LabelSink& sink, const VoxelBox* box) const {
    const Geometry& g = m_request.volume->geometry();
    if (sink.voxels != g.voxelCount()) throw std::invalid_argument("label sink is not on the volume's grid");
    const VoxelBox b = box ? *box : wholeBox(g);
    if (b.empty()) return;
    // The finished polygons, one range of nodes per slice.
    std::vector<PixelPoint> nodes;
    std::vector<int2> ranges(std::size_t(g.dims[2]), int2{0, 0});
    int longest = 0;
    for (const auto& s : m_slices.done()) {
        ranges[std::size_t(s.slice)] = int2{int(nodes.size()), int(s.polygon.size())};
        nodes.insert(nodes.end(), s.polygon.begin(), s.polygon.end());
        longest = std::max(longest, int(s.polygon.size()));
    }
    // A warp per row, as many rows a block as their cuts fit 48 KB (a row is crossed at most once
    // per edge); a polygon too long for that gets a row a block and the opt-in shared memory.
    const int cutRoom = std::max(1, longest);
    const int rowsPerBlock = std::clamp(int(48 * 1024 / (cutRoom * sizeof(int))), 1, kLabelThreads / 32);
    const std::size_t cutBytes = std::size_t(rowsPerBlock) * cutRoom * sizeof(int);
    if (cutBytes > 48 * 1024) {
        int device = 0, most = 0;
        cudaCheck(cudaGetDevice(&device), "snake labels");
        cudaCheck(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "snake labels");
        if (cutBytes + 64 > std::size_t(most))
            throw GpuError("a snake polygon has too many nodes for the CUDA label kernel");
        cudaCheck(cudaFuncSetAttribute(labelKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(cutBytes)),
                  "snake labels");
    }
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    m_labelPolygons.reserve(std::max<std::size_t>(1, nodes.size()) * sizeof(PixelPoint), "the snake's polygons");
    m_labelRanges.reserve(ranges.size() * sizeof(int2), "the snake's polygons");
    cudaCheck(cudaMemcpyAsync(m_labelPolygons.get(), nodes.data(), nodes.size() * sizeof(PixelPoint),
                              cudaMemcpyHostToDevice, stream),
              "snake polygons");
    cudaCheck(cudaMemcpyAsync(m_labelRanges.get(), ranges.data(), ranges.size() * sizeof(int2), cudaMemcpyHostToDevice,
                              stream),
              "snake polygons");
    std::uint8_t* out = sink.onDevice ? sink.data : static_cast<std::uint8_t*>(m_context->scratch(GpuContext::kEngineScratchSlot, g.voxelCount()));
    const LabelScope scope{g.dims[0], g.dims[1], g.dims[2], m_request.roi ? *m_request.roi : wholeBox(g),
                           m_request.mask ? m_userMask.as<std::uint8_t>() : nullptr};
    m_timer.begin(stream);
    const int rows = (b.hi[1] - b.lo[1] + 1) * (b.hi[2] - b.lo[2] + 1);
    labelKernel<<<(rows + rowsPerBlock - 1) / rowsPerBlock, 32 * rowsPerBlock, cutBytes, stream>>>(
        m_labelPolygons.as<PixelPoint>(), m_labelRanges.as<int2>(), scope, b, rows, cutRoom, out);
    launchCheck("snake labels");
    m_timer.end(stream);  // also waits for the pageable copies above before `nodes` goes
    if (!sink.onDevice) copyLabelsToHost(*m_context, out, sink, b);
}

}  // namespace lucent::gpu
