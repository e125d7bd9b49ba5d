/// @brief Region growing kernels: threshold to bits, seeds, rounds of tile growth, labels.
#include "BitTile.cuh"
#include "CudaCheck.h"
#include "RegionGrowingCuda.h"
#include "TileQueue.cuh"
#include "TileRounds.h"
#include "lucent/core/seg/Eligibility.h"
#include "lucent/gpu/DeviceVolume.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace lucent::gpu {

namespace {

constexpr int kWordsPerWarp = 8;
constexpr unsigned kFull = 0xffffffffu;

struct Scope {
    VoxelBox roi;                     // whole grid when the request has none
    const std::uint8_t* mask = nullptr;  // device copy of the request's mask, or null
};

/// One warp makes kWordsPerWarp consecutive words (volume order, so the reads stream): each lane
/// tests one voxel per word and a ballot packs the 32 answers. Loads come first so that eight
/// are in flight per lane.
template <typename T>
__global__ void thresholdKernel(const T* volume, BitGrid g, double lo, double hi, Scope scope, std::uint32_t* maskBits) {
    const int lane = threadIdx.x & 31;
    const std::size_t warp = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
    const std::size_t rowWords = std::size_t(g.tx), words = rowWords * g.ny * g.nz;
    bool inside[kWordsPerWarp];
    std::size_t word[kWordsPerWarp];
#pragma unroll
    for (int u = 0; u < kWordsPerWarp; ++u) {
        word[u] = warp * kWordsPerWarp + u;
        inside[u] = false;
        if (word[u] >= words) continue;
        const int wx = int(word[u] % rowWords);
        const std::size_t row = word[u] / rowWords;
        const int y = int(row % g.ny), z = int(row / g.ny), x = wx * 32 + lane;
        if (x >= g.nx) continue;
        const std::size_t idx = row * g.nx + x;
        const double v = double(volume[idx]);
        inside[u] = v >= lo && v <= hi && scope.roi.contains(x, y, z) && (!scope.mask || scope.mask[idx] != 0);
    }
#pragma unroll
    for (int u = 0; u < kWordsPerWarp; ++u) {
        const std::uint32_t bits = __ballot_sync(kFull, inside[u]);
        if (lane == 0 && word[u] < words) {
            const std::size_t row = word[u] / rowWords;
            maskBits[bitWord(g, int(word[u] % rowWords), int(row % g.ny), int(row / g.ny))] = bits;
        }
    }
}

__global__ void seedKernel(BitGrid g, const int3* seeds, int count, std::uint32_t* region, TileQueueView queue) {
    for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < count; s += gridDim.x * blockDim.x) {
        const int i = seeds[s].x, j = seeds[s].y, k = seeds[s].z;
        atomicOr(&region[bitWord(g, i >> 5, j, k)], 1u << (i & 31));
        queue.activateAround(i >> 5, j >> 5, k >> 5, g.tx, g.ty, g.tz);
    }
}

/// One round: each block takes active tiles, loads the tile's region words with a one-word halo
/// in y and z and the neighbouring words' edge bits in x, grows inside the tile until nothing
/// changes (reads and writes of shared memory separated by barriers), writes the words back and
/// queues the neighbours whose shared faces gained voxels. Other tiles' words only ever gain
/// bits, so a halo read while they are written is merely stale, and they queue us again.
template <bool k26>
__global__ void __launch_bounds__(1024) growRound(BitGrid g, const std::uint32_t* maskBits, std::uint32_t* region,
                                                   TileQueueView queue, std::uint32_t* stats) {
    __shared__ std::uint32_t sR[34][34];  // [lz + 1][ly + 1]
    __shared__ std::uint8_t sLeft[34][34], sRight[34][34];  // bit 31 of the word at wx - 1, bit 0 at wx + 1
    __shared__ std::uint32_t sFaces;
    const int ly = threadIdx.x, lz = threadIdx.y, tid = lz * 32 + ly;
    if (blockIdx.x == 0 && tid == 0) beginRound(queue, stats);
    const std::uint32_t active = queue.size();
    for (std::uint32_t qi = blockIdx.x; qi < active; qi += gridDim.x) {
        const std::uint32_t tile = queue.at(qi);
        const int wx = int(tile % g.tx), ty = int((tile / g.tx) % g.ty), tz = int(tile / (std::uint32_t(g.tx) * g.ty));
        const int y0 = ty * 32, z0 = tz * 32;
        const std::size_t own = std::size_t(tile) * 1024 + tid;
        const std::uint32_t m = maskBits[own], r0 = region[own];
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
        if (faces && tid == 13)
            addChangedBox(stats, wx * 32, y0, z0, min(g.nx - 1, wx * 32 + 31), min(g.ny - 1, y0 + 31), min(g.nz - 1, z0 + 31));
        __syncthreads();  // sR and sFaces are reused by the next tile
    }
}

