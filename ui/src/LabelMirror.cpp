/// @brief The label layer mirrored for the autosave's worker: whole once, then changed boxes only.
#include "lucent/ui/LabelMirror.h"

#include "lucent/core/ParallelFor.h"
#include "lucent/ui/ViewerModel.h"

#include <algorithm>
#include <cstring>

namespace lucent::ui {

std::shared_ptr<const LabelMap> LabelMirror::sync() {
    m_copied = 0;
    const std::shared_ptr<const LabelMap> layer = m_model.labels();
    if (!layer) {
        m_copy.reset();
        m_source = nullptr;
        return nullptr;
    }
    const int generation = m_model.labelGeneration();
    if (m_copy && m_source == layer.get() && generation == m_generation) return m_copy;
    const std::optional<VoxelBox> box =
        m_copy && m_source == layer.get() ? m_model.labelChangeSince(m_generation) : std::nullopt;
    const auto& d = layer->geometry().dims;
    if (!box) {
        // The whole layer, in slabs on every core, into the copy already made when the grid is the same.
        if (!m_copy || m_copy->voxelCount() != layer->voxelCount() || !(m_copy->geometry().dims == d))
            m_copy = std::make_shared<LabelMap>(layer->geometry());
        const std::size_t n = layer->voxelCount(), slab = std::size_t(16) << 20;
        parallelFor((n + slab - 1) / slab, 0, [&](std::size_t s) {
            const std::size_t at = s * slab;
            std::memcpy(m_copy->data() + at, layer->data() + at, std::min(slab, n - at));
        });
        m_copied = n;
    } else if (!box->empty()) {
        const int lo0 = std::max(box->lo[0], 0), hi0 = std::min(box->hi[0], d[0] - 1);
        for (int k = std::max(box->lo[2], 0); k <= std::min(box->hi[2], d[2] - 1); ++k)
            for (int j = std::max(box->lo[1], 0); j <= std::min(box->hi[1], d[1] - 1); ++j) {
                const std::size_t at = (std::size_t(k) * std::size_t(d[1]) + std::size_t(j)) * std::size_t(d[0]) + lo0;
                const std::size_t n = std::size_t(hi0 - lo0 + 1);
                std::memcpy(m_copy->data() + at, layer->data() + at, n);
                m_copied += n;
            }
    }
    m_source = layer.get();
    m_generation = generation;
    return m_copy;
}

}  // namespace lucent::ui
