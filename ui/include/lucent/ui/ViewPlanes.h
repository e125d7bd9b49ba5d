/// @brief A slice view's plane textures and the CUDA links that fill them (see SharedTextures::preparePlanes).
#pragma once

#include "lucent/gpu/GlTextureLink.h"
#include "lucent/render/PlaneTextures.h"

#include <memory>

namespace lucent::ui {

/// Owned by one view; release() with a context of the share group current.
struct ViewPlanes {
    render::PlaneTextures textures;
    std::unique_ptr<gpu::GlTextureLink> volumeLink, previewLink, heatLink;  // registrations of textures' names
    int volumeGeneration = -1;  ///< the model's volume the volume plane came from
    long previewSerial = -1;    ///< the last preview change the preview plane holds
    long heatSerial = -1;       ///< the soft map the heat plane holds

    void release() {
        volumeLink.reset();
        previewLink.reset();
        heatLink.reset();
        textures.release();
        volumeGeneration = -1;
        previewSerial = -1;
        heatSerial = -1;
    }
};

}  // namespace lucent::ui
