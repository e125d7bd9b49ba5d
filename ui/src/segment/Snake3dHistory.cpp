/// @brief The 3D snake's states as flipped level-set bits, flipped back from the run's latest (Snake3dHistory.h).
#include "lucent/ui/Snake3dHistory.h"

#include "lucent/core/ParallelFor.h"
#include "lucent/core/seg/Snake3dStart.h"

#include <algorithm>

namespace lucent::ui {

void Snake3dHistory::clear() {
    m_states.clear();
    m_flipBytes = 0;
    m_shown = -1;
    m_dropped = 0;
    m_flippedFrom = 0, m_flippedTo = -1;
    m_words = {};  // the next run may be on another domain
}

void Snake3dHistory::record(Snake3dState state) {
    if (m_shown >= 0) return;  // never: the run is paused while a state is scrubbed
    m_flippedFrom = 0, m_flippedTo = -1;  // the indices move when the oldest states go
    if (state.first) {
        // Nothing reaches back from it: the states before it go (a new start counts none of them).
        m_dropped += (state.serial == 1 ? 0 : int(m_states.size())) + state.lost;
        m_states.clear();
        m_flipBytes = 0;
        state.flips.clear();
    }
    if (m_states.empty()) state.flips.clear();  // the first state kept has nowhere to go back to
    m_flipBytes += state.flips.size() * sizeof(std::uint64_t);
    m_states.push_back(std::move(state));
    while (m_flipBytes > m_budget && m_states.size() > 1) dropOldest();
}

void Snake3dHistory::dropOldest() {
    // The scrubber then starts at the second state: the flips that led to it go with the first.
    m_states.erase(m_states.begin());
    m_flipBytes -= m_states.front().flips.size() * sizeof(std::uint64_t);
    std::vector<std::uint64_t>().swap(m_states.front().flips);
    ++m_dropped;
}

void Snake3dHistory::flip(std::size_t state, std::optional<VoxelBox>& changed) {
    // A flip is its own inverse: the same bits lead from state - 1 to state and back. A state's flips
    // come row by row (Snake3dSteps counts them so): a row's place is found once for all its flips.
    const auto rowBits = std::uint64_t(m_shape.words) * 64;
    const std::vector<std::uint64_t>& flips = m_states[state].flips;
    if (flips.empty()) return;
    VoxelBox box = VoxelBox::none();
    int xLo = m_shape.nx, xHi = -1;
    std::uint64_t rowStart = 1, rowEnd = 0;  // the bits of the row in hand: none yet
    for (const std::uint64_t bit : flips) {
        m_words[bit / 64] ^= std::uint64_t(1) << (bit % 64);
        if (bit < rowStart || bit >= rowEnd) {
            const std::uint64_t row = bit / rowBits;
            rowStart = row * rowBits, rowEnd = rowStart + rowBits;
            box.add(m_domain.lo[0], m_domain.lo[1] + int(row % std::uint64_t(m_shape.ny)),
                    m_domain.lo[2] + int(row / std::uint64_t(m_shape.ny)));
        }
        const int x = int(bit - rowStart);
        xLo = std::min(xLo, x), xHi = std::max(xHi, x);
    }
    box.lo[0] = m_domain.lo[0] + xLo, box.hi[0] = m_domain.lo[0] + xHi;
    changed = merge(changed, box);
}

std::optional<VoxelBox> Snake3dHistory::show(int index, const Latest& latest) {
    std::optional<VoxelBox> changed;
    const int last = count() - 1;
    const int target = index < 0 || index >= last ? last : index;
    m_flippedFrom = 0, m_flippedTo = -1;
    if (target < 0) return changed;
    if (m_shown < 0) {
        // From the run's level set now (its labels() are the latest's when it stays there).
        std::uint64_t serial = 0;
        latest(m_words, m_domain, serial);
        m_shape = snake3dShape(m_domain);
        if (serial != m_states.back().serial) {  // the run moved on since its last state here
            m_words.clear();
            return changed;
        }
        if (target == last) return changed;  // following the run: nothing changes in the views
    }
    const int now = m_shown < 0 ? last : m_shown;
    for (int s = now; s > target; --s) flip(std::size_t(s), changed);  // back
    for (int s = now + 1; s <= target; ++s) flip(std::size_t(s), changed);  // forward
    m_flippedFrom = std::min(now, target) + 1;
    m_flippedTo = std::max(now, target);
    m_shown = target == last ? -1 : target;
    return changed;
}

void Snake3dHistory::labels(const VoxelBox& box, const LabelMap* mask, std::uint8_t* out) const {
    const int nx = box.hi[0] - box.lo[0] + 1, ny = box.hi[1] - box.lo[1] + 1;
    if (m_words.empty()) {
        std::fill(out, out + box.voxelCount(), std::uint8_t(0));
        return;
    }
    // Row by row, a slice of the box a task on all cores: a scrubbed state at 1024^3 writes a box of millions.
    const int i0 = std::max(box.lo[0], m_domain.lo[0]), i1 = std::min(box.hi[0], m_domain.hi[0]);
    parallelFor(std::size_t(box.hi[2] - box.lo[2] + 1), 0, [&](std::size_t slice) {
        const int k = box.lo[2] + int(slice);
        std::uint8_t* plane = out + slice * std::size_t(ny) * std::size_t(nx);
        std::fill(plane, plane + std::size_t(ny) * std::size_t(nx), std::uint8_t(0));
        if (k < m_domain.lo[2] || k > m_domain.hi[2]) return;
        for (int j = std::max(box.lo[1], m_domain.lo[1]); j <= std::min(box.hi[1], m_domain.hi[1]); ++j) {
            const std::uint64_t* words = m_words.data() + m_shape.rowOf(j - m_domain.lo[1], k - m_domain.lo[2]);
            std::uint8_t* row = plane + std::size_t(j - box.lo[1]) * std::size_t(nx);
            const std::uint8_t* allowed = mask ? mask->data() + mask->geometry().index(0, j, k) : nullptr;
            for (int i = i0; i <= i1; ++i) {
                const int x = i - m_domain.lo[0];
                row[i - box.lo[0]] = std::uint8_t((words[x / 64] >> (x % 64) & 1u) && (!allowed || allowed[i]));
            }
        }
    });
}

std::size_t Snake3dHistory::changedCount() const {
    std::size_t n = 0;
    for (int s = m_flippedFrom; s <= m_flippedTo; ++s) n += m_states[std::size_t(s)].flips.size();
    return n;
}

std::vector<std::uint64_t> Snake3dHistory::changedVoxels(const Geometry& volume, const LabelMap* mask) const {
    // In chunks of flips on all cores, each written at its place: the states' flips in order.
    constexpr std::size_t kChunk = std::size_t(1) << 16;
    struct Chunk {
        const std::uint64_t* flips;
        std::size_t count, at;
    };
    std::vector<Chunk> chunks;
    std::size_t total = 0;
    for (int s = m_flippedFrom; s <= m_flippedTo; ++s) {
        const std::vector<std::uint64_t>& f = m_states[std::size_t(s)].flips;
        for (std::size_t o = 0; o < f.size(); o += kChunk) {
            const std::size_t count = std::min(kChunk, f.size() - o);
            chunks.push_back({f.data() + o, count, total});
            total += count;
        }
    }
    std::vector<std::uint64_t> out(total);
    const auto rowBits = std::uint64_t(m_shape.words) * 64;
    parallelFor(chunks.size(), 0, [&](std::size_t c) {
        const Chunk& chunk = chunks[c];
        for (std::size_t n = 0; n < chunk.count; ++n) {
            const std::uint64_t bit = chunk.flips[n], row = bit / rowBits;
            const std::size_t voxel = volume.index(m_domain.lo[0] + int(bit % rowBits), m_domain.lo[1] + int(row % std::uint64_t(m_shape.ny)),
                                                   m_domain.lo[2] + int(row / std::uint64_t(m_shape.ny)));
            const bool inside = (m_words[bit / 64] >> (bit % 64) & 1u) && (!mask || (*mask)[voxel]);
            out[chunk.at + n] = std::uint64_t(voxel) | (inside ? kLabelBit : 0);
        }
    });
    return out;
}

}  // namespace lucent::ui
