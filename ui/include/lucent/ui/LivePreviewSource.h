/// @brief What the 3D pane reads of a live run: whether one is active, a coarse copy of its result and
/// the label each preview value goes into. LiveSegmentation provides it; the 3D pane knows only this,
/// and the window connects the run's signals to the pane's slots (no include runs back from the views).
#pragma once

#include "lucent/core/LabelMap.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace lucent::ui {

class LivePreviewSource {
public:
    virtual ~LivePreviewSource() = default;
    virtual bool active() const = 0;
    /// A coarse host copy of the live result, at most `maxCells` cells (LiveSegmentation.h says how).
    virtual bool copyPreviewReduced(std::size_t maxCells, LabelMap& out) = 0;
    virtual const std::array<std::uint8_t, 256>& previewTargets() const = 0;
};

}  // namespace lucent::ui
