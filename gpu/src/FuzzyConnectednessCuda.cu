/// @brief Fuzzy connectedness kernels: affinity tables, seeds, rounds of tile relaxation, labels.
#include "CudaCheck.h"
#include "FuzzyConnectednessCuda.h"
#include "TileQueue.cuh"
#include "lucent/core/seg/Eligibility.h"
#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/gpu/DeviceVolume.h"
#include "lucent/gpu/Resident.h"

#include <algorithm>
#include <stdexcept>

namespace lucent::gpu {

namespace {

// A tile is 32 x 8 x 8 voxels: rows of 32 along x keep the loads coalesced; a block of 32 x 8
// threads holds it, each thread a column of 8 voxels along z.
constexpr int TX = 32, TY = 8, TZ = 8;

struct FcGrid {
    int nx, ny, nz;
    int tx, ty, tz;  // tiles along each axis
    VoxelBox roi;    // whole grid without an ROI
    const std::uint8_t* mask;  // device copy of the request's mask, or null
};

/// g1 over every sum of two values and g2 over every difference, for int16 volumes, from the
/// same host/device functions the CPU engine's tables come from.
__global__ void affinityTables(AffinityParams p, int minValue, int span, float* g1, float* g2) {
    for (int s = blockIdx.x * blockDim.x + threadIdx.x; s <= 2 * span; s += gridDim.x * blockDim.x) {
        g1[s] = affinityG1(double(s + 2 * minValue), p);
        if (s <= span) g2[s] = affinityG2(double(s), p);
    }
}

__global__ void seedKernel(const int3* seeds, int count, FcGrid g, std::uint16_t* connectivity, TileQueueView queue) {
    for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < count; s += gridDim.x * blockDim.x) {
        const int i = seeds[s].x, j = seeds[s].y, k = seeds[s].z;
        connectivity[(std::size_t(k) * g.ny + j) * g.nx + i] = kFullStrength;
        queue.activateAround(i / TX, j / TY, k / TZ, g.tx, g.ty, g.tz);
    }
}

template <typename T> struct Affinity;
template <> struct Affinity<std::int16_t> {
    const float* g1;
    const float* g2;
    int minValue;
    __device__ std::uint16_t operator()(int a, int b) const {
        return combineAffinity(g1[a + b - 2 * minValue], g2[a > b ? a - b : b - a]);
    }
};
template <> struct Affinity<float> {
    AffinityParams p;
    __device__ std::uint16_t operator()(float a, float b) const {
        const double da = a, db = b;
        return combineAffinity(affinityG1(da + db, p), affinityG2(da - db, p));
    }
};

/// One round: each block takes active tiles, loads voxels and connectivity with a one-voxel halo,
/// computes the tile's face affinities once, relaxes conn = max(conn, min(conn_nb, affinity))
/// until nothing rises (Gauss-Seidel along each thread's z column, Jacobi across threads with
/// barriers between reads and writes; a version converging rows by warp shuffles between
/// barriers was slower: BENCHMARKS.md, issue 7), writes back and queues the face neighbours whose shared
/// face rose. Neighbouring tiles' values only rise, so a halo read while they are written is
/// merely stale, and the writer queues us again.
template <typename T>
__global__ void __launch_bounds__(TX * TY) relaxRound(FcGrid g, const T* volume, Affinity<T> affinity,
                                                      std::uint16_t* connectivity, TileQueueView queue,
                                                      std::uint32_t* figures) {
    __shared__ std::uint16_t sC[TZ + 2][TY + 2][TX + 2];
    __shared__ T sV[TZ + 2][TY + 2][TX + 2];
    __shared__ std::uint8_t sE[TZ + 2][TY + 2][TX + 2];  // inside the grid and eligible
    __shared__ std::uint16_t ax[TZ][TY][TX + 1], ay[TZ][TY + 1][TX], az[TZ + 1][TY][TX];
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
            std::uint16_t conn = 0;
            T value = T(0);
            std::uint8_t eligible = 0;
            if (gx >= 0 && gy >= 0 && gz >= 0 && gx < g.nx && gy < g.ny && gz < g.nz) {
                const std::size_t idx = (std::size_t(gz) * g.ny + gy) * g.nx + gx;
                conn = connectivity[idx];
                value = volume[idx];
                eligible = g.roi.contains(gx, gy, gz) && (!g.mask || g.mask[idx] != 0);
            }
            sC[cz][cy][cx] = conn;
            sV[cz][cy][cx] = value;
            sE[cz][cy][cx] = eligible;
        }
        if (tid == 0) sFaces = 0;
        __syncthreads();
        // Edge affinities: ax[z][y][i] joins halo cells i and i + 1 along x (and so on); 0 when
        // either end is outside the grid, the ROI or the mask.
        auto edge = [&](int z1, int y1, int x1, int z2, int y2, int x2) -> std::uint16_t {
            if (!sE[z1][y1][x1] || !sE[z2][y2][x2]) return 0;
            return affinity(sV[z1][y1][x1], sV[z2][y2][x2]);
        };
        for (int z = 0; z < TZ; ++z) {
            ax[z][y][x] = edge(z + 1, y + 1, x, z + 1, y + 1, x + 1);
            if (x == TX - 1) ax[z][y][TX] = edge(z + 1, y + 1, TX, z + 1, y + 1, TX + 1);
            ay[z][y][x] = edge(z + 1, y, x + 1, z + 1, y + 1, x + 1);
            if (y == TY - 1) ay[z][TY][x] = edge(z + 1, TY, x + 1, z + 1, TY + 1, x + 1);
            az[z][y][x] = edge(z, y + 1, x + 1, z + 1, y + 1, x + 1);
        }
        az[TZ][y][x] = edge(TZ, y + 1, x + 1, TZ + 1, y + 1, x + 1);
        __syncthreads();
        std::uint16_t first[TZ], now[TZ];
#pragma unroll
        for (int z = 0; z < TZ; ++z) first[z] = now[z] = sC[z + 1][y + 1][x + 1];
        for (;;) {
            std::uint16_t next[TZ];
#pragma unroll
            for (int z = 0; z < TZ; ++z) {
                std::uint16_t best = now[z];
                best = max(best, min(sC[z + 1][y + 1][x], ax[z][y][x]));
                best = max(best, min(sC[z + 1][y + 1][x + 2], ax[z][y][x + 1]));
                best = max(best, min(sC[z + 1][y][x + 1], ay[z][y][x]));
                best = max(best, min(sC[z + 1][y + 2][x + 1], ay[z][y + 1][x]));
                best = max(best, min(z == 0 ? sC[0][y + 1][x + 1] : next[z - 1], az[z][y][x]));
                best = max(best, min(z == TZ - 1 ? sC[TZ + 1][y + 1][x + 1] : now[z + 1], az[z + 1][y][x]));
                next[z] = best;
            }
#pragma unroll
            for (int z = TZ - 2; z >= 0; --z) next[z] = max(next[z], min(next[z + 1], az[z + 1][y][x]));
            bool changed = false;
#pragma unroll
            for (int z = 0; z < TZ; ++z) {
                changed = changed || next[z] != now[z];
                now[z] = next[z];
            }
            __syncthreads();
#pragma unroll
            for (int z = 0; z < TZ; ++z) sC[z + 1][y + 1][x + 1] = now[z];
            if (!__syncthreads_or(changed)) break;
        }
        std::uint32_t faces = 0;
#pragma unroll
        for (int z = 0; z < TZ; ++z) {
            if (now[z] == first[z]) continue;  // only voxels inside the grid can rise
            connectivity[(std::size_t(z0 + z) * g.ny + (y0 + y)) * g.nx + (x0 + x)] = now[z];
            faces |= changedFaces<TX, TY, TZ>(x, y, z);
        }
        if (faces) atomicOr(&sFaces, faces);
        __syncthreads();
        spreadFromTile<TX, TY, TZ>(queue, figures, g, sFaces, tid, bx, by, bz);
        __syncthreads();  // shared memory is reused by the next tile
    }
}

