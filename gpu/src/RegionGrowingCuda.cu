/// @brief Region growing kernels: threshold to bits, seeds, rounds of tile growth, labels.
#include "BitTile.cuh"
#include "CudaCheck.h"
#include "RegionGrowingCuda.h"
#include "TileQueue.cuh"
#include "TileRounds.h"
#include "lucent/core/seg/Eligibility.h"
#include "lucent/core/seg/SeedMessages.h"
#include "lucent/gpu/DeviceVolume.h"
#include "lucent/gpu/Resident.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace lucent::gpu {

namespace rg {

struct Scope {
    VoxelBox roi;                     // whole grid when the request has none
    const std::uint8_t* mask = nullptr;  // device copy of the request's mask, or null
};

/// Where a tile's mask words come from: the interval over the volume, inside the scope. They are
/// made when a round first visits the tile after the interval changed (its generation is older),
/// so that a parameter change costs what the region's tiles hold, never a pass over the volume.
template <typename T>
struct TileMask {
    const T* volume;
    double lo, hi;           // the interval (float volumes compare as the CPU engine does, in double)
    int intLo, intHi;        // the same interval on integer values: ceil(lo), floor(hi), clamped
    Scope scope;
    std::uint32_t* words;    // the mask bits, bitWord layout; valid where the tile's generation is current
    std::uint32_t* tileGen;  // per tile: the generation its words were made for
    std::uint32_t gen;       // the current generation (never 0: a fresh grid's tiles hold 0)
    std::uint8_t* occupied;  // per tile: it holds region voxels
};

}  // namespace rg

