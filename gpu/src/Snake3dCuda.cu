/// @brief The 3D snake's CUDA engine: the kernels of one iteration and the step read-back.
#include "Snake3dCuda.h"

#include "CudaCheck.h"
#include "Staging.h"

#include "lucent/core/seg/Snake3dStart.h"
#include "lucent/gpu/DeviceVolume.h"

#include <cuda_runtime.h>

#include <cstdint>

namespace lucent::gpu {

/// What the device keeps between kernels (and the host reads after a step).
struct Snake3dDeviceState {
    long long n1, s1, nAll, sAll;      // exact sums inside and over the domain
    long long dn, ds, changed;         // this iteration's changes
    int differsFromPrev2;
    int iterations, finished, converged;
    int wanted, cap, smoothing;
    int boxLo[3], boxHi[3];            // voxels changed since the step began (domain coordinates)
    Snake3dThreshold threshold;
};

namespace {

using Word = unsigned long long;
static_assert(sizeof(Word) == sizeof(std::uint64_t));

/// The volume as the kernels see the domain: voxel (x, y, z) of the domain is voxel lo + (x, y, z), its
/// value clamped to the run's clip (Snake3dClamp, as the CPU engine's value()).
struct DomainView {
    const std::int16_t* voxels;
    long long dimX, dimXY;
    int lo[3];
    Snake3dClamp clamp;
    __device__ long long value(int x, int y, int z) const {
        return clamp((long long)voxels[(long long)(lo[0] + x) + dimX * (lo[1] + y) + dimXY * (lo[2] + z)]);
    }
};

DomainView domainView(const GpuContext& context, const SegmentationRequest& request, const VoxelBox& domain) {
    const Geometry& g = request.volume->geometry();
    return {static_cast<const std::int16_t*>(context.deviceVolume().devicePointer()),
            g.dims[0],
            (long long)g.dims[0] * g.dims[1],
            {domain.lo[0], domain.lo[1], domain.lo[2]},
            snake3dClamp(request.snake3d)};
}

__device__ inline void wordPosition(long long index, const Snake3dShape& s, int& w, int& y, int& z) {
    w = int(index % s.words);
    const long long row = index / s.words;
    y = int(row % s.ny);
    z = int(row / s.ny);
}

__global__ void beginIteration(Snake3dDeviceState* st, const Word* u, Word* prev1, Word* prev2, long long count) {
    if (st->finished) return;
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= count) return;
    prev2[i] = prev1[i];  // u_{n-2} <- u_{n-1}
    prev1[i] = u[i];      // u_{n-1}: the start of this iteration
}

__global__ void thresholdKernel(Snake3dDeviceState* st) {
    if (st->finished) return;
    st->threshold = snake3dThreshold(st->s1, st->n1, st->sAll - st->s1, st->nAll - st->n1);
    st->dn = st->ds = st->changed = 0;
    st->differsFromPrev2 = 0;
}

__global__ void regionKernel(const Snake3dDeviceState* st, const Word* u, Word* out, Snake3dShape s, DomainView d) {
    if (st->finished) return;
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= s.wordCount()) return;
    int w, y, z;
    wordPosition(i, s, w, y, z);
    std::uint64_t n[27];
    snake3dNeighbourhood(reinterpret_cast<const std::uint64_t*>(u), s, w, y, z, n);
    const std::uint64_t centre = n[13];
    std::uint64_t result = centre;
    const Snake3dThreshold t = st->threshold;
    for (std::uint64_t g = snake3dGradient(n, s, w, y, z); g; g &= g - 1) {
        const int b = __ffsll((long long)g) - 1;
        const int next = snake3dDecide(d.value(w * 64 + b, y, z), t, int(centre >> b & 1u));
        result = next ? result | std::uint64_t(1) << b : result & ~(std::uint64_t(1) << b);
    }
    out[i] = result;
}

__global__ void curvatureKernel(const Snake3dDeviceState* st, const Word* in, Word* out, Snake3dShape s, bool supInf) {
    if (st->finished) return;
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= s.wordCount()) return;
    int w, y, z;
    wordPosition(i, s, w, y, z);
    std::uint64_t n[27];
    snake3dNeighbourhood(reinterpret_cast<const std::uint64_t*>(in), s, w, y, z, n);
    out[i] = (supInf ? snake3dSupInf(n) : snake3dInfSup(n)) & s.validBits(w);
}

