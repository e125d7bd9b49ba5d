/// @brief The 3D snake's CPU engine: region term, curvature operators and convergence on packed words.
#include "lucent/core/seg/Snake3dCpu.h"

#include "lucent/core/ParallelFor.h"
#include "lucent/core/seg/Eligibility.h"
#include "lucent/core/seg/Snake3dStart.h"

#include <algorithm>
#include <bit>

namespace lucent {

namespace {

/// What one slice of the domain changed in an iteration.
struct SliceChange {
    long long voxels = 0;      // voxels that changed
    long long insideDelta = 0;  // change of N1
    long long sumDelta = 0;     // change of S1 (int16)
    double sumDeltaF = 0;       // change of S1 (float32)
    bool differsFromPrev2 = false;
    VoxelBox box = VoxelBox::none();
};

/// One pass of an operator over the level set `u` (its domain's shape `s`): word w of row (y, z) of the
/// next level set is `word(n, w, y, z)` of the 27 neighbouring words n in `u`, which the pass only reads;
/// the next level set then replaces `u` (`next` keeps the old one as the next pass's buffer).
template <class Word>
void sweep(const Snake3dShape& s, unsigned threads, std::vector<std::uint64_t>& u, std::vector<std::uint64_t>& next,
           const Word& word) {
    parallelFor(std::size_t(s.nz), threads, [&](std::size_t zz) {
        const int z = int(zz);
        std::uint64_t n[27];
        for (int y = 0; y < s.ny; ++y)
            for (int w = 0; w < s.words; ++w) {
                snake3dNeighbourhood(u.data(), s, w, y, z, n);
                next[std::size_t(s.rowOf(y, z)) + std::size_t(w)] = word(n, w, y, z);
            }
    });
    u.swap(next);
}

}  // namespace

/// A pass over a small domain costs less than starting threads (parallelFor starts them each call:
/// 16 threads on the CT head's ventricle domain made a run 6 x slower than 2): one thread per 16384
/// words (a million voxels) at most. The result does not depend on the count.
unsigned Snake3dCpu::threads() const {
    const unsigned wanted = m_request.threads ? m_request.threads : defaultThreadCount();
    const long long byWork = std::max(1LL, m_shape.wordCount() / 16384);
    return unsigned(std::min<long long>(wanted, byWork));
}

double Snake3dCpu::value(int x, int y, int z) const {
    const Volume& v = *m_request.volume;
    const std::size_t idx = v.geometry().index(m_domain.lo[0] + x, m_domain.lo[1] + y, m_domain.lo[2] + z);
    return m_integer ? double(m_clamp((long long)v.int16Data()[idx])) : m_clamp(double(v.float32Data()[idx]));
}

void Snake3dCpu::start(const SegmentationRequest& request) {
    validateRequest(Method::Snake3d, request);
    m_request = request;
    m_integer = request.volume->pixelType() == PixelType::Int16;
    m_clamp = snake3dClamp(request.snake3d);
    m_domain = snake3dDomain(request);
    m_shape = snake3dShape(m_domain);
    m_u = snake3dStartWords(request, m_domain);
    m_next.assign(m_u.size(), 0);
    m_prev1 = m_u;
    m_prev2.assign(m_u.size(), 0);
    m_havePrev2 = false;
    m_smoothed = 0;
    m_iterations = 0;
    m_lastChanged = 0;
    m_finished = m_converged = false;
    // The sums over the domain and over the start, per slice, added in slice order.
    const Snake3dShape s = m_shape;
    std::vector<SliceChange> slices(std::size_t(s.nz));
    std::vector<double> allF(std::size_t(s.nz), 0);
    std::vector<long long> all(std::size_t(s.nz), 0);
    parallelFor(std::size_t(s.nz), threads(), [&](std::size_t z) {
        SliceChange c;  // summed here, stored once: neighbouring slices' sums share cache lines
        long long sum = 0;
        double sumF = 0;
        for (int y = 0; y < s.ny; ++y)
            for (int x = 0; x < s.nx; ++x) {
                const double v = value(x, y, int(z));
                const bool in = m_u[std::size_t(s.rowOf(y, int(z))) + std::size_t(x / 64)] >> (x % 64) & 1u;
                sum += (long long)v;
                sumF += v;
                c.insideDelta += in;
                c.sumDelta += in ? (long long)v : 0;
                c.sumDeltaF += in ? v : 0.0;
            }
        slices[z] = c;
        all[z] = sum;
        allF[z] = sumF;
    });
    m_n1 = m_s1 = m_sAll = 0;
    m_s1f = m_sAllf = 0;
    for (std::size_t z = 0; z < slices.size(); ++z) {
        m_n1 += slices[z].insideDelta;
        m_s1 += slices[z].sumDelta;
        m_s1f += slices[z].sumDeltaF;
        m_sAll += all[z];
        m_sAllf += allF[z];
    }
    m_nAll = (long long)s.nx * s.ny * s.nz;
}

void Snake3dCpu::regionTerm() {
    const Snake3dShape s = m_shape;
    const Snake3dThreshold t = snake3dThreshold(m_s1, m_n1, m_sAll - m_s1, m_nAll - m_n1);
    const long long n0 = m_nAll - m_n1;
    const double c1 = m_n1 > 0 ? m_s1f / double(m_n1) : 0.0, c0 = n0 > 0 ? (m_sAllf - m_s1f) / double(n0) : 0.0;
    sweep(s, threads(), m_u, m_next, [&](const std::uint64_t* n, int w, int y, int z) {
        const std::uint64_t centre = n[13];
        std::uint64_t out = centre;
        for (std::uint64_t g = snake3dGradient(n, s, w, y, z); g; g &= g - 1) {
            const int b = std::countr_zero(g);
            const int current = int(centre >> b & 1u);
            const double v = value(w * 64 + b, y, z);
            const int next = m_integer ? snake3dDecide((long long)v, t, current) : snake3dDecide(v, c0, c1, current);
            out = next ? out | std::uint64_t(1) << b : out & ~(std::uint64_t(1) << b);
        }
        return out;
    });
}

void Snake3dCpu::curvature(bool supInf) {
    const Snake3dShape s = m_shape;
    sweep(s, threads(), m_u, m_next, [&](const std::uint64_t* n, int w, int, int) {
        return (supInf ? snake3dSupInf(n) : snake3dInfSup(n)) & s.validBits(w);
    });
}

std::optional<VoxelBox> Snake3dCpu::settle() {
    const Snake3dShape s = m_shape;
    std::vector<SliceChange> slices(std::size_t(s.nz));
    parallelFor(std::size_t(s.nz), threads(), [&](std::size_t zz) {
        const int z = int(zz);
        SliceChange c;  // stored once at the end (no false sharing between slices)
        for (int y = 0; y < s.ny; ++y)
            for (int w = 0; w < s.words; ++w) {
                const std::size_t at = std::size_t(s.rowOf(y, z)) + std::size_t(w);
                c.differsFromPrev2 = c.differsFromPrev2 || m_u[at] != m_prev2[at];
                const std::uint64_t diff = m_u[at] ^ m_prev1[at];
                if (!diff) continue;
                c.box.add(w * 64 + std::countr_zero(diff), y, z);
                c.box.add(w * 64 + 63 - std::countl_zero(diff), y, z);
                for (std::uint64_t d = diff; d; d &= d - 1) {
                    const int b = std::countr_zero(d);
                    const long long sign = (m_u[at] >> b & 1u) ? 1 : -1;
                    const double v = value(w * 64 + b, y, z);
                    ++c.voxels;
                    c.insideDelta += sign;
                    c.sumDelta += sign * (long long)v;
                    c.sumDeltaF += double(sign) * v;
                }
            }
        slices[zz] = c;
    });
    VoxelBox box = VoxelBox::none();
    bool differsFromPrev2 = false;
    m_lastChanged = 0;
    for (const SliceChange& c : slices) {
        m_lastChanged += c.voxels;
        m_n1 += c.insideDelta;
        m_s1 += c.sumDelta;
        m_s1f += c.sumDeltaF;
        differsFromPrev2 = differsFromPrev2 || c.differsFromPrev2;
        if (!c.box.empty()) {
            box.add(c.box.lo[0], c.box.lo[1], c.box.lo[2]);
            box.add(c.box.hi[0], c.box.hi[1], c.box.hi[2]);
        }
    }
    // The state is the level set and the parity of the next curvature operator: after an even
    // smoothing count an unchanged set is a fixed point; two iterations always restore the parity.
    const bool fixed = m_lastChanged == 0 && m_request.snake3d.smoothing % 2 == 0;
    const bool cycle = m_havePrev2 && !differsFromPrev2;
    m_converged = fixed || cycle;
    if (box.empty()) return std::nullopt;
    for (int d = 0; d < 3; ++d) {
        box.lo[d] += m_domain.lo[d];
        box.hi[d] += m_domain.lo[d];
    }
    return box;
}

StepReport Snake3dCpu::step(int maxIterations) {
    StepReport report;
    const int wanted = m_request.snake3d.iterations;
    const int cap = wanted > 0 ? wanted : kSnake3dLimits.convergenceCap;
    for (int n = 0; n < maxIterations && !m_finished; ++n) {
        m_prev2.swap(m_prev1);  // u_{n-2} <- u_{n-1}
        m_havePrev2 = m_iterations >= 1;
        m_prev1 = m_u;          // u_{n-1}: the start of this iteration
        regionTerm();
        for (int c = 0; c < m_request.snake3d.smoothing; ++c) {
            // SIoIS, then ISoSI: IS first, SI second, and the reverse.
            const bool siOfIs = m_smoothed++ % 2 == 0;
            curvature(!siOfIs);
            curvature(siOfIs);
        }
        ++m_iterations;
        if (const auto changed = settle()) report.changed = merge(report.changed, *changed);
        if (m_iterations >= cap || (wanted == 0 && m_converged)) m_finished = true;
    }
    report.iterations = m_iterations;
    report.finished = m_finished;
    report.convergence = double(m_lastChanged);
    report.progress = m_finished ? 1.0 : wanted > 0 ? double(m_iterations) / wanted : 0.0;
    return report;
}

void Snake3dCpu::writeLabels(const LabelSink& sink, const VoxelBox* box) const {
    const Geometry& g = grid();
    const VoxelBox b = box ? *box : wholeBox(g);
    const Eligibility eligible(m_request);
    const Snake3dShape s = m_shape;
    parallelFor(std::size_t(b.hi[2] - b.lo[2] + 1), threads(), [&](std::size_t dz) {
        const int k = b.lo[2] + int(dz);
        for (int j = b.lo[1]; j <= b.hi[1]; ++j)
            for (int i = b.lo[0]; i <= b.hi[0]; ++i) {
                const std::size_t idx = g.index(i, j, k);
                bool in = m_domain.contains(i, j, k) && eligible(i, j, k, idx);
                if (in) {
                    const int x = i - m_domain.lo[0];
                    in = m_u[std::size_t(s.rowOf(j - m_domain.lo[1], k - m_domain.lo[2])) + std::size_t(x / 64)] >>
                             (x % 64) & 1u;
                }
                sink.data[idx] = in ? 1 : 0;
            }
    });
}

MethodFigures Snake3dCpu::figures() const {
    MethodFigures f;
    const long long n0 = m_nAll - m_n1;
    const double s1 = m_integer ? double(m_s1) : m_s1f, s0 = m_integer ? double(m_sAll - m_s1) : m_sAllf - m_s1f;
    if (m_n1 > 0) f.meanInside = s1 / double(m_n1);
    if (n0 > 0) f.meanOutside = s0 / double(n0);
    f.converged = m_converged;
    return f;
}

bool Snake3dCpu::copyLevelSet(std::vector<std::uint64_t>& words, VoxelBox& domain) const {
    words = m_u;
    domain = m_domain;
    return true;
}

}  // namespace lucent
