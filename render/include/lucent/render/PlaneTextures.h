/// @brief A slice view's own 2D textures of the plane it shows: the volume's (unsigned 16-bit texels),
/// the live preview's (8-bit labels) and a soft map's (8-bit heat). A volume kept on the GPU then
/// needs no whole-volume GL texture.
#pragma once

#include "lucent/core/VolumePlane.h"

#include <array>
#include <cstdint>
#include <optional>

namespace lucent::render {

/// Owns GL texture names; create, fill and release with a context of the share group current.
/// The textures are remade only when the plane's size changes (another orientation or volume).
class PlaneTextures {
public:
    PlaneTextures() = default;
    PlaneTextures(const PlaneTextures&) = delete;
    PlaneTextures& operator=(const PlaneTextures&) = delete;

    /// Sizes both textures for `size` (width, height); true when they were remade (new names: a
    /// CUDA registration of the old ones is void, and both hold nothing).
    bool allocate(std::array<int, 2> size);
    /// The volume's plane from host memory (size[0] x size[1] texels, i fastest).
    void uploadVolume(const std::uint16_t* texels);
    /// The preview's plane from host memory (labels, i fastest).
    void uploadPreview(const std::uint8_t* labels);
    /// A soft map's plane (0..255 for 0..1) from host memory.
    void uploadHeat(const std::uint8_t* heat);
    void setInterpolation(bool linear);
    bool linear() const { return m_linear; }
    void release();

    unsigned volumeTexture() const { return m_volume; }
    unsigned previewTexture() const { return m_preview; }
    unsigned heatTexture() const { return m_heat; }
    std::array<int, 2> size() const { return m_size; }

    /// What the textures hold now (empty: nothing valid): the shader draws from them only when
    /// the view's plane is the one they hold.
    std::optional<VolumePlane> volumePlane, previewPlane, heatPlane;

private:
    unsigned m_volume = 0, m_preview = 0, m_heat = 0;
    std::array<int, 2> m_size{0, 0};
    bool m_linear = false;
};

}  // namespace lucent::render
