/// @brief The volume and its label map as 3D textures, uploaded once and shared by every view.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/LabelTable.h"
#include "lucent/core/Volume.h"
#include "lucent/core/VolumePlane.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lucent::render {

/// Owns GL texture names; create, update and destroy with a context of the share group current.
class VolumeTextures {
public:
    VolumeTextures() = default;
    ~VolumeTextures();
    VolumeTextures(const VolumeTextures&) = delete;
    VolumeTextures& operator=(const VolumeTextures&) = delete;

    /// Makes the volume texture and uploads the voxels: int16 as R16 (stored + 32768, 2 bytes a
    /// voxel, filterable; or see LUCENT_VOLUME_FORMAT), float as R32F. Returns false with `error`
    /// when the GL refuses (too large). `fillOnDevice`, when given and the texels are unsigned
    /// 16-bit, is offered the allocated texture's name first (CUDA interop fills it from the GPU
    /// context's resident copy); when it returns false the voxels go up from host memory.
    bool uploadVolume(const Volume& volume, std::string& error,
                      const std::function<bool(unsigned texture)>& fillOnDevice = {});
    /// Takes the volume's grid and texel format without allocating anything of its size. With
    /// `onPlanes` (int16 volumes as unsigned 16-bit texels only) the slice views draw from their own
    /// plane textures (PlaneTextures) and no whole-volume texture is made until makeWholeVolume()
    /// (a resampled oblique plane needs it). Returns whether the volume is drawn from planes.
    bool takeVolume(const Volume& volume, bool onPlanes);
    /// Makes and fills the whole-volume 3D texture of the volume taken (as uploadVolume does) if
    /// it does not exist yet.
    bool makeWholeVolume(const Volume& volume, std::string& error, const std::function<bool(unsigned texture)>& fillOnDevice = {});
    /// `plane` of an int16 volume as the texels of the volume texture (value + 32768).
    void volumePlaneTexels(const Volume& volume, const VolumePlane& plane, std::vector<std::uint16_t>& out) const;
    /// Whether slice views draw the volume from their plane textures (see takeVolume).
    bool volumeOnPlanes() const { return m_onPlanes; }
    /// Whether the whole-volume 3D texture exists.
    bool hasWholeVolume() const { return m_volume != 0; }
    /// True when the last volume texture was filled by `fillOnDevice`.
    bool volumeFilledOnDevice() const { return m_filledOnDevice; }
    /// Uploads labels on the same grid (R8UI, nearest) into the label texture allocated with the
    /// volume; `box` (inclusive voxel box) uploads only that part. An empty map hides the overlay.
    void uploadLabels(const LabelMap& labels, const VoxelBox* box = nullptr);
    /// The live result of a running method (a second R8UI texture, drawn with its outline over
    /// the labels): uploads `box` of `labels` (all when null). CUDA engines fill the same texture
    /// through interop instead (previewTexture()).
    void uploadPreview(const LabelMap& labels, const VoxelBox* box = nullptr);
    /// Replaces slice `k` of the preview with `slice` (x fastest, the volume's width x height): the
    /// snake's scrubber shows an earlier step's fill. Ignored while the preview is stale (not whole).
    void uploadPreviewSlice(int k, const std::uint8_t* slice);
    /// Shows or hides the preview (hiding keeps the texture; showing again needs no upload).
    void setPreviewShown(bool shown) { m_hasPreview = shown; }
    /// Preview values not drawn: bit v of word v / 32 (fuzzy C-means' unticked clusters).
    void setPreviewHidden(const std::array<std::uint32_t, 8>& bits) { m_previewHidden = bits; }
    const std::array<std::uint32_t, 8>& previewHidden() const { return m_previewHidden; }
    /// The label each preview value goes into on Accept (region growing's 1: the Accept as label;
    /// fuzzy C-means' clusters: their new labels): the preview is drawn in that label's colour.
    /// Identity until set. Re-uploads the colour table's preview row when it changes.
    void setPreviewTargets(const std::array<std::uint8_t, 256>& targets);
    /// A soft map (FCM membership, FC connectivity; 0..1 on the volume's grid, 8 bits a voxel,
    /// linear filtering) drawn as a heat overlay; an empty vector removes it.
    void uploadHeat(const std::vector<std::uint8_t>& values);
    bool hasHeat() const { return m_hasHeat; }
    /// The heat texture (R8, the volume's size), made without data if it does not exist yet, for a
    /// writer other than uploadHeat (CUDA interop); setHeatShown(true) once it holds a whole map.
    unsigned heatTextureMade();
    void setHeatShown(bool shown) { m_hasHeat = shown && m_heat != 0; }
    /// A soft map shown from the views' plane textures (no 3D heat texture needed).
    void setHeatOnPlanes(bool shown) { m_hasHeat = shown; }
    unsigned heatTexture() const { return m_heat; }
    /// Hides the preview; the next upload into it writes the whole map (a new run starts from nothing).
    void clearPreview();
    /// True until the preview texture holds a whole map (after allocation or clearPreview()): a
    /// writer that fills it some other way (CUDA interop) must then write it whole, then call
    /// previewWritten().
    bool previewStale() const { return m_previewStale; }
    void previewWritten() { m_previewStale = false; }
    void setInterpolation(bool linear);
    bool linear() const { return m_linear; }
    /// Writes the label colour table (256 x 1 RGBA) from `table`: each label's colour, with alpha
    /// its opacity, 0 when hidden; values without an entry keep their default colour, opaque.
    void updateColourTable(const LabelTable& table);
    /// Frees the textures (needs a current context of the share group).
    void release();

