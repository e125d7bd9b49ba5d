/// @brief FCM kernels: privatised histogram, the iterations in one persistent block, label table
/// and labelling pass.
#include "CudaCheck.h"
#include "FcmDevice.cuh"
#include "FcmMembershipMaps.h"
#include "FcmPerVoxel.h"
#include "FuzzyCMeansCuda.h"
#include "lucent/core/seg/FcmMath.h"
#include "lucent/gpu/DeviceVolume.h"
#include "lucent/gpu/Resident.h"

#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace lucent::gpu {

constexpr int kIterateThreads = 1024;
constexpr int kSharedBins = 16384;  // histograms up to this many bins are privatised in shared memory

namespace {

using Scope = FcmScope;

/// Each block counts `rowsPerBlock` rows (linear row index z * ny + y) into a shared histogram
/// when it fits, then adds its non-zero bins to the global one.
__global__ void histogramKernel(const std::int16_t* volume, Scope s, int minValue, int bins, int rowsPerBlock,
                                std::uint32_t* histogram) {
    extern __shared__ std::uint32_t local[];
    const bool shared = bins <= kSharedBins;
    if (shared)
        for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    std::uint32_t* target = shared ? local : histogram;
    const int rows = s.ny * s.nz;
    const int first = blockIdx.x * rowsPerBlock, last = min(rows, first + rowsPerBlock);
    for (int row = first; row < last; ++row) {
        const int y = row % s.ny, z = row / s.ny;
        const std::size_t base = std::size_t(row) * s.nx;
        for (int x = threadIdx.x; x < s.nx; x += blockDim.x)
            if (s.included(x, y, z, base + x)) atomicAdd(&target[volume[base + x] - minValue], 1u);
    }
    __syncthreads();
    if (shared)
        for (int b = threadIdx.x; b < bins; b += blockDim.x)
            if (local[b]) atomicAdd(&histogram[b], local[b]);
}

/// The plain case (no ROI, no mask): the volume as one array, 16-byte loads of 8 voxels, two in
/// flight per thread, counted into a shared histogram.
__global__ void histogramFlatKernel(const std::int16_t* volume, std::size_t n, int minValue, int bins, std::uint32_t* histogram) {
    extern __shared__ std::uint32_t local[];
    const bool shared = bins <= kSharedBins;
    if (shared)
        for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    std::uint32_t* target = shared ? local : histogram;
    auto add8 = [&](uint4 q) {
        const unsigned words[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
        for (int w = 0; w < 4; ++w) {
            atomicAdd(&target[int(std::int16_t(words[w] & 0xffffu)) - minValue], 1u);
            atomicAdd(&target[int(std::int16_t(words[w] >> 16)) - minValue], 1u);
        }
    };
    const auto* v8 = reinterpret_cast<const uint4*>(volume);  // device allocations are 256-byte aligned
    const std::size_t chunks = n / 8, stride = std::size_t(gridDim.x) * blockDim.x;
    std::size_t c = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    for (; c + stride < chunks; c += 2 * stride) {
        const uint4 a = v8[c], b = v8[c + stride];
        add8(a);
        add8(b);
    }
    if (c < chunks) add8(v8[c]);
    if (blockIdx.x == 0)
        for (std::size_t i = chunks * 8 + threadIdx.x; i < n; i += blockDim.x) atomicAdd(&target[volume[i] - minValue], 1u);
    __syncthreads();
    if (shared)
        for (int b = threadIdx.x; b < bins; b += blockDim.x)
            if (local[b]) atomicAdd(&histogram[b], local[b]);
}

/// Labels of the whole volume in the plain case: 8 voxels a thread, one 16-byte load, one 8-byte store.
__global__ void labelFlatKernel(const std::int16_t* volume, std::size_t n, int minValue, const std::uint8_t* binLabel,
                                std::uint8_t* out) {
    const auto* v8 = reinterpret_cast<const uint4*>(volume);
    auto* o8 = reinterpret_cast<uint2*>(out);
    const std::size_t chunks = n / 8;
    for (std::size_t c = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; c < chunks; c += std::size_t(gridDim.x) * blockDim.x) {
        const uint4 q = v8[c];
        const unsigned words[4] = {q.x, q.y, q.z, q.w};
        unsigned packed[2] = {0, 0};
#pragma unroll
        for (int w = 0; w < 4; ++w) {
            const unsigned lo = binLabel[int(std::int16_t(words[w] & 0xffffu)) - minValue];
            const unsigned hi = binLabel[int(std::int16_t(words[w] >> 16)) - minValue];
            packed[w / 2] |= (lo | (hi << 8)) << (16 * (w % 2));
        }
        o8[c] = make_uint2(packed[0], packed[1]);
    }
    if (blockIdx.x == 0)
        for (std::size_t i = chunks * 8 + threadIdx.x; i < n; i += blockDim.x) out[i] = binLabel[volume[i] - minValue];
}

/// Block-wide sums (or maxima) of two values: shuffles within each warp, one shared slot per warp,
/// then warp 0; two barriers where a shared-memory tree takes one per level (the iterations run
/// in one block, so these barriers are most of their time).
template <bool Max>
__device__ double2 blockReduce2(double a, double b, double2* scratch /* 33 slots */) {
    auto op = [](double x, double y) { return Max ? fmax(x, y) : x + y; };
    for (int o = 16; o > 0; o >>= 1) {
        a = op(a, __shfl_down_sync(0xffffffffu, a, o));
        b = op(b, __shfl_down_sync(0xffffffffu, b, o));
    }
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (lane == 0) scratch[warp] = make_double2(a, b);
    __syncthreads();
    if (warp == 0) {
        double2 v = lane < int(blockDim.x >> 5) ? scratch[lane] : make_double2(0, 0);  // 0: sums, and maxima of changes >= 0
        for (int o = 16; o > 0; o >>= 1) {
            v.x = op(v.x, __shfl_down_sync(0xffffffffu, v.x, o));
            v.y = op(v.y, __shfl_down_sync(0xffffffffu, v.y, o));
        }
        if (lane == 0) scratch[32] = v;
    }
    __syncthreads();
    return scratch[32];  // the next call writes slot 32 only after its first barrier
}

constexpr int kStartThreads = 1024;

struct BinTotals {
    int distinct;
    unsigned long long voxels;
    __device__ BinTotals operator+(const BinTotals& o) const { return {distinct + o.distinct, voxels + o.voxels}; }
};

struct AddTotals {
    __device__ BinTotals operator()(const BinTotals& a, const BinTotals& b) const { return a + b; }
};

/// The histogram's non-empty bins as samples (value, count) in ascending order, and the first
/// centres as FuzzyCMeansCpu::startCentres picks them, in one block on the device: no host round
/// trip of the histogram. Each thread takes a run of bins; a block scan gives where its samples go
/// and the voxels before them, so every thread finds the quantiles that fall in its run. Counts
/// are integers, so the cumulative sums are exact, as the CPU's doubles are.
__global__ void __launch_bounds__(kStartThreads) startKernel(const std::uint32_t* histogram, int bins, int minValue, int c,
                                                             int maxIterations, double* values, double* weights,
                                                             FcmState* state) {
    using Scan = cub::BlockScan<BinTotals, kStartThreads>;
    __shared__ typename Scan::TempStorage temp;
    __shared__ double centres[kMaxClusters];
    const int per = (bins + kStartThreads - 1) / kStartThreads;
    const int b0 = min(bins, int(threadIdx.x) * per), b1 = min(bins, b0 + per);
    BinTotals mine{0, 0};
    for (int b = b0; b < b1; ++b)
        if (histogram[b]) mine = mine + BinTotals{1, histogram[b]};
    BinTotals before{0, 0}, all{0, 0};
    Scan(temp).ExclusiveScan(mine, before, BinTotals{0, 0}, AddTotals{}, all);
    const double count = double(all.voxels);
    // The first centre not taken before this run: thresholds (k + 1/2) / c of the voxels, as the CPU.
    int k = 0;
    while (k < c && double(before.voxels) >= (k + 0.5) / c * count) ++k;
    int at = before.distinct;
    unsigned long long cumulative = before.voxels;
    for (int b = b0; b < b1; ++b) {
        if (!histogram[b]) continue;
        const double value = double(b + minValue);
        values[at] = value;
        weights[at] = double(histogram[b]);
        ++at;
        cumulative += histogram[b];
        while (k < c && double(cumulative) >= (k + 0.5) / c * count) centres[k++] = value;
    }
    __syncthreads();  // the samples (global) and the centres (shared) are in
    if (threadIdx.x != 0) return;
    const int distinct = all.distinct;
    if (distinct >= c) {
        // A value holding many voxels can take several quantiles: repeats move up to the next
        // distinct value (upper_bound over the samples), as the CPU engine.
        for (int j = 1; j < c; ++j) {
            if (centres[j] > centres[j - 1]) continue;
            int lo = 0, hi = distinct;
            while (lo < hi) {
                const int mid = (lo + hi) / 2;
                if (values[mid] <= centres[j - 1]) lo = mid + 1;
                else hi = mid;
            }
            centres[j] = lo < distinct ? values[lo] : centres[j - 1] + 1.0;
        }
    }
    state->iterations = 0;
    state->finished = 0;
    state->current = 0;
    state->maxIterations = maxIterations;
    state->change = 0;
    state->primed = 0;
    state->samples = distinct;
    state->included = count;
    for (int j = 0; j < c; ++j) state->centres[j] = distinct >= c ? centres[j] : 0.0;
}

/// Memberships of every sample for the state's centres (iteration 0).
__global__ void initialMemberships(const double* values, int samples, int c, double m, const void* stateMemory,
                                   double* memberships) {
    const auto* state = static_cast<const FcmState*>(stateMemory);
    for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < samples; s += gridDim.x * blockDim.x)
        fcmMemberships(values[s], state->centres, c, m, memberships + std::size_t(s) * c);
}

/// Up to `budget` iterations in one block (Eq. 3 then Eq. 4, the largest change), stopping on the
/// device at epsilon or the iteration limit: no host round trip per iteration.
__global__ void __launch_bounds__(kIterateThreads) iterateKernel(const double* values, const double* weights, int samples,
                                                                 int c, double m, double epsilon, int budget,
                                                                 double* membershipsA, double* membershipsB,
                                                                 void* stateMemory) {
    auto* state = static_cast<FcmState*>(stateMemory);
    __shared__ double2 scratch[33];
    __shared__ double centres[kMaxClusters];
    __shared__ int stop;
    for (int k = threadIdx.x; k < c; k += blockDim.x) centres[k] = state->centres[k];
    if (threadIdx.x == 0) stop = state->finished;
    __syncthreads();
    for (int it = 0; it < budget && !stop; ++it) {
        double* old = state->current ? membershipsB : membershipsA;
        double* next = state->current ? membershipsA : membershipsB;
        for (int k = 0; k < c; ++k) {  // Eq. 3
            double num = 0, den = 0;
            for (int s = threadIdx.x; s < samples; s += blockDim.x) {
                const double w = weights[s] * fcmPow(old[std::size_t(s) * c + k], m);
                num += w * values[s];
                den += w;
            }
            const double2 total = blockReduce2<false>(num, den, scratch);
            if (threadIdx.x == 0 && total.y > 0) centres[k] = total.x / total.y;
        }
        __syncthreads();
        double change = 0;  // Eq. 4
        for (int s = threadIdx.x; s < samples; s += blockDim.x) {
            double* u = next + std::size_t(s) * c;
            fcmMemberships(values[s], centres, c, m, u);
            for (int k = 0; k < c; ++k) change = fmax(change, fabs(u[k] - old[std::size_t(s) * c + k]));
        }
        change = blockReduce2<true>(change, 0, scratch).x;
        if (threadIdx.x == 0) {
            state->current ^= 1;
            state->iterations += 1;
            state->change = change;
            if (change < epsilon || state->iterations >= state->maxIterations) state->finished = 1;
            stop = state->finished;
        }
        __syncthreads();
    }
    for (int k = threadIdx.x; k < c; k += blockDim.x) state->centres[k] = centres[k];
}

/// Label of each histogram bin: the rank (by centre, ties by index as std::stable_sort) of the
/// cluster of largest membership, ties to the lower rank, plus 1; as the CPU engine. With `binU`,
/// also the bin's memberships as floats in label order (what the CPU engine's soft maps hold).
__global__ void labelTableKernel(const double* values, int samples, int c, int minValue, const double* memberships,
                                 const void* stateMemory, std::uint8_t* binLabel, float* binU) {
    const auto* state = static_cast<const FcmState*>(stateMemory);
    __shared__ int rank[kMaxClusters];
    for (int k = threadIdx.x; k < c; k += blockDim.x) {
        int r = 0;
        for (int j = 0; j < c; ++j)
            r += state->centres[j] < state->centres[k] || (state->centres[j] == state->centres[k] && j < k);
        rank[k] = r;
    }
    __syncthreads();
    for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < samples; s += gridDim.x * blockDim.x) {
        const double* u = memberships + std::size_t(s) * c;
        int best = 0;
        for (int k = 1; k < c; ++k)
            if (u[k] > u[best] || (u[k] == u[best] && rank[k] < rank[best])) best = k;
        const int bin = int(values[s]) - minValue;
        binLabel[bin] = std::uint8_t(rank[best] + 1);
        if (binU)
            for (int k = 0; k < c; ++k) binU[std::size_t(bin) * c + rank[k]] = float(u[k]);
    }
}