/// The new level set into u, its changes against u_{n-1} counted and summed, compared with u_{n-2}.
__global__ void settleKernel(Snake3dDeviceState* st, const Word* result, Word* u, const Word* prev1, const Word* prev2,
                             Snake3dShape s, DomainView d) {
    __shared__ unsigned long long sDn, sDs, sChanged;
    __shared__ int sDiffers, sLo[3], sHi[3];
    if (st->finished) return;  // the same for every thread: read before any barrier
    if (threadIdx.x == 0) {
        sDn = sDs = sChanged = 0;
        sDiffers = 0;
        for (int a = 0; a < 3; ++a) sLo[a] = 1 << 30, sHi[a] = -1;
    }
    __syncthreads();
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < s.wordCount()) {
        int w, y, z;
        wordPosition(i, s, w, y, z);
        const Word now = result[i];
        u[i] = now;
        if (now != prev2[i]) sDiffers = 1;
        const Word diff = now ^ prev1[i];
        if (diff) {
            long long dn = 0, ds = 0;
            for (Word b = diff; b; b &= b - 1) {
                const int bit = __ffsll((long long)b) - 1;
                const long long sign = (now >> bit & 1u) ? 1 : -1;
                dn += sign;
                ds += sign * d.value(w * 64 + bit, y, z);
            }
            atomicAdd(&sDn, (unsigned long long)dn);  // two's complement: exact for negative values too
            atomicAdd(&sDs, (unsigned long long)ds);
            atomicAdd(&sChanged, (unsigned long long)__popcll((long long)diff));
            atomicMin(&sLo[0], w * 64 + __ffsll((long long)diff) - 1);
            atomicMax(&sHi[0], w * 64 + 63 - __clzll((long long)diff));
            atomicMin(&sLo[1], y), atomicMax(&sHi[1], y);
            atomicMin(&sLo[2], z), atomicMax(&sHi[2], z);
        }
    }
    __syncthreads();
    if (threadIdx.x != 0) return;
    if (sChanged) {
        atomicAdd(reinterpret_cast<unsigned long long*>(&st->dn), sDn);
        atomicAdd(reinterpret_cast<unsigned long long*>(&st->ds), sDs);
        atomicAdd(reinterpret_cast<unsigned long long*>(&st->changed), sChanged);
        for (int a = 0; a < 3; ++a) atomicMin(&st->boxLo[a], sLo[a]), atomicMax(&st->boxHi[a], sHi[a]);
    }
    if (sDiffers) st->differsFromPrev2 = 1;
}

/// Snake3dCpu::settle()'s and step()'s rule: sums, convergence, the end of the run.
__global__ void endIteration(Snake3dDeviceState* st) {
    if (st->finished) return;
    st->n1 += st->dn;
    st->s1 += st->ds;
    const bool havePrev2 = st->iterations >= 1;
    st->iterations += 1;
    const bool fixed = st->changed == 0 && st->smoothing % 2 == 0;
    st->converged = (fixed || (havePrev2 && !st->differsFromPrev2)) ? 1 : 0;
    if (st->iterations >= st->cap || (st->wanted == 0 && st->converged)) st->finished = 1;
}

/// The start's sums: every voxel of the domain (S over the domain) and those the start holds (N1, S1).
__global__ void startSums(Snake3dDeviceState* st, const Word* u, Snake3dShape s, DomainView d) {
    __shared__ unsigned long long sAll, s1, n1;
    if (threadIdx.x == 0) sAll = s1 = n1 = 0;
    __syncthreads();
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < s.wordCount()) {
        int w, y, z;
        wordPosition(i, s, w, y, z);
        const Word bits = u[i];
        long long all = 0, in = 0, count = 0;
        const int last = s.nx - w * 64 < 64 ? s.nx - w * 64 : 64;
        for (int b = 0; b < last; ++b) {
            const long long v = d.value(w * 64 + b, y, z);
            all += v;
            if (bits >> b & 1u) in += v, ++count;
        }
        atomicAdd(&sAll, (unsigned long long)all);  // two's complement: exact for negative sums too
        atomicAdd(&s1, (unsigned long long)in);
        atomicAdd(&n1, (unsigned long long)count);
    }
    __syncthreads();
    if (threadIdx.x != 0) return;
    atomicAdd(reinterpret_cast<unsigned long long*>(&st->sAll), sAll);
    atomicAdd(reinterpret_cast<unsigned long long*>(&st->s1), s1);
    atomicAdd(reinterpret_cast<unsigned long long*>(&st->n1), n1);
}

__global__ void beginStep(Snake3dDeviceState* st) {
    for (int a = 0; a < 3; ++a) st->boxLo[a] = 1 << 30, st->boxHi[a] = -1;
}

