/// @brief The 3D snake's states from the worker to the scrubber (Snake3dSteps.h).
#include "lucent/ui/Snake3dSteps.h"

#include "lucent/core/ParallelFor.h"
#include "lucent/core/StageTimes.h"
#include "lucent/core/seg/Snake3dStart.h"

#include <bit>
#include <utility>

namespace lucent::ui {

Snake3dSteps::Snake3dSteps(const SegmentationRequest& request, std::size_t boundBytes)
    : m_volume(request.volume),
      m_mask(request.mask),
      m_box(request.snake3d.box),
      m_clamp(snake3dClamp(request.snake3d)),
      m_bound(boundBytes),
      m_thread([this] { run(); }) {}

Snake3dSteps::~Snake3dSteps() {
    {
        std::lock_guard lock(m_handOver);
        m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
}

void Snake3dSteps::observe(const Segmenter& engine, int iteration) {
    stages::Scope scope("worker: 3D snake level set copied for the scrubber");
    std::unique_lock lock(m_handOver);
    m_changed.wait(lock, [&] { return !m_pending || m_stop; });  // the thread took the last copy
    if (m_stop) return;
    lock.unlock();
    VoxelBox domain;
    bool copied = false;
    try {
        copied = engine.copyLevelSet(m_copy, domain);
    } catch (const std::exception&) {
        copied = false;
    }
    lock.lock();
    if (!copied) {
        ++m_copiesLost;  // this state is lost: the next begins the history again
        return;
    }
    m_copyDomain = domain;
    m_copyIteration = iteration;
    m_pending = true;
    lock.unlock();
    m_changed.notify_all();
}

void Snake3dSteps::flush() {
    std::unique_lock lock(m_handOver);
    m_changed.wait(lock, [&] { return (!m_pending && !m_busy) || m_stop; });
}

void Snake3dSteps::run() {
    std::unique_lock lock(m_handOver);
    while (true) {
        m_changed.wait(lock, [&] { return m_pending || m_stop; });
        if (m_stop) return;
        m_next.swap(m_copy);
        const VoxelBox domain = m_copyDomain;
        Snake3dState s;
        s.iteration = m_copyIteration;
        s.lost = std::exchange(m_copiesLost, 0);
        m_pending = false;
        m_busy = true;
        lock.unlock();
        m_changed.notify_all();  // the worker may copy the next level set meanwhile
        {
            stages::Scope scope("3D snake: a state for the scrubber (own thread)");
            const bool newDomain = domain.lo != m_domain.lo || domain.hi != m_domain.hi;
            if (s.lost || m_restart || m_next.size() != m_words.size() || newDomain) {
                m_domain = domain;
                m_shape = snake3dShape(domain);
                countAll(s);
            } else {
                countFlips(s);
            }
            m_restart = false;
            enqueue(std::move(s));
        }
        lock.lock();
        m_busy = false;
        m_changed.notify_all();
    }
}

double Snake3dSteps::value(std::size_t voxel, bool integer) const {
    return integer ? double(m_clamp((long long)m_volume->int16Data()[voxel]))
                   : m_clamp(double(m_volume->float32Data()[voxel]));
}

namespace {

/// What one slice of the domain adds to a state (its flips, its voxels and statistics): slices are
/// counted on all cores and added in slice order, so the sums are the same whatever the thread count.
struct SliceCount {
    std::vector<std::uint64_t> flips;
    long long voxels = 0;
    Snake3dContrast contrast;
};

/// One row of the domain: its first voxel in the volume, and whether the start box crosses it.
struct DomainRow {
    int y, z;
    std::size_t first;
    bool boxRow;
};

/// Calls `count(slice's SliceCount, row)` for every row of the domain, a slice a task on all cores.
template <typename Count>
std::vector<SliceCount> countSlices(const Geometry& g, const VoxelBox& domain, const Snake3dShape& shape,
                                    const std::optional<VoxelBox>& box, Count&& count) {
    std::vector<SliceCount> slices(std::size_t(shape.nz));
    parallelFor(slices.size(), 0, [&](std::size_t zi) {
        const int z = int(zi);
        for (int y = 0; y < shape.ny; ++y) {
            const int j = domain.lo[1] + y, k = domain.lo[2] + z;
            count(slices[zi], DomainRow{y, z, g.index(domain.lo[0], j, k), box && box->contains(box->lo[0], j, k)});
        }
    });
    return slices;
}

void add(Snake3dContrast& to, const Snake3dContrast& d) {
    to.insideVoxels += d.insideVoxels, to.insideSum += d.insideSum, to.insideSquares += d.insideSquares;
    to.domainVoxels += d.domainVoxels, to.domainSum += d.domainSum, to.domainSquares += d.domainSquares;
    to.boxVoxels += d.boxVoxels, to.boxInside += d.boxInside;
}

/// Adds the slices to the sums in slice order; their flips are appended to `flips`.
void addSlices(const std::vector<SliceCount>& slices, std::size_t& voxels, Snake3dContrast& contrast,
               std::vector<std::uint64_t>& flips) {
    std::size_t total = 0;
    for (const SliceCount& c : slices) total += c.flips.size();
    flips.reserve(flips.size() + total);
    for (const SliceCount& c : slices) {
        flips.insert(flips.end(), c.flips.begin(), c.flips.end());
        voxels = std::size_t((long long)voxels + c.voxels);
        add(contrast, c.contrast);
    }
}

}  // namespace

void Snake3dSteps::countAll(Snake3dState& s) {
    const bool integer = m_volume->pixelType() == PixelType::Int16;
    const auto slices = countSlices(m_volume->geometry(), m_domain, m_shape, m_box, [&](SliceCount& c, DomainRow r) {
        const std::uint64_t* row = m_next.data() + m_shape.rowOf(r.y, r.z);
        for (int x = 0; x < m_shape.nx; ++x) {
            const std::size_t voxel = r.first + std::size_t(x);
            const double v = value(voxel, integer);
            const bool inside = row[x / 64] >> (x % 64) & 1u;
            c.contrast.domainVoxels += 1;
            c.contrast.domainSum += v;
            c.contrast.domainSquares += v * v;
            const int i = m_domain.lo[0] + x;
            if (r.boxRow && i >= m_box->lo[0] && i <= m_box->hi[0]) {
                c.contrast.boxVoxels += 1;
                c.contrast.boxInside += inside;
            }
            if (!inside) continue;
            c.contrast.insideVoxels += 1;
            c.contrast.insideSum += v;
            c.contrast.insideSquares += v * v;
            c.voxels += !m_mask || (*m_mask)[voxel];
        }
    });
    m_voxels = 0;
    m_contrast = {};
    addSlices(slices, m_voxels, m_contrast, s.flips);
    s.first = true;
}

void Snake3dSteps::countFlips(Snake3dState& s) {
    // Row by row, in the volume's order (no division a flip, the voxels read as they lie in memory), a
    // slice a task on all cores: at 1024^3 a step flips about a million voxels.
    const bool integer = m_volume->pixelType() == PixelType::Int16;
    const auto slices = countSlices(m_volume->geometry(), m_domain, m_shape, m_box, [&](SliceCount& c, DomainRow r) {
        const std::size_t row = std::size_t(m_shape.rowOf(r.y, r.z));
        for (int w = 0; w < m_shape.words; ++w) {
            const std::uint64_t now = m_next[row + std::size_t(w)];
            for (std::uint64_t d = now ^ m_words[row + std::size_t(w)]; d; d &= d - 1) {
                const int b = std::countr_zero(d);
                c.flips.push_back(std::uint64_t(row + std::size_t(w)) * 64 + std::uint64_t(b));
                const std::size_t voxel = r.first + std::size_t(w * 64 + b);
                const double v = value(voxel, integer);
                const double sign = now >> b & 1u ? 1.0 : -1.0;
                c.contrast.insideVoxels += sign;
                c.contrast.insideSum += sign * v;
                c.contrast.insideSquares += sign * v * v;
                const int i = m_domain.lo[0] + w * 64 + b;
                if (r.boxRow && i >= m_box->lo[0] && i <= m_box->hi[0]) c.contrast.boxInside += sign;
                if (!m_mask || (*m_mask)[voxel]) c.voxels += sign > 0 ? 1 : -1;
            }
        }
    });
    addSlices(slices, m_voxels, m_contrast, s.flips);
}

void Snake3dSteps::enqueue(Snake3dState s) {
    s.voxels = m_voxels;
    s.contrast = m_contrast;
    std::lock_guard lock(m_mutex);
    m_words.swap(m_next);
    m_latestDomain = m_domain;
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
    domain = m_latestDomain;
    serial = m_serial;
}

}  // namespace lucent::ui