/// Labels of `box` (x from a multiple of 4), 4 voxels a thread through the bin table.
__global__ void labelKernel(const std::int16_t* volume, Scope s, int minValue, const std::uint8_t* binLabel, VoxelBox box,
                            std::uint8_t* out) {
    const int y = box.lo[1] + int(blockIdx.y), z = box.lo[2] + int(blockIdx.z);
    const int x = box.lo[0] + 4 * int(blockIdx.x * blockDim.x + threadIdx.x);
    if (x > box.hi[0]) return;
    const std::size_t idx = (std::size_t(z) * s.ny + y) * s.nx + x;
    std::uint8_t l[4] = {0, 0, 0, 0};
    for (int q = 0; q < 4 && x + q < s.nx; ++q)
        if (s.included(x + q, y, z, idx + q)) l[q] = binLabel[volume[idx + q] - minValue];
    std::uint8_t* o = out + idx;
    if (x + 3 < s.nx && (reinterpret_cast<std::uintptr_t>(o) & 3u) == 0) {
        *reinterpret_cast<std::uint32_t*>(o) = l[0] | (l[1] << 8) | (l[2] << 16) | (std::uint32_t(l[3]) << 24);
        return;
    }
    for (int q = 0; q < 4 && x + q < s.nx; ++q) o[q] = l[q];
}