/// Labels of `box` (its x range starting at a multiple of 4): a thread writes 4 voxels, as one
/// 32-bit store where the address allows.
__global__ void labelKernel(FcGrid g, const std::uint16_t* connectivity, std::uint16_t threshold, VoxelBox box,
                            std::uint8_t* out) {
    const int y = box.lo[1] + int(blockIdx.y), z = box.lo[2] + int(blockIdx.z);
    const int x = box.lo[0] + 4 * int(blockIdx.x * blockDim.x + threadIdx.x);
    if (x > box.hi[0]) return;
    const std::size_t idx = (std::size_t(z) * g.ny + y) * g.nx + x;
    const std::uint16_t* c = connectivity + idx;
    std::uint8_t* o = out + idx;
    if (x + 3 < g.nx && (reinterpret_cast<std::uintptr_t>(o) & 3u) == 0) {
        *reinterpret_cast<std::uint32_t*>(o) = std::uint32_t(c[0] >= threshold) | (std::uint32_t(c[1] >= threshold) << 8) |
                                                (std::uint32_t(c[2] >= threshold) << 16) | (std::uint32_t(c[3] >= threshold) << 24);
        return;
    }
    for (int q = 0; q < 4 && x + q < g.nx; ++q) o[q] = c[q] >= threshold ? 1 : 0;
}