    unsigned volumeTexture() const { return m_volume; }
    unsigned labelTexture() const { return m_labels; }
    unsigned previewTexture() const { return m_preview; }
    /// The preview texture, made (storage only, stale) if it does not exist yet: for writers
    /// other than uploadPreview (CUDA interop registers it by name).
    unsigned previewTextureMade();
    bool hasPreview() const { return m_hasPreview; }
    unsigned colourTable() const { return m_colours; }
    /// A volume was taken (its texture, or the views' planes, hold it).
    bool hasVolume() const { return m_volume != 0 || m_onPlanes; }
    bool hasLabels() const { return m_hasLabels; }
    /// value = texel * scale + offset (undoes the normalisation of 16-bit texels).
    float valueScale() const { return m_scale; }
    float valueOffset() const { return m_offset; }
    std::array<int, 3> dims() const { return m_dims; }

private:
    void makeColourTable();
    /// Allocates a zeroed R8UI texture of the volume's size (once per volume, not per update).
    void allocateLabelTexture(unsigned& name);
    enum class TexelFormat { Snorm16, Unorm16, Float32 };
    static TexelFormat chooseFormat(const Volume& volume);
    std::size_t texelBytes() const;
    /// Writes every voxel converted to the texture's format (unorm or float) to `out`.
    void fillTexels(const Volume& volume, void* out) const;
    void uploadVoxels(const Volume& volume);
    void uploadBox(unsigned& texture, const LabelMap& labels, const VoxelBox* box, bool& stale);

    unsigned m_volume = 0, m_labels = 0, m_preview = 0, m_colours = 0, m_pixelBuffer = 0, m_heat = 0;
    bool m_hasHeat = false;
    bool m_filledOnDevice = false, m_onPlanes = false, m_linear = false;
    bool m_hasLabels = false, m_hasPreview = false;
    std::array<std::uint32_t, 8> m_previewHidden{};
    std::array<std::uint8_t, 256> m_previewTargets = identityTargets();
    std::vector<std::uint8_t> m_labelRgba = std::vector<std::uint8_t>(256 * 4, 0);  // row 0 of the colour table
    static std::array<std::uint8_t, 256> identityTargets();
    /// Uploads the table: row 0 each label's colour and opacity, row 1 each preview value's
    /// colour (its target label's, opaque).
    void uploadColourRows();
    bool m_labelsStale = true, m_previewStale = true;
    float m_scale = 1.0f, m_offset = 0.0f;
    TexelFormat m_format = TexelFormat::Unorm16;
    std::array<int, 3> m_dims{0, 0, 0};
};

/// RGBA colour of a label (0 transparent); the same table the shader uses.
std::array<std::uint8_t, 4> labelColour(int label);

}  // namespace lucent::render