int gridFor(std::size_t threads, int block) { return int(std::min<std::size_t>((threads + block - 1) / block, 1u << 30)); }

}  // namespace

FuzzyCMeansCuda::~FuzzyCMeansCuda() {
    if (m_host) cudaFreeHost(m_host);
}

void FuzzyCMeansCuda::start(const SegmentationRequest& request) {
    validateRequest(Method::FuzzyCMeans, request);
    if (request.volume->pixelType() != PixelType::Int16)
        throw GpuError("the CUDA fuzzy C-means engine works on int16 volumes (float volumes run on the CPU engine)");
    if (request.fuzzyCMeans.perVoxel && request.fuzzyCMeans.clusters > kPerVoxelMaxClusters)
        throw GpuError("the CUDA per-voxel FCM path takes up to " + std::to_string(kPerVoxelMaxClusters) +
                       " clusters (the histogram path takes any number)");
    checkGridLimits(request.volume->geometry());
    const bool fresh = !m_context || &m_context->volume() != request.volume;
    m_context = contextFor(m_context, request);
    m_msUpload = fresh ? m_context->uploadMs() : 0;
    m_request = request;
    m_labelsReady = m_mapsReady = false;
    const Geometry& g = request.volume->geometry();
    const auto range = m_context->range();
    m_minValue = int(range.first);
    m_bins = int(range.second - range.first) + 1;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    if (!m_host) cudaCheck(cudaHostAlloc(reinterpret_cast<void**>(&m_host), sizeof(FcmState), cudaHostAllocDefault), "pinned memory");
    m_histogram.reserve(std::size_t(m_bins) * 4, "the FCM histogram");
    m_binLabel.reserve(std::size_t(m_bins), "the FCM label table");
    m_state.reserve(sizeof(FcmState), "the FCM state");
    if (request.mask) {
        m_userMask.reserve(request.mask->voxelCount(), "the mask");
        cudaCheck(cudaMemcpyAsync(m_userMask.get(), request.mask->data(), request.mask->voxelCount(), cudaMemcpyHostToDevice, stream),
                  "mask upload");
    }
    const Scope scope = this->scope();
    m_timer.reset();
    m_timer.begin(stream);
    cudaCheck(cudaMemsetAsync(m_histogram.get(), 0, std::size_t(m_bins) * 4, stream), "FCM histogram");
    const int sharedBytes = m_bins <= kSharedBins ? m_bins * 4 : 0;
    const auto* voxels = static_cast<const std::int16_t*>(m_context->deviceVolume().devicePointer());
    if (!request.roi && !request.mask) {
        int device = 0, sms = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaCheck(cudaFuncSetAttribute(histogramFlatKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBins * 4),
                  "FCM histogram");
        histogramFlatKernel<<<4 * sms, 512, sharedBytes, stream>>>(voxels, g.voxelCount(), m_minValue, m_bins,
                                                                   m_histogram.as<std::uint32_t>());
    } else {
        const int rows = g.dims[1] * g.dims[2], rowsPerBlock = std::max(1, (rows + 1023) / 1024);
        cudaCheck(cudaFuncSetAttribute(histogramKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBins * 4),
                  "FCM histogram");
        histogramKernel<<<(rows + rowsPerBlock - 1) / rowsPerBlock, 256, sharedBytes, stream>>>(
            voxels, scope, m_minValue, m_bins, rowsPerBlock, m_histogram.as<std::uint32_t>());
    }
    launchCheck("FCM histogram");
    // Samples and first centres on the device; only the state (a few kB, pinned) comes back.
    const int c = request.fuzzyCMeans.clusters;
    m_values.reserve(std::size_t(m_bins) * sizeof(double), "the FCM samples");
    m_weights.reserve(std::size_t(m_bins) * sizeof(double), "the FCM samples");
    startKernel<<<1, kStartThreads, 0, stream>>>(m_histogram.as<std::uint32_t>(), m_bins, m_minValue, c,
                                                 request.fuzzyCMeans.maxIterations, m_values.as<double>(),
                                                 m_weights.as<double>(), m_state.as<FcmState>());
    launchCheck("FCM start");
    cudaCheck(cudaMemcpyAsync(m_host, m_state.get(), sizeof(FcmState), cudaMemcpyDeviceToHost, stream), "FCM state");
    cudaCheck(cudaStreamSynchronize(stream), "FCM start");
    m_samples = std::size_t(m_host->samples);
    m_included = std::size_t(m_host->included);
    if (m_samples == 0) throw std::invalid_argument("no voxel lies inside the ROI/mask");
    if (m_samples < std::size_t(c))  // as FuzzyCMeansCpu::startCentres says it
        throw std::invalid_argument("only " + std::to_string(m_samples) + " distinct intensities for " +
                                    std::to_string(c) + " clusters");
    m_memberships.reserve(2 * m_samples * c * sizeof(double), "the FCM memberships");
    initialMemberships<<<gridFor(m_samples, 256), 256, 0, stream>>>(m_values.as<double>(), int(m_samples), c,
                                                                    request.fuzzyCMeans.fuzziness, m_state.get(),
                                                                    m_memberships.as<double>());
    launchCheck("FCM memberships");
    m_timer.end(stream);
}

