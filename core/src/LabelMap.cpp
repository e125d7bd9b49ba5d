/// @brief LabelMap construction and counting.
#include "lucent/core/LabelMap.h"

#include "lucent/core/ParallelFor.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace lucent {

LabelMap::LabelMap(const Geometry& geometry, std::vector<std::uint8_t>&& labels)
    : m_geometry(geometry), m_labels(std::move(labels)) {
    if (m_labels.size() != geometry.voxelCount())
        throw std::invalid_argument("LabelMap: label count differs from the geometry's voxel count");
}

std::size_t LabelMap::count(std::uint8_t label) const {
    return static_cast<std::size_t>(std::count(m_labels.begin(), m_labels.end(), label));
}

std::array<std::size_t, 256> valueCounts(const LabelMap& map, unsigned threads) {
    constexpr std::size_t kChunk = std::size_t(1) << 22;  // a task's bytes: many tasks, few partial counts
    const std::size_t n = map.voxelCount(), chunks = (n + kChunk - 1) / kChunk;
    hostwork::note(n);
    std::vector<std::array<std::size_t, 256>> partial(chunks);
    parallelFor(chunks, threads, [&](std::size_t c) {
        std::array<std::size_t, 256>& counts = partial[c];
        counts.fill(0);
        const std::uint8_t* v = map.data() + c * kChunk;
        const std::size_t count = std::min(kChunk, n - c * kChunk);
        std::size_t i = 0;
        for (; i + 8 <= count; i += 8) {
            std::uint64_t word;
            std::memcpy(&word, v + i, sizeof word);
            if (!word) {
                counts[0] += 8;
                continue;
            }
            for (std::size_t b = 0; b < 8; ++b) ++counts[v[i + b]];
        }
        for (; i < count; ++i) ++counts[v[i]];
    });
    std::array<std::size_t, 256> total{};
    for (const auto& counts : partial)
        for (std::size_t value = 0; value < 256; ++value) total[value] += counts[value];
    return total;
}

}  // namespace lucent