/// Per voxel of `box` (volume coordinates): 1 inside the domain where the level set is 1 and the mask allows.
__global__ void labelKernel(const Word* u, Snake3dShape s, VoxelBox domain, VoxelBox box, long long dimX, long long dimXY,
                            const std::uint8_t* mask, std::uint8_t* out) {
    const int i = box.lo[0] + int(blockIdx.x * blockDim.x + threadIdx.x);
    const int j = box.lo[1] + int(blockIdx.y), k = box.lo[2] + int(blockIdx.z);
    if (i > box.hi[0]) return;
    const long long idx = i + dimX * j + dimXY * k;
    bool in = domain.contains(i, j, k) && (!mask || mask[idx]);
    if (in) {
        const int x = i - domain.lo[0];
        in = u[s.rowOf(j - domain.lo[1], k - domain.lo[2]) + x / 64] >> (x % 64) & 1u;
    }
    out[idx] = in ? 1 : 0;
}

unsigned blocksFor(long long n, int block) { return unsigned((n + block - 1) / block); }

}  // namespace

Snake3dCuda::~Snake3dCuda() {
    if (m_host) cudaFreeHost(m_host);
}

void Snake3dCuda::start(const SegmentationRequest& request) {
    validateRequest(Method::Snake3d, request);
    if (request.volume->pixelType() != PixelType::Int16)
        throw GpuError("the CUDA 3D snake works on int16 volumes (float volumes run on the CPU engine)");
    const bool fresh = !m_context || &m_context->volume() != request.volume;
    m_context = contextFor(m_context, request);
    m_msUpload = fresh ? m_context->uploadMs() : 0;
    m_request = request;
    m_cancelled = false;
    m_domain = snake3dDomain(request);
    m_shape = snake3dShape(m_domain);
    const std::vector<std::uint64_t> start = snake3dStartWords(request, m_domain);
    const std::size_t bytes = start.size() * sizeof(Word);
    m_u.reserve(bytes, "the 3D snake's level set");
    m_work.reserve(bytes, "the 3D snake's work set");
    m_prev1.reserve(bytes, "the 3D snake's previous set");
    m_prev2.reserve(bytes, "the 3D snake's set before that");
    m_state.reserve(sizeof(Snake3dDeviceState), "the 3D snake's state");
    if (!m_host)
        cudaCheck(cudaHostAlloc(reinterpret_cast<void**>(&m_host), sizeof(Snake3dDeviceState), cudaHostAllocDefault),
                  "pinned memory");
    // The start's sums are taken on the device (startSums: int64, exact in any order, as the CPU's).
    Snake3dDeviceState st{};
    st.nAll = (long long)m_shape.nx * m_shape.ny * m_shape.nz;
    st.wanted = request.snake3d.iterations;
    st.cap = st.wanted > 0 ? st.wanted : kSnake3dLimits.convergenceCap;
    st.smoothing = request.snake3d.smoothing;
    *m_host = st;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    m_timer.reset();
    m_timer.begin(stream);
    cudaCheck(cudaMemcpyAsync(m_u.get(), start.data(), bytes, cudaMemcpyHostToDevice, stream), "3D snake start");
    cudaCheck(cudaMemcpyAsync(m_state.get(), m_host, sizeof(st), cudaMemcpyHostToDevice, stream), "3D snake state");
    const DomainView d = domainView(*m_context, request, m_domain);
    startSums<<<blocksFor(m_shape.wordCount(), 256), 256, 0, stream>>>(m_state.as<Snake3dDeviceState>(), m_u.as<Word>(),
                                                                       m_shape, d);
    launchCheck("3D snake start sums");
    cudaCheck(cudaMemcpyAsync(m_host, m_state.get(), sizeof(st), cudaMemcpyDeviceToHost, stream), "3D snake state");
    if (request.mask) {
        m_mask.reserve(request.mask->voxelCount(), "the mask");
        cudaCheck(cudaMemcpyAsync(m_mask.get(), request.mask->data(), request.mask->voxelCount(), cudaMemcpyHostToDevice, stream),
                  "mask upload");
    }
    m_timer.end(stream);
}

void Snake3dCuda::enqueueIteration(long long smoothedBefore) {
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    auto* st = m_state.as<Snake3dDeviceState>();
    const long long count = m_shape.wordCount();
    constexpr int kBlock = 256;
    const unsigned blocks = blocksFor(count, kBlock);
    const DomainView d = domainView(*m_context, m_request, m_domain);
    Word *u = m_u.as<Word>(), *work = m_work.as<Word>();
    beginIteration<<<blocks, kBlock, 0, stream>>>(st, u, m_prev1.as<Word>(), m_prev2.as<Word>(), count);
    thresholdKernel<<<1, 1, 0, stream>>>(st);
    regionKernel<<<blocks, kBlock, 0, stream>>>(st, u, work, m_shape, d);
    // Curvature ping-pongs work -> u -> work: an even count of operators ends in work.
    for (int c = 0; c < m_request.snake3d.smoothing; ++c) {
        const bool siOfIs = (smoothedBefore + c) % 2 == 0;  // SIoIS: IS first; ISoSI: SI first
        curvatureKernel<<<blocks, kBlock, 0, stream>>>(st, work, u, m_shape, !siOfIs);
        curvatureKernel<<<blocks, kBlock, 0, stream>>>(st, u, work, m_shape, siOfIs);
    }
    settleKernel<<<blocks, kBlock, 0, stream>>>(st, work, u, m_prev1.as<Word>(), m_prev2.as<Word>(), m_shape, d);
    endIteration<<<1, 1, 0, stream>>>(st);
    launchCheck("3D snake iteration");
}