StepReport FuzzyCMeansCuda::step(int maxIterations) {
    const auto& p = m_request.fuzzyCMeans;
    if (!m_host->finished) {
        auto stream = static_cast<cudaStream_t>(m_context->stream());
        const int c = p.clusters;
        double* a = m_memberships.as<double>();
        m_timer.begin(stream);
        if (p.perVoxel) {
            // Every voxel each iteration; then the distinct values' memberships for the centres
            // reached (buffer 0), which the label table and the soft maps read as on the other path.
            runPerVoxelIterations(static_cast<const std::int16_t*>(m_context->deviceVolume().devicePointer()), scope(), c,
                                  p.fuzziness, p.epsilon, std::max(1, maxIterations), m_state.as<FcmState>(), m_partials,
                                  stream);
            initialMemberships<<<gridFor(m_samples, 256), 256, 0, stream>>>(m_values.as<double>(), int(m_samples), c,
                                                                            p.fuzziness, m_state.get(), a);
            launchCheck("FCM memberships");
        } else {
            iterateKernel<<<1, kIterateThreads, 0, stream>>>(m_values.as<double>(), m_weights.as<double>(), int(m_samples),
                                                             c, p.fuzziness, p.epsilon, std::max(1, maxIterations), a,
                                                             a + m_samples * c, m_state.get());
            launchCheck("FCM iterations");
        }
        cudaCheck(cudaMemcpyAsync(m_host, m_state.get(), sizeof(FcmState), cudaMemcpyDeviceToHost, stream), "FCM state");
        m_timer.end(stream);
        m_labelsReady = m_mapsReady = false;
    }
    StepReport r;
    r.iterations = m_host->iterations;
    r.convergence = m_host->iterations ? m_host->change : 1.0;
    r.finished = m_host->finished != 0;
    r.progress = r.finished ? 1.0 : std::clamp(std::log(r.convergence) / std::log(p.epsilon), 0.0, 0.99);
    if (r.iterations) r.changed = wholeBox(m_request.volume->geometry());  // every voxel may change cluster
    return r;
}

