/// @brief The one set of volume/label textures all views share (their GL contexts share objects).
#pragma once

#include "lucent/gpu/GlTextureLink.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/render/VolumeTextures.h"
#include "lucent/ui/ResidentVolume.h"
#include "lucent/ui/ViewerModel.h"

#include <QElapsedTimer>
#include <QString>

#include <memory>

namespace lucent::ui {

class SharedTextures {
public:
    /// Starts the CUDA warm-up (driver, context, pinned staging) on a worker thread, so the first
    /// volume's upload to the GPU context does not pay for it. The volume texture is filled from
    /// `resident`'s context where interop works (none: always from host memory).
    explicit SharedTextures(const ResidentVolume* resident = nullptr);
    /// Uploads whatever changed in the model since the last call; a context of the share group
    /// must be current. Returns false with `error` when the driver refuses the volume.
    bool sync(const ViewerModel& model, QString& error);
    const render::VolumeTextures& textures() const { return m_textures; }
    render::VolumeTextures& textures() { return m_textures; }
    /// The live result from host memory: uploads `box` of `labels` into the preview texture.
    void uploadPreview(const LabelMap& labels, const VoxelBox& box);
    /// The live result from a CUDA engine: copies `box` of the device label buffer into the
    /// preview texture through CUDA-OpenGL interop (no host round trip). False when this GL cannot
    /// be mapped by CUDA (software GL, no device): the caller then uploads from host memory.
    bool copyPreviewFromDevice(const void* device, std::array<int, 3> dims, const VoxelBox& box, void* stream);
    void clearPreview();
    /// A soft map an engine wrote on the device (8 bits a voxel) into the heat texture through
    /// CUDA-OpenGL interop; false when this GL cannot be mapped (the caller uploads from the host).
    bool copyHeatFromDevice(const void* device, std::array<int, 3> dims, void* stream);
    /// Unregisters the interop link and frees the textures (a context of the share group current).
    void release();
    /// Off: CUDA results go through host memory even where interop works (to compare the two paths).
    void setInteropAllowed(bool allowed) { m_interopAllowed = allowed; }
    /// Milliseconds of the sync that took the current volume (storage and upload; benchmarks).
    double lastSyncMs() const { return m_lastSyncMs; }
    /// Whether the interop path was taken at least once (for the HUD and tests).
    bool interopUsed() const { return m_interopUsed; }
    void setInterpolation(bool linear);
    /// Whether the current volume texture was filled from the device (interop), not from the host.
    bool volumeFromDevice() const { return m_textures.volumeFilledOnDevice(); }

private:
    /// The resident context when the volume texture can be filled from it (CUDA and interop
    /// work, int16 voxels, not turned off to compare); null otherwise.
    std::shared_ptr<gpu::GpuContext> fillingContext(const ViewerModel& model) const;

    bool syncTimed(const ViewerModel& model, QString& error);

    render::VolumeTextures m_textures;
    std::unique_ptr<gpu::GlTextureLink> m_previewLink;
    const ResidentVolume* m_resident;
    double m_lastSyncMs = 0;
    unsigned m_linkedTexture = 0;
    bool m_linkFailed = false, m_interopUsed = false, m_interopAllowed = true;
    int m_volumeGeneration = -1, m_labelGeneration = -1, m_tableGeneration = -1;
    bool m_linear = false, m_linearApplied = false;
};

}  // namespace lucent::ui
