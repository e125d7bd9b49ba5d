/// @brief A live run's soft map as a heat overlay (SoftMapOverlay.h): the device path first, else the host map.
#include "lucent/ui/SoftMapOverlay.h"

#include <algorithm>
#include <cmath>

namespace lucent::ui {

bool SoftMapOverlay::show(int index) {
    m_fromDevice = index >= 0 && m_source.copyFromDevice && m_source.copyFromDevice(index);
    if (m_fromDevice) {
        m_shown = index;
        m_source.redraw();
        return true;
    }
    std::vector<std::uint8_t> values;
    if (index >= 0) {
        const std::vector<Volume> maps = m_source.hostMaps();
        if (index >= int(maps.size())) return false;
        values = heatValues(maps[std::size_t(index)]);
    }
    m_shown = values.empty() ? -1 : index;
    m_source.uploadHeat(values);
    m_source.redraw();
    return index < 0 || m_shown == index;
}

void SoftMapOverlay::hide() {
    if (m_shown >= 0) show(-1);
}

std::vector<std::uint8_t> SoftMapOverlay::heatValues(const Volume& map) {
    std::vector<std::uint8_t> values(map.voxelCount());
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = std::uint8_t(std::lround(std::clamp(map.value(i), 0.0, 1.0) * 255.0));
    return values;
}

}  // namespace lucent::ui
