/// @brief Keep-the-clicked-island clicks.
#include "lucent/ui/IslandPickTool.h"

#include "lucent/core/LabelIslands.h"
#include "lucent/ui/ViewerModel.h"

#include <cmath>

namespace lucent::ui {

bool IslandPickTool::press(const render::SliceViewGeometry& view, double x, double y, bool) {
    if (!m_model->hasVolume()) return false;
    const Vec3 v = view.screenToVoxel(x, y);
    const int i = int(std::lround(v.x)), j = int(std::lround(v.y)), k = int(std::lround(v.z));
    const Geometry& g = view.geometry();
    if (!g.contains(i, j, k)) return false;
    const auto labels = m_model->labels();
    const std::size_t index = g.index(i, j, k);
    const std::uint8_t value = labels ? (*labels)[index] : 0;
    if (!value) {
        if (refused) refused("Click a labelled voxel to keep its island");
        return true;
    }
    const LabelInfo* info = m_model->labelTable().find(value);
    if (info && info->locked) {
        if (refused) refused(info->name + " is locked: unlock it to edit its islands");
        return true;
    }
    m_model->editLabels([index](LabelMap& layer) { keepIslandAt(layer, index); }, "Keep clicked island");
    return true;
}

}  // namespace lucent::ui