namespace {

using rg::Scope;
using rg::TileMask;

constexpr unsigned kFull = 0xffffffffu;

template <typename T>
__device__ bool inInterval(const TileMask<T>& m, T v) {
    if constexpr (std::is_same_v<T, std::int16_t>) return int(v) >= m.intLo && int(v) <= m.intHi;
    else return double(v) >= m.lo && double(v) <= m.hi;
}

/// One mask word: the 32 voxels from x = wx * 32 of row (y, z). A whole int16 word of a row whose
/// length is a multiple of 8 loads as four 16-byte vectors (its address is then 16-byte aligned).
template <typename T>
__device__ std::uint32_t maskWord(const TileMask<T>& m, const BitGrid& g, int wx, int y, int z) {
    const VoxelBox& roi = m.scope.roi;
    if (y >= g.ny || z >= g.nz || y < roi.lo[1] || y > roi.hi[1] || z < roi.lo[2] || z > roi.hi[2]) return 0;
    const int x0 = wx * 32, xa = max(x0, roi.lo[0]), xb = min(min(x0 + 31, g.nx - 1), roi.hi[0]);
    const std::size_t row = (std::size_t(z) * g.ny + y) * g.nx;
    std::uint32_t bits = 0;
    if constexpr (std::is_same_v<T, std::int16_t>) {
        if (xa == x0 && xb == x0 + 31 && !m.scope.mask && g.nx % 8 == 0) {
            const uint4* q = reinterpret_cast<const uint4*>(m.volume + row + x0);
#pragma unroll
            for (int v = 0; v < 4; ++v) {
                const uint4 w = q[v];
                const unsigned h[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
                for (int e = 0; e < 8; ++e) {
                    const auto value = std::int16_t(e % 2 ? h[e / 2] >> 16 : h[e / 2] & 0xffffu);
                    if (inInterval(m, value)) bits |= 1u << (v * 8 + e);
                }
            }
            return bits;
        }
    }
    for (int x = xa; x <= xb; ++x)
        if (inInterval(m, m.volume[row + x]) && (!m.scope.mask || m.scope.mask[row + x] != 0)) bits |= 1u << (x - x0);
    return bits;
}

__global__ void seedKernel(BitGrid g, const int3* seeds, int count, std::uint32_t* region, std::uint8_t* occupied,
                           TileQueueView queue) {
    for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < count; s += gridDim.x * blockDim.x) {
        const int i = seeds[s].x, j = seeds[s].y, k = seeds[s].z;
        atomicOr(&region[bitWord(g, i >> 5, j, k)], 1u << (i & 31));
        occupied[(std::uint32_t(k >> 5) * g.ty + std::uint32_t(j >> 5)) * g.tx + std::uint32_t(i >> 5)] = 1;
        queue.activateAround(i >> 5, j >> 5, k >> 5, g.tx, g.ty, g.tz);
    }
}

/// One round: each block takes active tiles, loads the tile's region words with a one-word halo
/// in y and z and the neighbouring words' edge bits in x, grows inside the tile until nothing
/// changes (reads and writes of shared memory separated by barriers), writes the words back and
/// queues the neighbours whose shared faces gained voxels. Other tiles' words only ever gain
/// bits, so a halo read while they are written is merely stale, and they queue us again.
template <bool k26, typename T>
__global__ void __launch_bounds__(1024) growRound(BitGrid g, TileMask<T> tm, std::uint32_t* region, TileQueueView queue,
                                                   std::uint32_t* figures) {
    __shared__ std::uint32_t sR[34][34];  // [lz + 1][ly + 1]
    __shared__ std::uint8_t sLeft[34][34], sRight[34][34];  // bit 31 of the word at wx - 1, bit 0 at wx + 1
    __shared__ std::uint32_t sFaces;
    const int ly = threadIdx.x, lz = threadIdx.y, tid = lz * 32 + ly;
    if (blockIdx.x == 0 && tid == 0) beginRound(queue, figures);
    const std::uint32_t active = queue.size();
    for (std::uint32_t qi = blockIdx.x; qi < active; qi += gridDim.x) {
        const std::uint32_t tile = queue.at(qi);
        if (tid == 0) countVisit(figures);
        const int wx = int(tile % g.tx), ty = int((tile / g.tx) % g.ty), tz = int(tile / (std::uint32_t(g.tx) * g.ty));
        const int y0 = ty * 32, z0 = tz * 32;
        const std::size_t own = std::size_t(tile) * 1024 + tid;
        const bool stale = tm.tileGen[tile] != tm.gen;
        const std::uint32_t m = stale ? maskWord(tm, g, wx, y0 + ly, z0 + lz) : tm.words[own], r0 = region[own];
        if (stale) tm.words[own] = m;
        sR[lz + 1][ly + 1] = r0;
        if (tid < 132) {  // the ring around the tile's 32 x 32 rows
            int cz, cy;
            if (tid < 68) {
                cz = tid < 34 ? 0 : 33;
                cy = tid % 34;
            } else {
                cy = tid < 100 ? 0 : 33;
                cz = 1 + (tid - 68) % 32;
            }
            sR[cz][cy] = bitWordOr0(region, g, wx, y0 + cy - 1, z0 + cz - 1);
        }
        for (int c = tid; c < 34 * 34; c += 1024) {
            const int cz = c / 34, cy = c % 34;
            if (!k26 && (cz == 0 || cz == 33 || cy == 0 || cy == 33)) {
                sLeft[cz][cy] = sRight[cz][cy] = 0;
                continue;
            }
            sLeft[cz][cy] = std::uint8_t(bitWordOr0(region, g, wx - 1, y0 + cy - 1, z0 + cz - 1) >> 31);
            sRight[cz][cy] = std::uint8_t(bitWordOr0(region, g, wx + 1, y0 + cy - 1, z0 + cz - 1) & 1u);
        }
        if (tid == 0) sFaces = 0;
        __syncthreads();
        // Bits of the words beside this tile along x, for bit 0 and bit 31: constant during the
        // tile (6: this row; 26: the 3 x 3 rows around it).
        std::uint32_t xEdge = 0;
        if (k26) {
#pragma unroll
            for (int dz = 0; dz < 3; ++dz)
#pragma unroll
                for (int dy = 0; dy < 3; ++dy)
                    xEdge |= std::uint32_t(sLeft[lz + dz][ly + dy]) | (std::uint32_t(sRight[lz + dz][ly + dy]) << 31);
        } else {
            xEdge = std::uint32_t(sLeft[lz + 1][ly + 1]) | (std::uint32_t(sRight[lz + 1][ly + 1]) << 31);
        }
        const std::uint32_t rowBelow = sR[lz + 1][0], rowAbove = sR[lz + 1][33];  // y halo of lanes 0 and 31
        std::uint32_t r = r0;
        for (;;) {
            // Across slices: the words of slices z - 1 and z + 1 from shared memory (dilated along x
            // and y for 26-connectivity).
            std::uint32_t s = r | xEdge;
            if (k26) {
#pragma unroll
                for (int dz = 0; dz < 3; dz += 2)
#pragma unroll
                    for (int dy = 0; dy < 3; ++dy) {
                        const std::uint32_t w = sR[lz + dz][ly + dy];
                        s |= w | (w << 1) | (w >> 1);
                    }
            } else {
                s |= sR[lz][ly + 1] | sR[lz + 2][ly + 1];
            }
            s = fillRuns(s & m, m);
            // Within the slice (one warp, a lane per row): rows exchange words by shuffles until the
            // slice has converged, with no barrier.
            for (;;) {
                std::uint32_t below = __shfl_up_sync(kFull, s, 1), above = __shfl_down_sync(kFull, s, 1);
                if (ly == 0) below = rowBelow;
                if (ly == 31) above = rowAbove;
                if (k26) {
                    below |= (below << 1) | (below >> 1);
                    above |= (above << 1) | (above >> 1);
                }
                const std::uint32_t t = fillRuns((s | below | above) & m, m);
                const bool grew = t != s;
                s = t;
                if (!__any_sync(kFull, grew)) break;
            }
            const bool changed = s != r;
            r = s;
            __syncthreads();
            sR[lz + 1][ly + 1] = r;
            if (!__syncthreads_or(changed)) break;
        }
        const std::uint32_t gained = r & ~r0;
        if (gained) {
            region[own] = r;
            std::uint32_t faces = 64;  // bit 6: the tile changed
            if (gained & 1u) faces |= 1;
            if (gained >> 31) faces |= 2;
            if (ly == 0) faces |= 4;
            if (ly == 31) faces |= 8;
            if (lz == 0) faces |= 16;
            if (lz == 31) faces |= 32;
            atomicOr(&sFaces, faces);
        }
        __syncthreads();
        const std::uint32_t faces = sFaces;
        if (faces && tid < 27 && tid != 13) {
            // Neighbour (dx, dy, dz): every face it lies beyond must have gained voxels (for 6-
            // connectivity only face neighbours, one non-zero offset).
            const int dx = tid % 3 - 1, dy = (tid / 3) % 3 - 1, dz = tid / 9 - 1;
            const int nonzero = (dx != 0) + (dy != 0) + (dz != 0);
            bool wanted = k26 || nonzero == 1;
            if (dx) wanted = wanted && (faces & (dx < 0 ? 1 : 2));
            if (dy) wanted = wanted && (faces & (dy < 0 ? 4 : 8));
            if (dz) wanted = wanted && (faces & (dz < 0 ? 16 : 32));
            const int nx = wx + dx, ny = ty + dy, nz = tz + dz;
            if (wanted && nx >= 0 && ny >= 0 && nz >= 0 && nx < g.tx && ny < g.ty && nz < g.tz)
                queue.activate((std::uint32_t(nz) * g.ty + std::uint32_t(ny)) * g.tx + std::uint32_t(nx));
        }
        if (faces && tid == 13) {
            addChangedBox(figures, wx * 32, y0, z0, min(g.nx - 1, wx * 32 + 31), min(g.ny - 1, y0 + 31), min(g.nz - 1, z0 + 31));
            tm.occupied[tile] = 1;
        }
        if (stale && tid == 0) tm.tileGen[tile] = tm.gen;  // no other block visits this tile in this round
        __syncthreads();  // sR and sFaces are reused by the next tile
    }
}

/// Labels of whole slices z0.. when a row is a multiple of 16 voxels: a thread expands 16 bits of
/// a region word into one 16-byte store; chunks are numbered over all rows, so blocks stay full.
__global__ void labelWideKernel(BitGrid g, const std::uint32_t* region, int z0, unsigned chunks, std::uint8_t* out) {
    const unsigned chunk = blockIdx.x * blockDim.x + threadIdx.x;
    if (chunk >= chunks) return;
    const unsigned perRow = unsigned(g.nx) / 16, row = chunk / perRow;
    const int y = int(row % unsigned(g.ny)), z = z0 + int(row / unsigned(g.ny));
    const int x = 16 * int(chunk % perRow);
    const std::uint32_t bits = (region[bitWord(g, x >> 5, y, z)] >> (x & 31)) & 0xffffu;
    std::uint32_t packed[4];
#pragma unroll
    for (int w = 0; w < 4; ++w) {
        const std::uint32_t b = bits >> (4 * w);
        packed[w] = (b & 1u) | ((b & 2u) << 7) | ((b & 4u) << 14) | ((b & 8u) << 21);
    }
    *reinterpret_cast<uint4*>(out + (std::size_t(z) * g.ny + y) * g.nx + x) = make_uint4(packed[0], packed[1], packed[2], packed[3]);
}

/// Labels of `box` (its x range starting at a multiple of 4): a thread writes 4 voxels, as one
/// 32-bit store where the address allows.
__global__ void labelKernel(BitGrid g, const std::uint32_t* region, VoxelBox box, std::uint8_t* out) {
    const int y = box.lo[1] + int(blockIdx.y), z = box.lo[2] + int(blockIdx.z);
    const int x = box.lo[0] + 4 * int(blockIdx.x * blockDim.x + threadIdx.x);
    if (x > box.hi[0]) return;
    const std::uint32_t bits = (region[bitWord(g, x >> 5, y, z)] >> (x & 31)) & 0xfu;
    std::uint8_t* o = out + (std::size_t(z) * g.ny + y) * g.nx + x;
    if (x + 3 < g.nx && (reinterpret_cast<std::uintptr_t>(o) & 3u) == 0) {
        *reinterpret_cast<std::uint32_t*>(o) = (bits & 1u) | ((bits & 2u) << 7) | ((bits & 4u) << 14) | ((bits & 8u) << 21);
        return;
    }
    for (int q = 0; q < 4 && x + q < g.nx; ++q) o[q] = std::uint8_t((bits >> q) & 1u);
}

/// Queues every tile that holds region voxels and the 26 around it: where a wider interval can
/// let the region grow (a tile beside the region's face is reached through its halo).
__global__ void requeueKernel(BitGrid g, std::uint32_t tiles, const std::uint8_t* occupied, TileQueueView queue) {
    for (std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < tiles; t += gridDim.x * blockDim.x)
        if (occupied[t])
            queue.activateAround(int(t % g.tx), int((t / g.tx) % g.ty), int(t / (std::uint32_t(g.tx) * g.ty)), g.tx, g.ty, g.tz);
}

int gridFor(std::size_t threads, int block) { return int(std::min<std::size_t>((threads + block - 1) / block, 1u << 30)); }

}  // namespace

