/// @brief The volume and its label map as 3D textures, uploaded once and shared by every view.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/Volume.h"

#include <array>
#include <cstdint>

namespace lucent::render {

/// Owns GL texture names; create, update and destroy with a context of the share group current.
class VolumeTextures {
public:
    VolumeTextures() = default;
    ~VolumeTextures();
    VolumeTextures(const VolumeTextures&) = delete;
    VolumeTextures& operator=(const VolumeTextures&) = delete;

    /// Uploads the voxels: int16 as R16_SNORM (2 bytes a voxel, filterable), float as R32F.
    /// Returns false with `error` set when the GL refuses (too large for the driver).
    bool uploadVolume(const Volume& volume, std::string& error);
    /// Uploads labels on the same grid (R8UI, nearest); an empty map removes the overlay.
    void uploadLabels(const LabelMap& labels);
    void setInterpolation(bool linear);
    /// Frees the textures (needs a current context of the share group).
    void release();

    unsigned volumeTexture() const { return m_volume; }
    unsigned labelTexture() const { return m_labels; }
    unsigned colourTable() const { return m_colours; }
    bool hasVolume() const { return m_volume != 0; }
    bool hasLabels() const { return m_hasLabels; }
    /// value = texel * scale + offset (undoes the SNORM normalisation).
    float valueScale() const { return m_scale; }
    std::array<int, 3> dims() const { return m_dims; }

private:
    unsigned m_volume = 0, m_labels = 0, m_colours = 0;
    bool m_hasLabels = false;
    float m_scale = 1.0f;
    std::array<int, 3> m_dims{0, 0, 0};
};

/// RGBA colour of a label (0 transparent); the same table the shader uses.
std::array<std::uint8_t, 4> labelColour(int label);

}  // namespace lucent::render