bool FuzzyCMeansCuda::finished() const { return !m_host || m_host->finished != 0; }

void FuzzyCMeansCuda::cancel() {
    if (m_host) m_host->finished = 1;
    // The device state keeps its own flag; a cancelled engine is not stepped again.
}

FcmScope FuzzyCMeansCuda::scope() const {
    const Geometry& g = m_request.volume->geometry();
    return {g.dims[0], g.dims[1], g.dims[2], m_request.roi ? *m_request.roi : wholeBox(g),
            m_request.mask ? m_userMask.as<std::uint8_t>() : nullptr};
}

void FuzzyCMeansCuda::buildLabelTable(bool withMemberships) const {
    if (m_labelsReady && (!withMemberships || m_binUReady)) return;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    const int c = m_request.fuzzyCMeans.clusters;
    const double* latest = m_memberships.as<double>() + (m_host->current ? m_samples * c : 0);
    if (withMemberships) m_binU.reserve(std::size_t(m_bins) * c * sizeof(float), "the FCM membership table");
    labelTableKernel<<<gridFor(m_samples, 256), 256, 0, stream>>>(m_values.as<double>(), int(m_samples), c, m_minValue, latest,
                                                                  m_state.get(), m_binLabel.as<std::uint8_t>(),
                                                                  withMemberships ? m_binU.as<float>() : nullptr);
    launchCheck("FCM label table");
    m_labelsReady = true;
    m_binUReady = withMemberships;
}

