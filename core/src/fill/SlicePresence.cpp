/// @brief SlicePresence: each thread scans a run of k slices into arrays of its own, merged after.
#include "SlicePresence.h"

#include "lucent/core/ParallelFor.h"

#include <algorithm>
#include <mutex>

namespace lucent::fill {

SlicePresence::SlicePresence(const LabelMap& map, const std::array<bool, 256>& wanted, unsigned threads)
    : m_dims(map.geometry().dims) {
    for (int a = 0; a < 3; ++a) m_seen[a].assign(256 * std::size_t(m_dims[a]), 0);
    if (threads == 0) threads = defaultThreadCount();
    const int di = m_dims[0], dj = m_dims[1], dk = m_dims[2];
    const std::size_t chunks = std::min<std::size_t>(threads, std::size_t(std::max(dk, 1)));
    std::mutex merge;
    parallelFor(chunks, threads, [&](std::size_t c) {
        const int k0 = int(c * dk / chunks), k1 = int((c + 1) * dk / chunks);
        // Slices of k belong to one chunk each: written directly. i and j are shared: local, merged.
        std::vector<std::uint8_t> seenI(256 * std::size_t(di), 0), seenJ(256 * std::size_t(dj), 0);
        const std::uint8_t* data = map.data();
        for (int k = k0; k < k1; ++k)
            for (int j = 0; j < dj; ++j) {
                const std::uint8_t* row = data + (std::size_t(k) * dj + j) * di;
                for (int i = 0; i < di; ++i) {
                    const std::uint8_t v = row[i];
                    if (v == 0 || !wanted[v]) continue;
                    seenI[std::size_t(v) * di + i] = 1;
                    seenJ[std::size_t(v) * dj + j] = 1;
                    m_seen[2][std::size_t(v) * dk + k] = 1;
                }
            }
        std::lock_guard lock(merge);
        for (std::size_t n = 0; n < seenI.size(); ++n) m_seen[0][n] |= seenI[n];
        for (std::size_t n = 0; n < seenJ.size(); ++n) m_seen[1][n] |= seenJ[n];
    });
}

std::vector<int> SlicePresence::slices(int axis, std::uint8_t label) const {
    std::vector<int> out;
    for (int s = 0; s < m_dims[axis]; ++s)
        if (holds(axis, label, s)) out.push_back(s);
    return out;
}

}  // namespace lucent::fill
