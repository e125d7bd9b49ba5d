/// @brief A copy of the model's label layer for a worker thread, brought up to date on the GUI thread
/// by copying only the box that changed since the last sync (a brush stroke: kilobytes), the whole
/// layer only when that box is unknown (a new layer, an accept or undo of the whole layer).
#pragma once

#include "lucent/core/LabelMap.h"

#include <cstddef>
#include <memory>

namespace lucent::ui {

class ViewerModel;

class LabelMirror {
public:
    explicit LabelMirror(const ViewerModel& model) : m_model(model) {}

    /// The layer as it is now (null without one). Call on the GUI thread, and only while no worker
    /// reads the previous result: the same map is updated in place.
    std::shared_ptr<const LabelMap> sync();
    /// Bytes copied by the last sync() (what the GUI thread paid).
    std::size_t lastCopiedBytes() const { return m_copied; }

private:
    const ViewerModel& m_model;
    std::shared_ptr<LabelMap> m_copy;
    const LabelMap* m_source = nullptr;  // the layer m_copy mirrors
    int m_generation = -1;
    std::size_t m_copied = 0;
};

}  // namespace lucent::ui