int gridFor(std::size_t threads, int block) { return int(std::min<std::size_t>((threads + block - 1) / block, 1u << 30)); }

/// FuzzyConnectednessCpu::estimate of a resident volume (Resident.h: no host voxels): the cubes
/// around the seeds read off the device, one window a seed, not the volume.
AffinityParams estimateOnDevice(const DeviceVolume& device, const std::vector<VoxelIndex>& seeds, int radius,
                                std::pair<double, double> range) {
    const Geometry& g = device.geometry();
    std::vector<std::pair<VoxelBox, Volume>> cubes;
    for (const auto& s : seeds) {
        const VoxelBox box{{std::max(0, s.i - radius), std::max(0, s.j - radius), std::max(0, s.k - radius)},
                           {std::min(g.dims[0] - 1, s.i + radius), std::min(g.dims[1] - 1, s.j + radius),
                            std::min(g.dims[2] - 1, s.k + radius)}};
        cubes.emplace_back(box, device.window(box));
    }
    std::size_t last = 0;  // the estimate reads seed by seed: the last cube read is nearly always the one
    const auto value = [&](int i, int j, int k) {
        for (std::size_t n = 0; n < cubes.size(); ++n) {
            const std::size_t c = (last + n) % cubes.size();
            const auto& [box, window] = cubes[c];
            if (!box.contains(i, j, k)) continue;
            last = c;
            return window.value(i - box.lo[0], j - box.lo[1], k - box.lo[2]);
        }
        throw std::logic_error("fuzzy connectedness: the estimate read outside the seeds' cubes");
    };
    return FuzzyConnectednessCpu::estimate(g, value, seeds, radius, range);
}

}  // namespace