StepReport Snake3dCuda::step(int maxIterations) {
    StepReport r;
    if (!m_host) return r;
    if (!finished()) {
        auto stream = static_cast<cudaStream_t>(m_context->stream());
        m_timer.begin(stream);
        beginStep<<<1, 1, 0, stream>>>(m_state.as<Snake3dDeviceState>());
        // Iterations past the end do nothing on the device (every kernel reads the finished flag).
        const int left = m_host->cap - m_host->iterations;
        const int n = maxIterations < left ? maxIterations : left;
        for (int it = 0; it < n; ++it)
            enqueueIteration((long long)(m_host->iterations + it) * m_request.snake3d.smoothing);
        cudaCheck(cudaMemcpyAsync(m_host, m_state.get(), sizeof(Snake3dDeviceState), cudaMemcpyDeviceToHost, stream),
                  "3D snake state");
        m_timer.end(stream);  // waits for the stream
        if (m_host->boxHi[0] >= 0) {
            VoxelBox b;
            for (int a = 0; a < 3; ++a) {
                b.lo[a] = m_host->boxLo[a] + m_domain.lo[a];
                b.hi[a] = m_host->boxHi[a] + m_domain.lo[a];
            }
            r.changed = b;
        }
    }
    r.iterations = m_host->iterations;
    r.finished = finished();
    r.convergence = double(m_host->changed);
    const int wanted = m_request.snake3d.iterations;
    r.progress = r.finished ? 1.0 : wanted > 0 ? double(m_host->iterations) / wanted : 0.0;
    return r;
}

bool Snake3dCuda::finished() const { return !m_host || m_cancelled || m_host->finished != 0; }

void Snake3dCuda::cancel() { m_cancelled = true; }

void Snake3dCuda::writeLabels(const LabelSink& sink, const VoxelBox* box) const {
    const Geometry& g = m_request.volume->geometry();
    if (sink.voxels != g.voxelCount()) throw std::invalid_argument("label sink is not on the volume's grid");
    const VoxelBox b = box ? *box : wholeBox(g);
    if (b.empty()) return;
    auto stream = static_cast<cudaStream_t>(m_context->stream());
    std::uint8_t* out =
        sink.onDevice ? sink.data : static_cast<std::uint8_t*>(m_context->scratch(GpuContext::kEngineScratchSlot, g.voxelCount()));
    m_timer.begin(stream);
    const dim3 grid(blocksFor(b.hi[0] - b.lo[0] + 1, 128), unsigned(b.hi[1] - b.lo[1] + 1), unsigned(b.hi[2] - b.lo[2] + 1));
    labelKernel<<<grid, 128, 0, stream>>>(m_u.as<Word>(), m_shape, m_domain, b, g.dims[0], (long long)g.dims[0] * g.dims[1],
                                          m_request.mask ? m_mask.as<std::uint8_t>() : nullptr, out);
    launchCheck("3D snake labels");
    m_timer.end(stream);
    if (!sink.onDevice) copyLabelsToHost(*m_context, out, sink, b);
}

bool Snake3dCuda::copyLevelSet(std::vector<std::uint64_t>& words, VoxelBox& domain) const {
    if (!m_host) return false;
    words.resize(std::size_t(m_shape.wordCount()));
    // In stream order: after the step's kernels (step() has waited for them already). Through the pinned
    // staging buffers: a pageable copy runs on one thread at a fraction of PCIe speed, and at 1024^3 it
    // held the worker (and every command waiting for it) longer than a frame at every step.
    downloadStaged(words.data(), m_u.get(), words.size() * sizeof(Word), m_context->stream());
    domain = m_domain;
    return true;
}

MethodFigures Snake3dCuda::figures() const {
    MethodFigures f;
    if (!m_host) return f;
    const long long n0 = m_host->nAll - m_host->n1;
    if (m_host->n1 > 0) f.meanInside = double(m_host->s1) / double(m_host->n1);
    if (n0 > 0) f.meanOutside = double(m_host->sAll - m_host->s1) / double(n0);
    f.converged = m_host->converged != 0;
    f.msDevice = m_timer.totalMs();
    if (m_msUpload > 0) f.msUpload = m_msUpload;
    return f;
}

}  // namespace lucent::gpu