void FuzzyCMeansCuda::buildMaps(std::uint8_t* labels) const {
    const Geometry& g = m_request.volume->geometry();
    const int c = m_request.fuzzyCMeans.clusters;
    m_maps.reserve(g.voxelCount() * c * sizeof(float), "the FCM membership maps");
    buildLabelTable(true);
    writeMembershipMaps(static_cast<const std::int16_t*>(m_context->deviceVolume().devicePointer()), scope(), m_minValue, c,
                        m_binLabel.as<std::uint8_t>(), m_binU.as<float>(), labels, m_maps.as<float>(), m_context->stream());
    m_mapsReady = true;
}

const float* FuzzyCMeansCuda::deviceSoftMaps() const {
    if (!m_host) return nullptr;
    if (!m_mapsReady) {
        auto stream = static_cast<cudaStream_t>(m_context->stream());
        m_timer.begin(stream);
        buildMaps(nullptr);
        m_timer.end(stream);
    }
    return m_maps.as<float>();
}

void FuzzyCMeansCuda::lookUp(const std::uint8_t* binTable, std::uint8_t* out, const VoxelBox& b) const {
    const Geometry& g = m_request.volume->geometry();
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    const Scope scope = this->scope();
    const auto* voxels = static_cast<const std::int16_t*>(m_context->deviceVolume().devicePointer());
    const bool whole = b.lo == wholeBox(g).lo && b.hi == wholeBox(g).hi;
    if (whole && !m_request.roi && !m_request.mask && (reinterpret_cast<std::uintptr_t>(out) & 7u) == 0)
        labelFlatKernel<<<gridFor(g.voxelCount() / 8 + 1, 256), 256, 0, stream>>>(voxels, g.voxelCount(), m_minValue, binTable,
                                                                                 out);
    else
        labelKernel<<<labelGrid(b), 128, 0, stream>>>(voxels, scope, m_minValue, binTable, alignedBox(b), out);
    launchCheck("FCM table lookup");
}

