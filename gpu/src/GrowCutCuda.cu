/// @brief Grow from seeds kernels: seeds planted, rounds of tile relaxation of 64-bit (distance,
/// label) keys, labels, voxels per label.
#include "CudaCheck.h"
#include "GrowCutCuda.h"
#include "TileQueue.cuh"
#include "lucent/core/Errors.h"
#include "lucent/core/StageTimes.h"
#include "lucent/core/seg/Eligibility.h"
#include "lucent/core/seg/GrowCutKey.h"
#include "lucent/core/seg/SeedVoxels.h"
#include "lucent/gpu/DeviceVolume.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace lucent::gpu {

namespace {

// A tile is 32 x 8 x 8 voxels, a block 32 x 8 threads, each a column of 8 voxels along z (as fuzzy
// connectedness: rows of 32 keep loads coalesced).
constexpr int TX = 32, TY = 8, TZ = 8;

struct GcGrid {
    int nx, ny, nz;
    int tx, ty, tz;            // tiles along each axis
    VoxelBox roi;              // whole grid without an ROI
    const std::uint8_t* mask;  // device copy of the request's mask, or null
    __device__ bool eligible(int x, int y, int z, std::size_t idx) const {
        return roi.contains(x, y, z) && (!mask || mask[idx] != 0);
    }
};

GcGrid gridOf(const SegmentationRequest& r, const std::uint8_t* mask) {
    const Geometry& geo = r.volume->geometry();
    return {geo.dims[0], geo.dims[1], geo.dims[2], (geo.dims[0] + TX - 1) / TX, (geo.dims[1] + TY - 1) / TY,
            (geo.dims[2] + TZ - 1) / TZ, r.roi ? *r.roi : wholeBox(geo), r.mask ? mask : nullptr};
}

/// What planting a list of seed voxels found (slots of a small device array, read back once).
enum PlantSlot : int { kKept, kRelabelled, kConflict, kPlanted, kLo, kHi = kLo + 3, kHeldInBox = kHi + 3, kPlantSlots };

/// Seeds the device map holds inside `box` (an update's list must find each of them again).
__global__ void countHeldSeeds(GcGrid g, VoxelBox box, const std::uint8_t* seeds, std::uint32_t* out) {
    const int x = box.lo[0] + int(blockIdx.x * blockDim.x + threadIdx.x), y = box.lo[1] + int(blockIdx.y),
              z = box.lo[2] + int(blockIdx.z);
    const bool held = x <= box.hi[0] && seeds[(std::size_t(z) * g.ny + y) * g.nx + x] != 0;
    const int n = __syncthreads_count(held);
    if (threadIdx.x == 0 && n) atomicAdd(&out[kHeldInBox], std::uint32_t(n));
}

/// The listed seed voxels (packSeedVoxel) that the device map lacks: taken into it, and where eligible
/// planted at (0, label) with their tile and the tiles around it queued. A voxel the map holds with
/// the same label counts as kept, with another as relabelled; a new seed on a voxel already holding a
/// smaller key (another label at distance 0) sets conflict. The host restarts on either.
__global__ void plantKernel(GcGrid g, const std::uint64_t* list, std::size_t count, std::uint8_t* seeds, std::uint64_t* keys,
                            TileQueueView queue, std::uint32_t* out) {
    const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (n >= count) return;
    const std::size_t idx = seedVoxelIndex(list[n]);
    const std::uint8_t label = seedVoxelLabel(list[n]), was = seeds[idx];
    if (was == label) {
        atomicAdd(&out[kKept], 1u);
        return;
    }
    if (was != 0) {
        atomicAdd(&out[kRelabelled], 1u);
        return;
    }
    seeds[idx] = label;
    const int x = int(idx % std::size_t(g.nx)), y = int(idx / std::size_t(g.nx) % std::size_t(g.ny)),
              z = int(idx / (std::size_t(g.nx) * std::size_t(g.ny)));
    if (!g.eligible(x, y, z, idx)) return;
    const std::uint64_t key = growCutKey(0, label);
    if (keys[idx] < key) {
        atomicOr(&out[kConflict], 1u);
        return;
    }
    keys[idx] = key;
    queue.activateAround(x / TX, y / TY, z / TZ, g.tx, g.ty, g.tz);
    atomicAdd(&out[kPlanted], 1u);
    const int at[3] = {x, y, z};
    for (int d = 0; d < 3; ++d) {
        atomicMin(&out[kLo + d], std::uint32_t(at[d]));
        atomicMax(&out[kHi + d], std::uint32_t(at[d]));
    }
}

/// The key voxel `nb` (value `vn`) offers a neighbour of value `v`; unreached offers nothing.
__device__ inline std::uint64_t offer(std::uint64_t nb, int vn, int v) {
    if (nb == kGrowCutUnreached) return kGrowCutUnreached;
    return growCutKey(growCutDistance(nb) + growCutCost(vn, v), std::uint8_t(nb & 0xFF));
}

/// One round: each block takes active tiles, loads keys and values with a one-voxel halo, relaxes
/// key = min(key, offers of the 6 face neighbours) for the tile's free voxels (eligible, not a
/// seed) until nothing falls (Gauss-Seidel along each thread's z column, Jacobi across threads),
/// writes back and queues the face neighbours whose shared face fell. Neighbouring tiles' keys
/// only fall, so a halo read while they are written is merely stale, and the writer queues us
/// again. A tile is queued once a round, so only its block writes its voxels.
__global__ void __launch_bounds__(TX * TY) relaxRound(GcGrid g, const std::int16_t* volume, const std::uint8_t* seeds,
                                                      std::uint64_t* keys, TileQueueView queue, std::uint32_t* figures) {
    __shared__ std::uint64_t sK[TZ + 2][TY + 2][TX + 2];
    __shared__ std::int16_t sV[TZ + 2][TY + 2][TX + 2];
    __shared__ std::uint32_t sFaces;
    const int x = threadIdx.x, y = threadIdx.y, tid = y * TX + x;
    if (blockIdx.x == 0 && tid == 0) beginRound(queue, figures);
    const std::uint32_t active = queue.size();
    for (std::uint32_t qi = blockIdx.x; qi < active; qi += gridDim.x) {
        const std::uint32_t tile = queue.at(qi);
        if (tid == 0) countVisit(figures);
        const int bx = int(tile % g.tx), by = int((tile / g.tx) % g.ty), bz = int(tile / (std::uint32_t(g.tx) * g.ty));
        const int x0 = bx * TX, y0 = by * TY, z0 = bz * TZ;
        constexpr int cells = (TZ + 2) * (TY + 2) * (TX + 2);
        for (int c = tid; c < cells; c += TX * TY) {
            const int cx = c % (TX + 2), cy = (c / (TX + 2)) % (TY + 2), cz = c / ((TX + 2) * (TY + 2));
            const int gx = x0 + cx - 1, gy = y0 + cy - 1, gz = z0 + cz - 1;
            std::uint64_t key = kGrowCutUnreached;  // outside the grid: offers nothing
            std::int16_t value = 0;
            if (gx >= 0 && gy >= 0 && gz >= 0 && gx < g.nx && gy < g.ny && gz < g.nz) {
                const std::size_t idx = (std::size_t(gz) * g.ny + gy) * g.nx + gx;
                key = keys[idx];  // ineligible voxels stay unreached
                value = volume[idx];
            }
            sK[cz][cy][cx] = key;
            sV[cz][cy][cx] = value;
        }
        if (tid == 0) sFaces = 0;
        __syncthreads();
        const int gx = x0 + x, gy = y0 + y;
        std::uint64_t first[TZ], now[TZ];
        bool free[TZ];
        int value[TZ];
#pragma unroll
        for (int z = 0; z < TZ; ++z) {
            const int gz = z0 + z;
            const bool inside = gx < g.nx && gy < g.ny && gz < g.nz;
            const std::size_t idx = (std::size_t(gz) * g.ny + gy) * g.nx + gx;
            free[z] = inside && seeds[idx] == 0 && g.eligible(gx, gy, gz, idx);
            first[z] = now[z] = sK[z + 1][y + 1][x + 1];
            value[z] = sV[z + 1][y + 1][x + 1];
        }
        for (;;) {
            std::uint64_t next[TZ];
#pragma unroll
            for (int z = 0; z < TZ; ++z) {
                std::uint64_t best = now[z];
                if (free[z]) {
                    const int v = value[z];
                    best = min(best, offer(sK[z + 1][y + 1][x], sV[z + 1][y + 1][x], v));
                    best = min(best, offer(sK[z + 1][y + 1][x + 2], sV[z + 1][y + 1][x + 2], v));
                    best = min(best, offer(sK[z + 1][y][x + 1], sV[z + 1][y][x + 1], v));
                    best = min(best, offer(sK[z + 1][y + 2][x + 1], sV[z + 1][y + 2][x + 1], v));
                    best = min(best, z == 0 ? offer(sK[0][y + 1][x + 1], sV[0][y + 1][x + 1], v) : offer(next[z - 1], value[z - 1], v));
                    best = min(best, z == TZ - 1 ? offer(sK[TZ + 1][y + 1][x + 1], sV[TZ + 1][y + 1][x + 1], v)
                                                 : offer(now[z + 1], value[z + 1], v));
                }
                next[z] = best;
            }
#pragma unroll
            for (int z = TZ - 2; z >= 0; --z)
                if (free[z]) next[z] = min(next[z], offer(next[z + 1], value[z + 1], value[z]));
            bool changed = false;
#pragma unroll
            for (int z = 0; z < TZ; ++z) {
                changed = changed || next[z] != now[z];
                now[z] = next[z];
            }
            __syncthreads();
#pragma unroll
            for (int z = 0; z < TZ; ++z) sK[z + 1][y + 1][x + 1] = now[z];
            if (!__syncthreads_or(changed)) break;
        }
        std::uint32_t faces = 0;
#pragma unroll
        for (int z = 0; z < TZ; ++z) {
            if (now[z] == first[z]) continue;  // only free voxels inside the grid can fall
            keys[(std::size_t(z0 + z) * g.ny + gy) * g.nx + gx] = now[z];
            faces |= changedFaces<TX, TY, TZ>(x, y, z);
        }
        if (faces) atomicOr(&sFaces, faces);
        __syncthreads();
        spreadFromTile<TX, TY, TZ>(queue, figures, g, sFaces, tid, bx, by, bz);
        __syncthreads();  // shared memory is reused by the next tile
    }
}

/// Labels of `box` (x from a multiple of 4): a thread writes 4 voxels.
__global__ void labelKernel(GcGrid g, const std::uint64_t* keys, VoxelBox box, std::uint8_t* out) {
    const int y = box.lo[1] + int(blockIdx.y), z = box.lo[2] + int(blockIdx.z);
    const int x = box.lo[0] + 4 * int(blockIdx.x * blockDim.x + threadIdx.x);
    if (x > box.hi[0]) return;
    const std::size_t idx = (std::size_t(z) * g.ny + y) * g.nx + x;
    for (int q = 0; q < 4 && x + q < g.nx; ++q) out[idx + q] = growCutLabel(keys[idx + q]);
}

/// Voxels per label (256 counters; label 0: unreached), privatised in shared memory.
__global__ void countKernel(const std::uint64_t* keys, std::size_t n, unsigned long long* counts) {
    __shared__ unsigned int local[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
    __syncthreads();
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        atomicAdd(&local[growCutLabel(keys[i])], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        if (local[i]) atomicAdd(&counts[i], (unsigned long long)local[i]);
}

}  // namespace

void GrowCutCuda::start(const SegmentationRequest& request) {
    validateRequest(Method::GrowCut, request);
    if (request.volume->pixelType() != PixelType::Int16)
        throw GpuError("the CUDA grow-from-seeds engine works on int16 volumes (float volumes run on the CPU engine)");
    checkGridLimits(request.volume->geometry());
    const bool fresh = !m_context || &m_context->volume() != request.volume;
    m_context = contextFor(m_context, request);
    m_msUpload = fresh ? m_context->uploadMs() : 0;
    m_request = request;
    const Geometry& geo = grid();
    const std::size_t n = geo.voxelCount();
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    m_keys.reserve(n * sizeof(std::uint64_t), "the grow-from-seeds keys");
    m_seeds.reserve(n, "the seeds");
    m_plantFigures.reserve(kPlantSlots * sizeof(std::uint32_t), "the seed planting figures");
    const std::uint32_t tiles = std::uint32_t((geo.dims[0] + TX - 1) / TX) * ((geo.dims[1] + TY - 1) / TY) * ((geo.dims[2] + TZ - 1) / TZ);
    m_queue.allocate(tiles, "the grow-from-seeds tile queue");
    if (request.mask) {
        m_userMask.reserve(n, "the mask");
        cudaCheck(cudaMemcpyAsync(m_userMask.get(), request.mask->data(), n, cudaMemcpyHostToDevice, stream), "mask upload");
    }
    int device = 0, sms = 0, perSm = 0;
    cudaCheck(cudaGetDevice(&device), "device");
    cudaCheck(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "device attributes");
    cudaCheck(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, relaxRound, TX * TY, 0), "occupancy");
    m_blocks = std::max(1, perSm) * sms;
    m_timer.reset();
    m_timer.begin(stream);
    cudaCheck(cudaMemsetAsync(m_keys.get(), 0xFF, n * sizeof(std::uint64_t), stream), "keys");
    cudaCheck(cudaMemsetAsync(m_seeds.get(), 0, n, stream), "seeds");
    m_queue.reset(stream);
    m_timer.end(stream);
    m_seeded = {};
    m_planted = VoxelBox::none();
    m_tally.rounds = 0;
    m_tally.visits = 0;
    m_cancelled = false;
    plantSeeds(*request.growCut.seeds, wholeBox(geo), false);  // nothing planted before: no conflict
    if (m_planted.empty()) throw std::invalid_argument("every seed lies outside the ROI/mask");
    m_tally.finished = false;
}

bool GrowCutCuda::plantSeeds(const LabelMap& seeds, const VoxelBox& within, bool compare) {
    const stages::Scope stage("grow from seeds: the new seeds planted");
    const VoxelBox box = intersect(within, wholeBox(grid()));
    if (box.empty()) return true;
    const std::vector<std::uint64_t> list = gatherSeedVoxels(seeds, box, m_request.threads);
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    std::array<std::uint32_t, kPlantSlots> figures{};
    for (int d = 0; d < 3; ++d) figures[std::size_t(kLo + d)] = ~0u;
    cudaCheck(cudaMemcpyAsync(m_plantFigures.get(), figures.data(), sizeof figures, cudaMemcpyHostToDevice, stream), "seed figures");
    const GcGrid g = gridOf(m_request, m_userMask.as<std::uint8_t>());
    m_timer.begin(stream);
    if (compare) {
        const dim3 blocks(unsigned((box.hi[0] - box.lo[0] + 128) / 128), unsigned(box.hi[1] - box.lo[1] + 1), unsigned(box.hi[2] - box.lo[2] + 1));
        countHeldSeeds<<<blocks, 128, 0, stream>>>(g, box, m_seeds.as<std::uint8_t>(), m_plantFigures.as<std::uint32_t>());
        launchCheck("grow-from-seeds seeds held");
    }
    if (!list.empty()) {
        m_list.reserve(list.size() * sizeof(std::uint64_t), "the seed voxels");
        cudaCheck(cudaMemcpyAsync(m_list.get(), list.data(), list.size() * sizeof(std::uint64_t), cudaMemcpyHostToDevice, stream),
                  "seed voxels upload");
        plantKernel<<<unsigned((list.size() + 255) / 256), 256, 0, stream>>>(g, m_list.as<std::uint64_t>(), list.size(),
                                                                            m_seeds.as<std::uint8_t>(), m_keys.as<std::uint64_t>(),
                                                                            m_queue.view(), m_plantFigures.as<std::uint32_t>());
        launchCheck("grow-from-seeds seeds");
    }
    m_timer.end(stream);
    m_context->download(figures.data(), m_plantFigures.get(), sizeof figures);
    for (const std::uint64_t v : list) m_seeded[seedVoxelLabel(v)] = true;
    if (figures[kPlanted] > 0)
        m_planted = *merge(m_planted.empty() ? std::nullopt : std::optional(m_planted),
                           VoxelBox{{int(figures[kLo]), int(figures[kLo + 1]), int(figures[kLo + 2])},
                                    {int(figures[kHi]), int(figures[kHi + 1]), int(figures[kHi + 2])}});
    return figures[kConflict] == 0 && figures[kRelabelled] == 0 && (!compare || figures[kKept] == figures[kHeldInBox]);
}

StepReport GrowCutCuda::step(int maxIterations) {
    StepReport report;
    if (!m_tally.finished) {
        const stages::Scope stage("grow from seeds: a step (rounds on the device)");
        auto stream = static_cast<cudaStream_t>(m_context->stream());
        const int blocks = m_blocks;  // as many as fit at once: each loops over the active tiles
        const GcGrid g = gridOf(m_request, m_userMask.as<std::uint8_t>());
        const auto* voxels = static_cast<const std::int16_t*>(m_context->deviceVolume().devicePointer());
        m_timer.begin(stream);
        const RoundsDone done = runRounds(m_queue, m_figures, stream, maxIterations, [&](const TileQueueView& view) {
            relaxRound<<<blocks, dim3(TX, TY), 0, stream>>>(g, voxels, m_seeds.as<std::uint8_t>(), m_keys.as<std::uint64_t>(), view,
                                                           m_figures.device());
        });
        m_timer.end(stream);
        m_tally.add(done, report);
        report.changed = merge(done.changed, m_planted);
        m_planted = VoxelBox::none();
    }
    m_tally.fill(report, 16);
    return report;
}

void GrowCutCuda::writeLabels(const LabelSink& sink, const VoxelBox* box) const {
    const Geometry& geo = grid();
    if (sink.voxels != geo.voxelCount()) throw std::invalid_argument("label sink is not on the volume's grid");
    const VoxelBox b = box ? *box : wholeBox(geo);
    if (b.empty()) return;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    std::uint8_t* out = sink.onDevice ? sink.data : static_cast<std::uint8_t*>(m_context->scratch(GpuContext::kEngineScratchSlot, geo.voxelCount()));
    m_timer.begin(stream);
    labelKernel<<<labelGrid(b), 128, 0, stream>>>(gridOf(m_request, nullptr), m_keys.as<std::uint64_t>(), alignedBox(b), out);
    launchCheck("grow-from-seeds labels");
    m_timer.end(stream);
    if (!sink.onDevice) copyLabelsToHost(*m_context, out, sink, b);
}

std::vector<std::uint64_t> GrowCutCuda::keys() const {
    std::vector<std::uint64_t> out(grid().voxelCount());
    m_context->download(out.data(), m_keys.get(), out.size() * sizeof(std::uint64_t));
    return out;
}

MethodFigures GrowCutCuda::figures() const {
    MethodFigures f;
    f.msDevice = m_timer.totalMs();
    if (m_msUpload > 0) f.msUpload = m_msUpload;
    f.rounds = m_tally.rounds;
    f.tileVisits = m_tally.visits;
    if (!m_context) return f;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    DeviceBuffer& counts = m_counts;
    counts.reserve(256 * sizeof(unsigned long long), "the label counts");
    cudaCheck(cudaMemsetAsync(counts.get(), 0, 256 * sizeof(unsigned long long), stream), "label counts");
    const std::size_t n = grid().voxelCount();
    countKernel<<<unsigned(std::min<std::size_t>((n + 255) / 256, 4096)), 256, 0, stream>>>(m_keys.as<std::uint64_t>(), n,
                                                                                          counts.as<unsigned long long>());
    launchCheck("grow-from-seeds label counts");
    std::array<unsigned long long, 256> host{};
    m_context->download(host.data(), counts.get(), sizeof host);
    for (int label = 1; label < 256; ++label)
        if (m_seeded[label] || host[label] > 0) f.labelVoxels.push_back({label, std::size_t(host[label])});
    return f;
}

UpdateOutcome GrowCutCuda::update(const SegmentationRequest& request) {
    const LabelMap* seeds = request.growCut.seeds;
    const bool goesOn = m_context && m_tally.finished && !m_cancelled && request.volume && request.volume->pixelType() == PixelType::Int16 &&
                        seeds && sameScope(m_request, request) && seeds->geometry().dims == grid().dims;
    if (!goesOn) {
        start(request);
        return UpdateOutcome::Restarted;
    }
    // Same volume, ROI and mask, and the seeds the run holds are checked below to be kept (so there is
    // one): only the parameters are left to check, not the whole seed map.
    validateParameters(Method::GrowCut, request);
    m_request = request;
    const VoxelBox box = request.growCut.changedBox ? *request.growCut.changedBox : wholeBox(grid());
    if (!plantSeeds(*seeds, box, true)) {  // only the box's seed voxels are uploaded
        start(request);
        return UpdateOutcome::Restarted;
    }
    m_tally.finished = m_planted.empty();
    return UpdateOutcome::Continued;
}

}  // namespace lucent::gpu