void RegionGrowingCuda::start(const SegmentationRequest& request) {
    validateRequest(Method::RegionGrowing, request);
    checkGridLimits(request.volume->geometry());
    const bool fresh = !m_context || &m_context->volume() != request.volume;
    m_context = contextFor(m_context, request);
    m_msUpload = fresh ? m_context->uploadMs() : 0;
    m_request = request;
    const Geometry& geo = request.volume->geometry();
    m_grid = {geo.dims[0], geo.dims[1], geo.dims[2], (geo.dims[0] + 31) / 32, (geo.dims[1] + 31) / 32, (geo.dims[2] + 31) / 32};
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    m_mask.reserve(m_grid.words() * 4, "the region-growing mask bits");
    m_region.reserve(m_grid.words() * 4, "the region-growing region bits");
    m_tileGen.reserve(std::size_t(m_grid.tiles()) * 4, "the region-growing tile generations");
    m_occupied.reserve(m_grid.tiles(), "the region-growing occupied tiles");
    m_queue.allocate(m_grid.tiles(), "the region-growing tile queue");
    if (request.mask) {
        m_userMask.reserve(request.mask->voxelCount(), "the mask");
        cudaCheck(cudaMemcpyAsync(m_userMask.get(), request.mask->data(), request.mask->voxelCount(), cudaMemcpyHostToDevice, stream),
                  "mask upload");
    }
    m_timer.reset();
    m_timer.begin(stream);
    cudaCheck(cudaMemsetAsync(m_region.get(), 0, m_grid.words() * 4, stream), "region bits");
    cudaCheck(cudaMemsetAsync(m_tileGen.get(), 0, std::size_t(m_grid.tiles()) * 4, stream), "tile generations");
    cudaCheck(cudaMemsetAsync(m_occupied.get(), 0, m_grid.tiles(), stream), "occupied tiles");
    m_gen = 1;  // every tile's mask is made from this interval when a round first visits it
    m_queue.reset(stream);
    std::string rejected;
    const std::size_t planted = plantSeeds(request.seeds, &rejected);
    m_timer.end(stream);
    if (planted == 0)
        throw std::invalid_argument(noSeedWithin(request.regionGrowing, rejected));
    m_tally.restart();
}

