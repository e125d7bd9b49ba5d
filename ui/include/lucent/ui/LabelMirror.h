/// @brief A copy of the model's label layer for a worker thread, brought up to date on the GUI thread
/// by copying only the box that changed since the last sync (a brush stroke: kilobytes). A change of
/// unknown extent (a new layer, an accept or undo of the whole layer) is copied by the worker, with
/// the layer's changes held back meanwhile (LayerReaders): the GUI thread never copies the layer.
#pragma once

#include "lucent/core/LabelMap.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>

namespace lucent::ui {

class ViewerModel;

class LabelMirror {
public:
    explicit LabelMirror(const ViewerModel& model) : m_model(model) {}

    struct Sync {
        /// The mirror (null without a layer): equal to the layer as it is now once `copyWhole` ran.
        std::shared_ptr<const LabelMap> labels;
        /// Empty, or the whole layer's copy into `labels`: run it on the worker before reading
        /// `labels`. The layer's changes wait until it ran or was dropped unrun (then the next sync
        /// copies the whole layer again).
        std::function<void()> copyWhole;
    };
    /// The layer as it is now. Call on the GUI thread, and only while no worker reads the previous
    /// result: the same map is updated in place.
    Sync sync();
    /// Bytes the GUI thread copied in the last sync() (a changed box; never the whole layer).
    std::size_t lastCopiedBytes() const { return m_copied; }
    /// Whole-layer copies run by copyWhole so far (on the worker).
    int wholeCopies() const { return m_wholeCopies->load(); }

private:
    const ViewerModel& m_model;
    std::shared_ptr<LabelMap> m_copy;
    const LabelMap* m_source = nullptr;  // the layer m_copy mirrors
    int m_generation = -1;
    std::size_t m_copied = 0;
    /// The last copyWhole ran (false while one is handed out and has not run).
    std::shared_ptr<std::atomic<bool>> m_wholeDone = std::make_shared<std::atomic<bool>>(true);
    std::shared_ptr<std::atomic<int>> m_wholeCopies = std::make_shared<std::atomic<int>>(0);
};

}  // namespace lucent::ui