void FuzzyConnectednessCuda::start(const SegmentationRequest& request) {
    validateRequest(Method::FuzzyConnectedness, request);
    checkGridLimits(request.volume->geometry());
    const bool fresh = !m_context || &m_context->volume() != request.volume;
    m_context = contextFor(m_context, request);
    m_msUpload = fresh ? m_context->uploadMs() : 0;
    m_request = request;
    const Volume& v = *request.volume;
    const Geometry& geo = v.geometry();
    const auto& fc = request.fuzzyConnectedness;
    const auto range = m_context->range();
    m_params = hasHostVoxels(v) ? FuzzyConnectednessCpu::estimate(v, request.seeds, fc.estimateRadius, range)
                                : estimateOnDevice(m_context->deviceVolume(), request.seeds, fc.estimateRadius, range);
    if (fc.objectMean) m_params.mean = *fc.objectMean;
    if (fc.objectSigma) m_params.objectSigma = *fc.objectSigma;
    if (fc.diffSigma) m_params.diffSigma = *fc.diffSigma;

    const Eligibility eligible(request);
    std::vector<int3> seeds;
    for (const auto& s : request.seeds)
        if (eligible(s.i, s.j, s.k, geo.index(s.i, s.j, s.k))) seeds.push_back(make_int3(s.i, s.j, s.k));
    if (seeds.empty()) throw std::invalid_argument("every seed lies outside the ROI/mask");

    auto stream = static_cast<cudaStream_t>(m_context->stream());
    const std::size_t n = geo.voxelCount();
    m_connectivity.reserve(n * sizeof(std::uint16_t), "the fuzzy connectivity map");
    const std::uint32_t tiles = std::uint32_t((geo.dims[0] + TX - 1) / TX) * ((geo.dims[1] + TY - 1) / TY) * ((geo.dims[2] + TZ - 1) / TZ);
    m_queue.allocate(tiles, "the fuzzy connectedness tile queue");
    m_seeds.reserve(seeds.size() * sizeof(int3), "the seeds");
    if (request.mask) {
        m_userMask.reserve(n, "the mask");
        cudaCheck(cudaMemcpyAsync(m_userMask.get(), request.mask->data(), n, cudaMemcpyHostToDevice, stream), "mask upload");
    }
    cudaCheck(cudaMemcpyAsync(m_seeds.get(), seeds.data(), seeds.size() * sizeof(int3), cudaMemcpyHostToDevice, stream), "seeds");
    m_timer.reset();
    m_timer.begin(stream);
    if (v.pixelType() == PixelType::Int16) {
        m_minValue = int(range.first);
        m_span = int(range.second - range.first);
        m_g1.reserve((2 * std::size_t(m_span) + 1) * sizeof(float), "the affinity tables");
        m_g2.reserve((std::size_t(m_span) + 1) * sizeof(float), "the affinity tables");
        affinityTables<<<gridFor(2 * std::size_t(m_span) + 1, 256), 256, 0, stream>>>(m_params, m_minValue, m_span,
                                                                                       m_g1.as<float>(), m_g2.as<float>());
        launchCheck("affinity tables");
    }
    cudaCheck(cudaMemsetAsync(m_connectivity.get(), 0, n * sizeof(std::uint16_t), stream), "connectivity map");
    m_queue.reset(stream);
    const FcGrid g{geo.dims[0], geo.dims[1], geo.dims[2], (geo.dims[0] + TX - 1) / TX, (geo.dims[1] + TY - 1) / TY,
                   (geo.dims[2] + TZ - 1) / TZ, wholeBox(geo), nullptr};
    seedKernel<<<gridFor(seeds.size(), 128), 128, 0, stream>>>(m_seeds.as<int3>(), int(seeds.size()), g,
                                                              m_connectivity.as<std::uint16_t>(), m_queue.view());
    launchCheck("fuzzy connectedness seeds");
    m_timer.end(stream);
    m_tally.restart();
}

StepReport FuzzyConnectednessCuda::step(int maxIterations) {
    StepReport report;
    if (!m_tally.finished) {
        auto stream = static_cast<cudaStream_t>(m_context->stream());
        int device = 0, sms = 0, perSm = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        // As many blocks as fit at once: each loops over the active tiles.
        if (m_request.volume->pixelType() == PixelType::Int16)
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, relaxRound<std::int16_t>, TX * TY, 0);
        else
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, relaxRound<float>, TX * TY, 0);
        const int blocks = std::max(1, perSm) * sms;
        const Geometry& geo = m_request.volume->geometry();
        const FcGrid g{geo.dims[0], geo.dims[1], geo.dims[2], (geo.dims[0] + TX - 1) / TX, (geo.dims[1] + TY - 1) / TY,
                       (geo.dims[2] + TZ - 1) / TZ, m_request.roi ? *m_request.roi : wholeBox(geo),
                       m_request.mask ? m_userMask.as<std::uint8_t>() : nullptr};
        const void* voxels = m_context->deviceVolume().devicePointer();
        const bool int16 = m_request.volume->pixelType() == PixelType::Int16;
        m_timer.begin(stream);
        const RoundsDone done = runRounds(m_queue, m_figures, stream, maxIterations, [&](const TileQueueView& view) {
            if (int16)
                relaxRound<std::int16_t><<<blocks, dim3(TX, TY), 0, stream>>>(
                    g, static_cast<const std::int16_t*>(voxels), Affinity<std::int16_t>{m_g1.as<float>(), m_g2.as<float>(), m_minValue},
                    m_connectivity.as<std::uint16_t>(), view, m_figures.device());
            else
                relaxRound<float><<<blocks, dim3(TX, TY), 0, stream>>>(g, static_cast<const float*>(voxels), Affinity<float>{m_params},
                                                                      m_connectivity.as<std::uint16_t>(), view, m_figures.device());
        });
        m_timer.end(stream);
        m_tally.add(done, report);
    }
    m_tally.fill(report, 16);
    return report;
}

