/// @brief The one owner of the volume on the GPU: the GpuContext made when the viewer takes a volume
/// (not inside a paint), shared by the volume texture (filled from it through interop), live runs,
/// their soft maps (scratch from the context) and the 3D pane's coarse copies. Nothing else uploads,
/// allocates or downloads a whole volume on the device.
#pragma once

#include "lucent/core/Volume.h"
#include "lucent/gpu/GpuContext.h"

#include <QString>

#include <memory>

namespace lucent::ui {

class ResidentVolume {
public:
    /// Drops the previous volume's context, then uploads `volume` where a CUDA device is present.
    /// Never throws: a volume the device cannot hold (out of memory) leaves no context, and
    /// failure() says why (the runs then go to the CPU and say so).
    void take(std::shared_ptr<const Volume> volume);
    /// Frees the device memory (the window closes; a run that still holds the context keeps it).
    void release();
    /// The context holding `volume`, null when none does (no device, another volume, no room).
    std::shared_ptr<gpu::GpuContext> context(const Volume* volume) const;
    /// Why the current volume is not resident ("no CUDA device", the device's out-of-memory
    /// message), empty when it is.
    const QString& failure() const { return m_failure; }

private:
    std::shared_ptr<const Volume> m_volume;  // kept alive while its context refers to it
    std::shared_ptr<gpu::GpuContext> m_context;
    QString m_failure;
};

}  // namespace lucent::ui