template <typename T>
rg::TileMask<T> RegionGrowingCuda::tileMask() const {
    const auto& p = m_request.regionGrowing;
    auto clampInt = [](double v) { return int(std::clamp(v, -65536.0, 65536.0)); };
    return {static_cast<const T*>(m_context->deviceVolume().devicePointer()),
            p.lower,
            p.upper,
            clampInt(std::ceil(p.lower)),
            clampInt(std::floor(p.upper)),
            Scope{m_request.roi ? *m_request.roi : wholeBox(m_request.volume->geometry()),
                  m_request.mask ? m_userMask.as<std::uint8_t>() : nullptr},
            m_mask.as<std::uint32_t>(),
            m_tileGen.as<std::uint32_t>(),
            m_gen,
            m_occupied.as<std::uint8_t>()};
}

std::size_t RegionGrowingCuda::plantSeeds(const std::vector<VoxelIndex>& seeds, std::string* rejected) {
    // The seeds are checked on the host with the CPU engine's rule (few voxels, same answer).
    const Eligibility eligible(m_request);
    const Volume& v = *m_request.volume;
    const auto& p = m_request.regionGrowing;
    std::vector<int3> list;
    for (const auto& s : seeds) {
        const std::size_t idx = v.geometry().index(s.i, s.j, s.k);
        // A resident volume (Resident.h) has no host voxels: its seeds' values come off the device.
        const double value = hasHostVoxels(v) ? v.value(idx) : m_context->deviceVolume().value(idx);
        if (value >= p.lower && value <= p.upper && eligible(s.i, s.j, s.k, idx)) {
            list.push_back(make_int3(s.i, s.j, s.k));
        } else if (rejected && rejected->empty()) {
            *rejected = rejectedSeed(s, value);
        }
    }
    if (list.empty()) return 0;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    m_seeds.reserve(list.size() * sizeof(int3), "the seeds");
    // From pageable memory the copy has taken the bytes when it returns, so `list` may go.
    cudaCheck(cudaMemcpyAsync(m_seeds.get(), list.data(), list.size() * sizeof(int3), cudaMemcpyHostToDevice, stream), "seeds");
    seedKernel<<<gridFor(list.size(), 128), 128, 0, stream>>>(m_grid, m_seeds.as<int3>(), int(list.size()),
                                                              m_region.as<std::uint32_t>(), m_occupied.as<std::uint8_t>(),
                                                              m_queue.view());
    launchCheck("region-growing seeds");
    return list.size();
}