void FuzzyConnectednessCuda::writeLabels(const LabelSink& sink, const VoxelBox* box) const {
    const Geometry& geo = m_request.volume->geometry();
    if (sink.voxels != geo.voxelCount()) throw std::invalid_argument("label sink is not on the volume's grid");
    const VoxelBox b = box ? *box : wholeBox(geo);
    if (b.empty()) return;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    std::uint8_t* out = sink.onDevice ? sink.data : static_cast<std::uint8_t*>(m_context->scratch(GpuContext::kEngineScratchSlot, geo.voxelCount()));
    const std::uint16_t t = thresholdStrength(m_request.fuzzyConnectedness.threshold);
    const FcGrid g{geo.dims[0], geo.dims[1], geo.dims[2], 0, 0, 0, wholeBox(geo), nullptr};
    m_timer.begin(stream);
    labelKernel<<<labelGrid(b), 128, 0, stream>>>(g, m_connectivity.as<std::uint16_t>(), t, alignedBox(b), out);
    launchCheck("fuzzy connectedness labels");
    m_timer.end(stream);
    if (!sink.onDevice) copyLabelsToHost(*m_context, out, sink, b);
}

namespace {

/// The connectivity map's 8-bit heat: the host's float map value (strength / 65535) times 255,
/// rounded as std::lround does, so interop and host uploads draw the same texels.
__global__ void heatKernel(const std::uint16_t* map, std::size_t n, std::uint8_t* out) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        out[i] = static_cast<std::uint8_t>(lround(double(float(map[i]) / 65535.0f) * 255.0));
}

}  // namespace

bool FuzzyConnectednessCuda::writeSoftMap(int index, const LabelSink& sink) const {
    const Geometry& geo = m_request.volume->geometry();
    if (index != 0 || !sink.onDevice || sink.voxels != geo.voxelCount() || !m_context) return false;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    const std::size_t n = geo.voxelCount();
    const unsigned blocks = unsigned(std::min<std::size_t>((n + 255) / 256, 132 * 16));
    heatKernel<<<blocks, 256, 0, stream>>>(m_connectivity.as<std::uint16_t>(), n, sink.data);
    launchCheck("connectivity heat map");
    cudaCheck(cudaStreamSynchronize(stream), "connectivity heat map");
    return true;
}

std::vector<Volume> FuzzyConnectednessCuda::softMaps() const {
    const Geometry& geo = m_request.volume->geometry();
    std::vector<std::uint16_t> map(geo.voxelCount());
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    cudaCheck(cudaMemcpyAsync(map.data(), m_connectivity.get(), map.size() * sizeof(std::uint16_t), cudaMemcpyDeviceToHost, stream),
              "connectivity map download");
    cudaCheck(cudaStreamSynchronize(stream), "connectivity map download");
    Volume out(geo, PixelType::Float32);
    for (std::size_t i = 0; i < map.size(); ++i) out.float32Data()[i] = map[i] / 65535.0f;
    return {std::move(out)};
}

MethodFigures FuzzyConnectednessCuda::figures() const {
    MethodFigures f;
    f.affinity = m_params;
    f.threshold = m_request.fuzzyConnectedness.threshold;
    f.msDevice = m_timer.totalMs();
    if (m_msUpload > 0) f.msUpload = m_msUpload;
    f.rounds = m_tally.rounds;
    f.tileVisits = m_tally.visits;
    return f;
}

UpdateOutcome FuzzyConnectednessCuda::update(const SegmentationRequest& request) {
    if (!m_context || !keepsConnectivityMap(m_request, request)) {
        start(request);
        return UpdateOutcome::Restarted;
    }
    validateRequest(Method::FuzzyConnectedness, request);
    m_request.fuzzyConnectedness.threshold = request.fuzzyConnectedness.threshold;
    return UpdateOutcome::Relabelled;
}

}  // namespace lucent::gpu
