/// @brief Taking a volume onto the device once per load (ResidentVolume.h).
#include "lucent/ui/ResidentVolume.h"

#include "lucent/gpu/DeviceInfo.h"

namespace lucent::ui {

void ResidentVolume::take(std::shared_ptr<const Volume> volume) {
    release();  // the previous volume's device memory goes first
    m_failure.clear();
    if (!volume || volume->empty()) return;
    if (gpu::listDevices().empty()) {
        m_failure = "no CUDA device";
        return;
    }
    try {
        m_context = std::make_shared<gpu::GpuContext>(*volume);
        m_volume = std::move(volume);
    } catch (const std::exception& e) {
        m_failure = QString::fromStdString(e.what());  // the views still work from host memory
    }
}

void ResidentVolume::release() {
    m_context.reset();
    m_volume.reset();
}

std::shared_ptr<gpu::GpuContext> ResidentVolume::context(const Volume* volume) const {
    return volume && volume == m_volume.get() ? m_context : nullptr;
}

}  // namespace lucent::ui