__global__ void labelKernel(BitGrid g, const std::uint32_t* region, VoxelBox box, std::uint8_t* out) {
    const int bx = box.hi[0] - box.lo[0] + 1, by = box.hi[1] - box.lo[1] + 1;
    const std::size_t n = std::size_t(bx) * by * (box.hi[2] - box.lo[2] + 1);
    for (std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; t < n; t += std::size_t(gridDim.x) * blockDim.x) {
        const int i = box.lo[0] + int(t % bx), j = box.lo[1] + int((t / bx) % by), k = box.lo[2] + int(t / (std::size_t(bx) * by));
        const std::uint32_t w = region[bitWord(g, i >> 5, j, k)];
        out[(std::size_t(k) * g.ny + j) * g.nx + i] = std::uint8_t((w >> (i & 31)) & 1u);
    }
}

__global__ void queueAllKernel(TileQueueView queue, std::uint32_t tiles) {
    for (std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < tiles; t += gridDim.x * blockDim.x) queue.activate(t);
}

int gridFor(std::size_t threads, int block) { return int(std::min<std::size_t>((threads + block - 1) / block, 1u << 30)); }

}  // namespace

void RegionGrowingCuda::start(const SegmentationRequest& request) {
    validateRequest(Method::RegionGrowing, request);
    const bool fresh = !m_context || &m_context->volume() != request.volume;
    m_context = contextFor(m_context, request);
    m_msUpload = fresh ? m_context->uploadMs() : 0;
    m_request = request;
    const Geometry& geo = request.volume->geometry();
    m_grid = {geo.dims[0], geo.dims[1], geo.dims[2], (geo.dims[0] + 31) / 32, (geo.dims[1] + 31) / 32, (geo.dims[2] + 31) / 32};
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    m_mask.reserve(m_grid.words() * 4, "the region-growing mask bits");
    m_region.reserve(m_grid.words() * 4, "the region-growing region bits");
    m_queue.allocate(m_grid.tiles(), "the region-growing tile queue");
    if (request.mask) {
        m_userMask.reserve(request.mask->voxelCount(), "the mask");
        cudaCheck(cudaMemcpyAsync(m_userMask.get(), request.mask->data(), request.mask->voxelCount(), cudaMemcpyHostToDevice, stream),
                  "mask upload");
    }
    m_timer.reset();
    m_timer.begin(stream);
    cudaCheck(cudaMemsetAsync(m_region.get(), 0, m_grid.words() * 4, stream), "region bits");
    m_queue.reset(stream);
    threshold();
    std::string rejected;
    const std::size_t planted = plantSeeds(request.seeds, &rejected);
    m_timer.end(stream);
    if (planted == 0)
        throw std::invalid_argument("no seed lies within [" + std::to_string(request.regionGrowing.lower) + ", " +
                                    std::to_string(request.regionGrowing.upper) + "] inside the ROI/mask (" + rejected + ")");
    m_rounds = 0;
    m_finished = false;
}

void RegionGrowingCuda::threshold() {
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    cudaCheck(cudaMemsetAsync(m_mask.get(), 0, m_grid.words() * 4, stream), "mask bits");
    Scope scope{m_request.roi ? *m_request.roi : wholeBox(m_request.volume->geometry()),
                m_request.mask ? m_userMask.as<std::uint8_t>() : nullptr};
    const std::size_t words = std::size_t(m_grid.tx) * m_grid.ny * m_grid.nz;
    const int blocks = gridFor((words + kWordsPerWarp - 1) / kWordsPerWarp * 32, 256);
    const auto& p = m_request.regionGrowing;
    const void* voxels = m_context->deviceVolume().devicePointer();
    if (m_request.volume->pixelType() == PixelType::Int16)
        thresholdKernel<<<blocks, 256, 0, stream>>>(static_cast<const std::int16_t*>(voxels), m_grid, p.lower, p.upper, scope,
                                                    m_mask.as<std::uint32_t>());
    else
        thresholdKernel<<<blocks, 256, 0, stream>>>(static_cast<const float*>(voxels), m_grid, p.lower, p.upper, scope,
                                                    m_mask.as<std::uint32_t>());
    launchCheck("region-growing threshold");
}

