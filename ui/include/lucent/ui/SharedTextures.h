/// @brief The one set of volume/label textures all views share (their GL contexts share objects).
#pragma once

#include "lucent/gpu/GlTextureLink.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/render/VolumeTextures.h"
#include "lucent/ui/ResidentVolume.h"
#include "lucent/ui/ViewPlanes.h"
#include "lucent/ui/ViewerModel.h"

#include <QElapsedTimer>
#include <QString>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace lucent::ui {

/// Where the slice views sample the volume and the live preview. `Planes`: each view's own 2D
/// textures of the plane it shows, filled from the GPU context through interop (from host memory
/// without one): no whole-volume GL texture, so the volume and the live labels each exist once on
/// the GPU. `WholeVolume`: 3D textures shared by every view. `Automatic`: planes where the GPU
/// context holds the volume and GL can be mapped by CUDA, else the whole volume.
/// LUCENT_SLICE_TEXTURES=planes|volume overrides Automatic (to compare the two).
enum class SliceTextures { Automatic, Planes, WholeVolume };

class SharedTextures {
public:
    /// Runs its argument while the live preview's source (the worker's label sink) is not being
    /// written; see setPreviewAccess().
    using PreviewAccess = std::function<void(const std::function<void()>&)>;

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
    /// The snake scrubber's earlier step: slice `k` (x fastest, width x height) of the preview
    /// replaced by `slice` until the next change of the preview.
    void showPreviewSlice(int k, const std::vector<std::uint8_t>& slice);
    /// How a view reads the preview's source again when it shows another plane (planes only).
    /// The live run sets it; without it the source is read as it is.
    void setPreviewAccess(PreviewAccess access) { m_previewAccess = std::move(access); }
    /// The run that wrote the preview is gone (its label sink and soft map with it): views keep
    /// what they hold.
    void forgetPreviewSource();
    /// The textures `view` draws from for the plane it shows: fills `planes` with what changed on
    /// that plane (the volume once per plane, the preview where a change crossed it) and returns
    /// them; null when the views sample the whole-volume textures (made here if an oblique plane
    /// needs them). A context of the share group current, after sync().
    const render::PlaneTextures* preparePlanes(ViewPlanes& planes, const render::SliceViewGeometry& view, const ViewerModel& model);
    /// Automatic by default; takes effect with the next volume.
    void setSliceTextures(SliceTextures mode) { m_mode = mode; }
    /// Whether the current volume is drawn from the views' planes.
    bool onPlanes() const { return m_textures.volumeOnPlanes(); }
    /// A soft map an engine wrote on the device (8 bits a voxel) into the heat texture through
    /// CUDA-OpenGL interop; false when this GL cannot be mapped (the caller uploads from the host).
    /// With plane textures, the map is not copied: the views copy their planes of it when they
    /// paint, so `device` must hold the whole map (written and waited for) until the next call,
    /// uploadHeat() or forgetPreviewSource().
    bool copyHeatFromDevice(const void* device, std::array<int, 3> dims, void* stream);
    /// A soft map from host memory (8 bits a voxel; empty hides it), into the 3D heat texture.
    void uploadHeat(const std::vector<std::uint8_t>& values);
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
    bool takeVolume(const ViewerModel& model, QString& error);
    bool makeWholeVolume(const ViewerModel& model, QString& error);
    /// Copies `box` of the device labels into the 3D preview texture through interop.
    bool copyWholePreviewBox(const void* device, std::array<int, 3> dims, const VoxelBox& box, void* stream);
    bool planesWanted(const ViewerModel& model) const;
    /// A preview change: `box` of the volume (whole when empty), for the planes it crosses.
    void notePreviewChange(std::optional<VoxelBox> box);
    bool previewChangedOn(const VolumePlane& plane, long since) const;
    void fillVolumePlane(ViewPlanes& planes, const VolumePlane& plane, const ViewerModel& model);
    void fillPreviewPlane(ViewPlanes& planes, const VolumePlane& plane);
    void fillHeatPlane(ViewPlanes& planes, const VolumePlane& plane);
    /// The whole-volume textures for a view on an oblique plane (planes on): volume and preview.
    void makeWholeTextures(const ViewerModel& model);
    /// Copies the preview's source whole into the 3D preview texture (under the access).
    void fillWholePreview();
    /// Registration of a plane texture failed: no interop here, everything from the whole
    /// textures from now on.
    void leavePlanes(const ViewerModel& model);

    render::VolumeTextures m_textures;
    std::unique_ptr<gpu::GlTextureLink> m_previewLink;
    const ResidentVolume* m_resident;
    double m_lastSyncMs = 0;
    unsigned m_linkedTexture = 0;
    bool m_linkFailed = false, m_interopUsed = false, m_interopAllowed = true;
    int m_volumeGeneration = -1, m_labelGeneration = -1, m_tableGeneration = -1;
    bool m_linear = false, m_linearApplied = false;

    SliceTextures m_mode = SliceTextures::Automatic;
    // The preview's source for the planes (one of the two) and the changes since (serial, box;
    // nullopt: everything), so each view refills only a plane that a change crossed.
    const void* m_previewDevice = nullptr;
    std::array<int, 3> m_previewDims{0, 0, 0};
    const LabelMap* m_previewHost = nullptr;
    PreviewAccess m_previewAccess;
    std::optional<std::pair<int, std::vector<std::uint8_t>>> m_sliceShown;  // showPreviewSlice
    long m_previewSerial = 0;
    std::deque<std::pair<long, std::optional<VoxelBox>>> m_previewChanges;
    bool m_wholePreviewKept = false;  // planes on, and an oblique view made the 3D preview: keep it too
    const void* m_heatDevice = nullptr;  // planes: the soft map shown, on the device
    long m_heatSerial = 0;
};

}  // namespace lucent::ui