void FuzzyCMeansCuda::writeLabels(const LabelSink& sink, const VoxelBox* box) const {
    const Geometry& g = m_request.volume->geometry();
    if (sink.voxels != g.voxelCount()) throw std::invalid_argument("label sink is not on the volume's grid");
    const VoxelBox b = box ? *box : wholeBox(g);
    if (b.empty()) return;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    std::uint8_t* out = sink.onDevice ? sink.data : static_cast<std::uint8_t*>(m_context->scratch(GpuContext::kEngineScratchSlot, g.voxelCount()));
    m_timer.begin(stream);
    const bool whole = b.lo == wholeBox(g).lo && b.hi == wholeBox(g).hi;
    if (m_request.fuzzyCMeans.deviceMemberships && whole && !m_mapsReady) {
        buildMaps(out);  // labels and float memberships in one pass over the volume
    } else {
        buildLabelTable(false);
        lookUp(m_binLabel.as<std::uint8_t>(), out, b);
    }
    m_timer.end(stream);
    if (!sink.onDevice) copyLabelsToHost(*m_context, out, sink, b);
}

void FuzzyCMeansCuda::downloadMemberships(std::vector<double>& u, std::vector<double>& values) const {
    const int c = m_request.fuzzyCMeans.clusters;
    u.resize(m_samples * c);
    values.resize(m_samples);
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    const double* latest = m_memberships.as<double>() + (m_host->current ? m_samples * c : 0);
    cudaCheck(cudaMemcpyAsync(u.data(), latest, u.size() * sizeof(double), cudaMemcpyDeviceToHost, stream), "FCM memberships");
    cudaCheck(cudaMemcpyAsync(values.data(), m_values.get(), values.size() * sizeof(double), cudaMemcpyDeviceToHost, stream),
              "FCM memberships");
    cudaCheck(cudaStreamSynchronize(stream), "FCM memberships");
}

std::vector<int> FuzzyCMeansCuda::labelOrder() const {
    std::vector<int> order(m_request.fuzzyCMeans.clusters);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return m_host->centres[a] < m_host->centres[b]; });
    return order;
}

bool FuzzyCMeansCuda::writeSoftMap(int index, const LabelSink& sink) const {
    const int c = m_request.fuzzyCMeans.clusters;
    const Geometry& g = m_request.volume->geometry();
    if (!sink.onDevice || index < 0 || index >= c || sink.voxels != g.voxelCount() || !m_host) return false;
    // Memberships depend on the value only: one 8-bit heat per bin, then the labels' lookup pass.
    std::vector<double> u, values;
    downloadMemberships(u, values);
    const int r = labelOrder()[std::size_t(index)];
    std::vector<std::uint8_t> table(std::size_t(m_bins), 0);
    for (std::size_t s = 0; s < m_samples; ++s) {
        // As the host converts softMaps(): the float map value, clamped, times 255, rounded.
        const double v = double(float(u[s * c + r]));
        table[std::size_t(int(values[s]) - m_minValue)] = std::uint8_t(std::lround(std::clamp(v, 0.0, 1.0) * 255.0));
    }
    m_binHeat.reserve(table.size(), "FCM membership heat table");
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    cudaCheck(cudaMemcpyAsync(m_binHeat.get(), table.data(), table.size(), cudaMemcpyHostToDevice, stream), "FCM heat table");
    lookUp(m_binHeat.as<std::uint8_t>(), sink.data, wholeBox(g));
    cudaCheck(cudaStreamSynchronize(stream), "FCM membership map");  // the table is a host vector
    return true;
}