std::size_t RegionGrowingCuda::plantSeeds(const std::vector<VoxelIndex>& seeds, std::string* rejected) {
    // The seeds are checked on the host with the CPU engine's rule (few voxels, same answer).
    const Eligibility eligible(m_request);
    const Volume& v = *m_request.volume;
    const auto& p = m_request.regionGrowing;
    std::vector<int3> list;
    for (const auto& s : seeds) {
        const std::size_t idx = v.geometry().index(s.i, s.j, s.k);
        const double value = v.value(idx);
        if (value >= p.lower && value <= p.upper && eligible(s.i, s.j, s.k, idx)) {
            list.push_back(make_int3(s.i, s.j, s.k));
        } else if (rejected && rejected->empty()) {
            *rejected = "seed " + std::to_string(s.i) + "," + std::to_string(s.j) + "," + std::to_string(s.k) + " has value " +
                        std::to_string(value);
        }
    }
    if (list.empty()) return 0;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    m_seeds.reserve(list.size() * sizeof(int3), "the seeds");
    // From pageable memory the copy has taken the bytes when it returns, so `list` may go.
    cudaCheck(cudaMemcpyAsync(m_seeds.get(), list.data(), list.size() * sizeof(int3), cudaMemcpyHostToDevice, stream), "seeds");
    seedKernel<<<gridFor(list.size(), 128), 128, 0, stream>>>(m_grid, m_seeds.as<int3>(), int(list.size()),
                                                              m_region.as<std::uint32_t>(), m_queue.view());
    launchCheck("region-growing seeds");
    return list.size();
}

StepReport RegionGrowingCuda::step(int maxIterations) {
    StepReport report;
    if (!m_finished) {
        auto stream = static_cast<cudaStream_t>(m_context->stream());
        int device = 0, sms = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        const bool k26 = m_request.regionGrowing.connectivity == 26;
        m_timer.begin(stream);
        const RoundsDone done = runRounds(m_queue, m_figures, stream, maxIterations, [&](const TileQueueView& view) {
            auto* mask = m_mask.as<std::uint32_t>();
            auto* region = m_region.as<std::uint32_t>();
            if (k26) growRound<true><<<2 * sms, dim3(32, 32), 0, stream>>>(m_grid, mask, region, view, m_figures.device());
            else growRound<false><<<2 * sms, dim3(32, 32), 0, stream>>>(m_grid, mask, region, view, m_figures.device());
        });
        m_timer.end(stream);
        m_rounds += done.rounds;
        m_finished = done.tilesLeft == 0;
        report.convergence = double(done.tilesLeft);
        report.changed = done.changed;
    }
    report.iterations = m_rounds;
    report.finished = m_finished;
    report.progress = m_finished ? 1.0 : double(m_rounds) / double(m_rounds + 8);
    return report;
}

void RegionGrowingCuda::writeLabels(const LabelSink& sink, const VoxelBox* box) const {
    const Geometry& geo = m_request.volume->geometry();
    if (sink.voxels != geo.voxelCount()) throw std::invalid_argument("label sink is not on the volume's grid");
    const VoxelBox b = box ? *box : wholeBox(geo);
    if (b.empty()) return;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    std::uint8_t* out = sink.onDevice ? sink.data : static_cast<std::uint8_t*>(m_context->scratch(0, geo.voxelCount()));
    const std::size_t n = std::size_t(b.hi[0] - b.lo[0] + 1) * (b.hi[1] - b.lo[1] + 1) * (b.hi[2] - b.lo[2] + 1);
    m_timer.begin(stream);
    labelKernel<<<gridFor(n, 256), 256, 0, stream>>>(m_grid, m_region.as<std::uint32_t>(), b, out);
    launchCheck("region-growing labels");
    m_timer.end(stream);
    if (!sink.onDevice) copyLabelsToHost(*m_context, out, sink, b);
}

MethodFigures RegionGrowingCuda::figures() const {
    MethodFigures f;
    f.msDevice = m_timer.totalMs();
    if (m_msUpload > 0) f.msUpload = m_msUpload;
    f.rounds = m_rounds;
    return f;
}

void RegionGrowingCuda::queueAllTiles() {
    // Every tile holding region voxels may grow into the wider interval; queueing all of them
    // costs one round over tiles that mostly find nothing to do.
    queueAllKernel<<<gridFor(m_grid.tiles(), 256), 256, 0, static_cast<cudaStream_t>(m_context->stream())>>>(m_queue.view(),
                                                                                                           m_grid.tiles());
    launchCheck("region-growing tile queue");
}

UpdateOutcome RegionGrowingCuda::update(const SegmentationRequest& request) {
    const auto& now = m_request.regionGrowing;
    const auto& next = request.regionGrowing;
    const bool wider = next.lower <= now.lower && next.upper >= now.upper && next.connectivity == now.connectivity;
    bool keepsSeeds = true;
    for (const auto& s : m_request.seeds)
        keepsSeeds = keepsSeeds && std::find(request.seeds.begin(), request.seeds.end(), s) != request.seeds.end();
    if (!m_context || !wider || !keepsSeeds || !sameScope(m_request, request)) {
        start(request);
        return UpdateOutcome::Restarted;
    }
    validateRequest(Method::RegionGrowing, request);
    m_request = request;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    m_timer.begin(stream);
    threshold();  // the region stays: a wider interval keeps every grown voxel inside the mask
    queueAllTiles();
    plantSeeds(request.seeds, nullptr);
    m_timer.end(stream);
    m_finished = false;
    return UpdateOutcome::Continued;
}

}  // namespace lucent::gpu
