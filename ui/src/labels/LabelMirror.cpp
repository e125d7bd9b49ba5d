/// @brief The label layer mirrored for the autosave's worker: changed boxes on the GUI thread, the
/// whole layer on the worker while the layer's changes wait.
#include "lucent/ui/LabelMirror.h"

#include "lucent/core/ParallelFor.h"
#include "lucent/ui/ViewerModel.h"

#include <algorithm>
#include <cstring>

namespace lucent::ui {

namespace {

/// What copyWhole takes to the worker; the reader token is released when it ran or was dropped.
struct WholeCopy {
    std::shared_ptr<const LabelMap> from;
    std::shared_ptr<LabelMap> to;
    std::shared_ptr<void> readerToken;
    std::shared_ptr<std::atomic<bool>> done;
    std::shared_ptr<std::atomic<int>> count;

    void run() {
        if (!from) return;  // ran already
        const std::size_t n = from->voxelCount(), slab = std::size_t(16) << 20;
        // Made here, not on the GUI thread: a new map of 1 GiB is a pass of its own.
        if (to->voxelCount() != n || !(to->geometry().dims == from->geometry().dims)) *to = LabelMap(from->geometry());
        // In slabs on every core.
        parallelFor((n + slab - 1) / slab, 0, [&](std::size_t s) {
            const std::size_t at = s * slab;
            std::memcpy(to->data() + at, from->data() + at, std::min(slab, n - at));
        });
        ++*count;
        done->store(true);
        from.reset();
        readerToken.reset();  // the layer may change again
    }
};

}  // namespace

LabelMirror::Sync LabelMirror::sync() {
    m_copied = 0;
    const std::shared_ptr<const LabelMap> layer = m_model.labels();
    if (!layer) {
        m_copy.reset();
        m_source = nullptr;
        return {};
    }
    const int generation = m_model.labelGeneration();
    // A whole copy handed out but never run (its write was dropped) left the mirror behind.
    const bool current = m_copy && m_source == layer.get() && m_wholeDone->load();
    if (current && generation == m_generation) return {m_copy, {}};
    const std::optional<VoxelBox> box = current ? m_model.labelChangeSince(m_generation) : std::nullopt;
    m_source = layer.get();
    m_generation = generation;
    if (!box) {
        if (!m_copy) m_copy = std::make_shared<LabelMap>();  // sized by the copy, on the worker
        m_wholeDone = std::make_shared<std::atomic<bool>>(false);
        auto whole = std::make_shared<WholeCopy>(
            WholeCopy{layer, m_copy, m_model.layerReaders().hold(), m_wholeDone, m_wholeCopies});
        return {m_copy, [whole] { whole->run(); }};
    }
    const auto& d = layer->geometry().dims;
    if (!box->empty()) {
        const int lo0 = std::max(box->lo[0], 0), hi0 = std::min(box->hi[0], d[0] - 1);
        for (int k = std::max(box->lo[2], 0); k <= std::min(box->hi[2], d[2] - 1); ++k)
            for (int j = std::max(box->lo[1], 0); j <= std::min(box->hi[1], d[1] - 1); ++j) {
                const std::size_t at = (std::size_t(k) * std::size_t(d[1]) + std::size_t(j)) * std::size_t(d[0]) + lo0;
                const std::size_t n = std::size_t(hi0 - lo0 + 1);
                std::memcpy(m_copy->data() + at, layer->data() + at, n);
                m_copied += n;
            }
    }
    return {m_copy, {}};
}

}  // namespace lucent::ui
