/// @brief The 3D snake's states from the worker to the scrubber (Snake3dSteps.h).
#include "lucent/ui/Snake3dSteps.h"

#include "lucent/core/seg/Snake3dStart.h"

#include <bit>

namespace lucent::ui {

Snake3dSteps::Snake3dSteps(const SegmentationRequest& request, std::size_t boundBytes)
    : m_volume(request.volume), m_mask(request.mask), m_bound(boundBytes) {}

double Snake3dSteps::value(std::size_t voxel) const {
    return m_volume->pixelType() == PixelType::Int16 ? double(m_volume->int16Data()[voxel])
                                                     : double(m_volume->float32Data()[voxel]);
}

std::size_t Snake3dSteps::voxelOf(std::uint64_t bit) const {
    const auto rowBits = std::uint64_t(m_shape.words) * 64, row = bit / rowBits;
    return m_volume->geometry().index(m_domain.lo[0] + int(bit % rowBits), m_domain.lo[1] + int(row % std::uint64_t(m_shape.ny)),
                                      m_domain.lo[2] + int(row / std::uint64_t(m_shape.ny)));
}

void Snake3dSteps::countAll(Snake3dState& s) {
    m_voxels = 0;
    m_contrast = {};
    const Geometry& g = m_volume->geometry();
    for (int z = 0; z < m_shape.nz; ++z)
        for (int y = 0; y < m_shape.ny; ++y) {
            const std::uint64_t* row = m_next.data() + m_shape.rowOf(y, z);
            const std::size_t first = g.index(m_domain.lo[0], m_domain.lo[1] + y, m_domain.lo[2] + z);
            for (int x = 0; x < m_shape.nx; ++x) {
                const double v = value(first + std::size_t(x));
                m_contrast.domainVoxels += 1;
                m_contrast.domainSum += v;
                m_contrast.domainSquares += v * v;
                if (!(row[x / 64] >> (x % 64) & 1u)) continue;
                m_contrast.insideVoxels += 1;
                m_contrast.insideSum += v;
                m_contrast.insideSquares += v * v;
                m_voxels += !m_mask || (*m_mask)[first + std::size_t(x)];
            }
        }
    s.first = true;
}

void Snake3dSteps::countFlips(Snake3dState& s) {
    for (std::size_t w = 0; w < m_next.size(); ++w)
        for (std::uint64_t d = m_next[w] ^ m_words[w]; d; d &= d - 1) {
            const std::uint64_t bit = std::uint64_t(w) * 64 + std::uint64_t(std::countr_zero(d));
            s.flips.push_back(bit);
            const std::size_t voxel = voxelOf(bit);
            const double v = value(voxel), sign = m_next[w] >> (bit % 64) & 1u ? 1.0 : -1.0;
            m_contrast.insideVoxels += sign;
            m_contrast.insideSum += sign * v;
            m_contrast.insideSquares += sign * v * v;
            if (!m_mask || (*m_mask)[voxel]) m_voxels = sign > 0 ? m_voxels + 1 : m_voxels - 1;
        }
}

void Snake3dSteps::observe(const Segmenter& engine, int iteration) {
    VoxelBox domain;
    try {
        if (!engine.copyLevelSet(m_next, domain)) return;
    } catch (const std::exception&) {
        m_broken = true;  // this state is lost: the next begins the history again
        return;
    }
    Snake3dState s;
    s.iteration = iteration;
    if (m_broken || m_next.size() != m_words.size() || domain.lo != m_domain.lo || domain.hi != m_domain.hi) {
        m_domain = domain;
        m_shape = snake3dShape(domain);
        countAll(s);
    } else {
        countFlips(s);
    }
    m_broken = false;
    s.voxels = m_voxels;
    s.contrast = m_contrast;
    std::lock_guard lock(m_mutex);
    m_words.swap(m_next);
    s.serial = ++m_serial;
    m_queuedBytes += s.flips.size() * sizeof(std::uint64_t);
    m_queue.push_back(std::move(s));
    // The GUI fell behind by the whole bound: the oldest states go, and the history cannot reach past
    // the gap (their flips lead there).
    while (m_queuedBytes > m_bound && m_queue.size() > 1) {
        m_queuedBytes -= m_queue.front().flips.size() * sizeof(std::uint64_t);
        const int lost = m_queue.front().lost + 1;
        m_queue.erase(m_queue.begin());
        m_queue.front().first = true;
        m_queue.front().lost += lost;
    }
}

std::vector<Snake3dState> Snake3dSteps::take() {
    std::lock_guard lock(m_mutex);
    std::vector<Snake3dState> out;
    out.swap(m_queue);
    m_queuedBytes = 0;
    return out;
}

void Snake3dSteps::latest(std::vector<std::uint64_t>& words, VoxelBox& domain, std::uint64_t& serial) const {
    std::lock_guard lock(m_mutex);
    words = m_words;
    domain = m_domain;
    serial = m_serial;
}

}  // namespace lucent::ui