StepReport RegionGrowingCuda::step(int maxIterations) {
    StepReport report;
    if (!m_tally.finished) {
        auto stream = static_cast<cudaStream_t>(m_context->stream());
        int device = 0, sms = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        const bool k26 = m_request.regionGrowing.connectivity == 26;
        m_timer.begin(stream);
        const bool int16 = m_request.volume->pixelType() == PixelType::Int16;
        const RoundsDone done = runRounds(m_queue, m_figures, stream, maxIterations, [&](const TileQueueView& view) {
            auto* region = m_region.as<std::uint32_t>();
            const dim3 grid(2 * sms), block(32, 32);
            if (int16 && k26) growRound<true><<<grid, block, 0, stream>>>(m_grid, tileMask<std::int16_t>(), region, view, m_figures.device());
            else if (int16) growRound<false><<<grid, block, 0, stream>>>(m_grid, tileMask<std::int16_t>(), region, view, m_figures.device());
            else if (k26) growRound<true><<<grid, block, 0, stream>>>(m_grid, tileMask<float>(), region, view, m_figures.device());
            else growRound<false><<<grid, block, 0, stream>>>(m_grid, tileMask<float>(), region, view, m_figures.device());
        });
        m_timer.end(stream);
        m_tally.add(done, report);
    }
    m_tally.fill(report, 8);
    return report;
}