std::vector<double> FuzzyCMeansCuda::sortedCentres() const {
    std::vector<double> c(m_host->centres, m_host->centres + m_request.fuzzyCMeans.clusters);
    std::sort(c.begin(), c.end());
    return c;
}

std::vector<Volume> FuzzyCMeansCuda::softMaps() const {
    const int c = m_request.fuzzyCMeans.clusters;
    const Geometry& g = m_request.volume->geometry();
    std::vector<Volume> maps;
    for (int k = 0; k < c; ++k) maps.emplace_back(g, PixelType::Float32);
    try {
        const float* device = deviceSoftMaps();
        auto stream = static_cast<cudaStream_t>(m_context->stream());
        for (int k = 0; k < c; ++k)
            cudaCheck(cudaMemcpyAsync(maps[k].float32Data(), device + std::size_t(k) * g.voxelCount(),
                                      g.voxelCount() * sizeof(float), cudaMemcpyDeviceToHost, stream),
                      "FCM membership maps");
        cudaCheck(cudaStreamSynchronize(stream), "FCM membership maps");
        return maps;
    } catch (const GpuError&) {
        // No room for c float maps on the device: the same values built on the host from the
        // distinct values' memberships (one row per value), which needs the host's voxels.
        if (!hasHostVoxels(*m_request.volume)) throw;
    }
    std::vector<double> u, values;
    downloadMemberships(u, values);
    // Map order: by centre (label order), as the CPU engine.
    const std::vector<int> order = labelOrder();
    std::vector<int> sampleOfBin(m_bins, -1);
    for (std::size_t s = 0; s < m_samples; ++s) sampleOfBin[int(values[s]) - m_minValue] = int(s);
    const Volume& v = *m_request.volume;
    for (int z = 0; z < g.dims[2]; ++z)
        for (int y = 0; y < g.dims[1]; ++y)
            for (int x = 0; x < g.dims[0]; ++x) {
                const std::size_t idx = g.index(x, y, z);
                if ((m_request.roi && !m_request.roi->contains(x, y, z)) || (m_request.mask && !(*m_request.mask)[idx])) continue;
                const int s = sampleOfBin[v.int16Data()[idx] - m_minValue];
                for (int r = 0; r < c; ++r) maps[r].float32Data()[idx] = float(u[std::size_t(s) * c + order[r]]);
            }
    return maps;
}

std::vector<std::size_t> FuzzyCMeansCuda::clusterVoxels() const {
    // The histogram counts the included voxels of each value; the bin table gives each value's label.
    if (!m_host || m_bins <= 0) return {};
    buildLabelTable(false);
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    std::vector<std::uint32_t> counts(static_cast<std::size_t>(m_bins));
    std::vector<std::uint8_t> labels(static_cast<std::size_t>(m_bins));
    cudaCheck(cudaMemcpyAsync(counts.data(), m_histogram.get(), counts.size() * 4, cudaMemcpyDeviceToHost, stream),
              "FCM histogram");
    cudaCheck(cudaMemcpyAsync(labels.data(), m_binLabel.get(), labels.size(), cudaMemcpyDeviceToHost, stream),
              "FCM label table");
    cudaCheck(cudaStreamSynchronize(stream), "FCM cluster voxels");
    std::vector<std::size_t> voxels(std::size_t(m_request.fuzzyCMeans.clusters), 0);
    for (std::size_t b = 0; b < counts.size(); ++b)
        if (counts[b] && labels[b] >= 1 && labels[b] <= voxels.size()) voxels[labels[b] - 1] += counts[b];
    return voxels;
}

MethodFigures FuzzyCMeansCuda::figures() const {
    MethodFigures f;
    f.centres = sortedCentres();
    f.samples = m_request.fuzzyCMeans.perVoxel ? m_included : m_samples;  // what each iteration visits
    f.path = m_request.fuzzyCMeans.perVoxel ? "per-voxel" : "histogram";
    f.clusterVoxels = clusterVoxels();
    f.msDevice = m_timer.totalMs();
    if (m_msUpload > 0) f.msUpload = m_msUpload;
    return f;
}

}  // namespace lucent::gpu