void RegionGrowingCuda::writeLabels(const LabelSink& sink, const VoxelBox* box) const {
    const Geometry& geo = m_request.volume->geometry();
    if (sink.voxels != geo.voxelCount()) throw std::invalid_argument("label sink is not on the volume's grid");
    const VoxelBox b = box ? *box : wholeBox(geo);
    if (b.empty()) return;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    std::uint8_t* out = sink.onDevice ? sink.data : static_cast<std::uint8_t*>(m_context->scratch(GpuContext::kEngineScratchSlot, geo.voxelCount()));
    m_timer.begin(stream);
    const bool wholeRows = b.lo[0] == 0 && b.hi[0] == geo.dims[0] - 1 && b.lo[1] == 0 && b.hi[1] == geo.dims[1] - 1;
    const std::size_t wideChunks = std::size_t(geo.dims[0] / 16) * geo.dims[1] * (b.hi[2] - b.lo[2] + 1);
    if (wholeRows && geo.dims[0] % 16 == 0 && wideChunks < (std::size_t(1) << 32) &&
        (reinterpret_cast<std::uintptr_t>(out) & 15u) == 0)
        labelWideKernel<<<gridFor(wideChunks, 256), 256, 0, stream>>>(m_grid, m_region.as<std::uint32_t>(), b.lo[2],
                                                                     unsigned(wideChunks), out);
    else
        labelKernel<<<labelGrid(b), 128, 0, stream>>>(m_grid, m_region.as<std::uint32_t>(), alignedBox(b), out);
    launchCheck("region-growing labels");
    m_timer.end(stream);
    if (!sink.onDevice) copyLabelsToHost(*m_context, out, sink, b);
}

MethodFigures RegionGrowingCuda::figures() const {
    MethodFigures f;
    f.msDevice = m_timer.totalMs();
    if (m_msUpload > 0) f.msUpload = m_msUpload;
    f.rounds = m_tally.rounds;
    f.tileVisits = m_tally.visits;
    return f;
}

void RegionGrowingCuda::requeueRegion() {
    requeueKernel<<<gridFor(m_grid.tiles(), 256), 256, 0, static_cast<cudaStream_t>(m_context->stream())>>>(
        m_grid, m_grid.tiles(), m_occupied.as<std::uint8_t>(), m_queue.view());
    launchCheck("region-growing tile queue");
}

UpdateOutcome RegionGrowingCuda::update(const SegmentationRequest& request) {
    if (!m_context || !growsOn(m_request, request)) {
        start(request);
        return UpdateOutcome::Restarted;
    }
    validateRequest(Method::RegionGrowing, request);
    m_request = request;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    m_timer.begin(stream);
    // The region stays (a wider interval keeps every grown voxel inside the mask); the tiles' masks
    // are remade from the new interval as the rounds reach them.
    if (++m_gen == 0) {
        cudaCheck(cudaMemsetAsync(m_tileGen.get(), 0, std::size_t(m_grid.tiles()) * 4, stream), "tile generations");
        m_gen = 1;
    }
    requeueRegion();
    plantSeeds(request.seeds, nullptr);
    m_timer.end(stream);
    m_tally.finished = false;
    return UpdateOutcome::Continued;
}

}  // namespace lucent::gpu
