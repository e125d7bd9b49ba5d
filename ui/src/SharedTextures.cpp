/// @brief Upload-on-change for the shared textures.
#include "lucent/ui/SharedTextures.h"

#include "lucent/gpu/DeviceInfo.h"

#include <QThreadPool>

#include <cmath>
#include <cstdlib>
#include <string>

namespace lucent::ui {

SharedTextures::SharedTextures(const ResidentVolume* resident) : m_resident(resident) {
    // QThreadPool's global pool is waited for when the application ends: no detached CUDA work.
    QThreadPool::globalInstance()->start([] { gpu::warmUp(); });
}

bool SharedTextures::sync(const ViewerModel& model, QString& error) {
    if (!model.hasVolume()) return true;
    QElapsedTimer clock;
    clock.start();
    const int generation = m_volumeGeneration;
    const bool ok = syncTimed(model, error);
    if (generation != m_volumeGeneration) m_lastSyncMs = clock.nsecsElapsed() / 1e6;  // the sync that took a new volume
    return ok;
}

bool SharedTextures::syncTimed(const ViewerModel& model, QString& error) {
    if (model.volumeGeneration() != m_volumeGeneration) {
        m_previewLink.reset();  // unregister before the texture it maps is deleted and remade
        m_linkedTexture = 0;
        m_linkFailed = false;
        std::string why;
        const auto device = fillingContext(model);
        auto fillOnDevice = [&device](unsigned texture) {
            if (!device) return false;
            try {
                gpu::GlTextureLink(texture).fillFromVolume(*device);
                return true;
            } catch (const std::exception&) {
                return false;  // GL that CUDA cannot map: the host upload follows
            }
        };
        if (!m_textures.uploadVolume(*model.volume(), why, fillOnDevice)) {
            error = QString::fromStdString(why);
            return false;
        }
        m_volumeGeneration = model.volumeGeneration();
        m_linearApplied = false;
    }
    if (model.labelGeneration() != m_labelGeneration) {
        // One change since the last upload with a known box: upload only that box.
        const auto box = m_labelGeneration >= 0 ? model.labelChangeSince(m_labelGeneration) : std::nullopt;
        const bool boxOnly = box.has_value();
        m_textures.uploadLabels(model.labels() ? *model.labels() : LabelMap(), boxOnly ? &*box : nullptr);
        m_labelGeneration = model.labelGeneration();
    }
    if (model.labelTableGeneration() != m_tableGeneration) {
        m_textures.updateColourTable(model.labelTable());
        m_tableGeneration = model.labelTableGeneration();
    }
    if (!m_linearApplied) {
        m_textures.setInterpolation(m_linear);
        m_linearApplied = true;
    }
    return true;
}

std::shared_ptr<gpu::GpuContext> SharedTextures::fillingContext(const ViewerModel& model) const {
    const Volume& volume = *model.volume();
    // Only where the texture can take it from the device: interop allowed (not the software GL of
    // CI), int16 voxels (the unsigned 16-bit texels), and not turned off to compare.
    const char* path = std::getenv("LUCENT_VOLUME_UPLOAD");
    if (!m_resident || !m_interopAllowed || m_linkFailed || volume.pixelType() != PixelType::Int16 ||
        (path && std::string(path) == "host"))
        return nullptr;
    return m_resident->context(&volume);
}

void SharedTextures::uploadPreview(const LabelMap& labels, const VoxelBox& box) {
    if (m_textures.hasVolume()) m_textures.uploadPreview(labels, &box);
}

bool SharedTextures::copyPreviewFromDevice(const void* device, std::array<int, 3> dims, const VoxelBox& box, void* stream) {
    if (!m_interopAllowed || !m_textures.hasVolume() || dims != m_textures.dims()) return false;
    m_textures.previewTextureMade();
    if (m_linkedTexture != m_textures.previewTexture()) {  // a new volume made a new texture
        m_previewLink.reset();
        m_linkFailed = false;
    }
    if (m_linkFailed) return false;
    try {
        if (!m_previewLink) {
            m_previewLink = std::make_unique<gpu::GlTextureLink>(m_textures.previewTexture());
            m_linkedTexture = m_textures.previewTexture();
        }
        const VoxelBox whole{{0, 0, 0}, {dims[0] - 1, dims[1] - 1, dims[2] - 1}};
        m_previewLink->copyFrom(device, dims, 1, m_textures.previewStale() ? whole : box, stream);
        m_textures.previewWritten();
    } catch (const std::exception&) {
        // Registration fails on GL that CUDA cannot map (Mesa in CI): host uploads from now on.
        m_previewLink.reset();
        m_linkFailed = true;
        return false;
    }
    m_textures.setPreviewShown(true);
    m_interopUsed = true;
    return true;
}

void SharedTextures::clearPreview() { m_textures.clearPreview(); }

bool SharedTextures::copyHeatFromDevice(const void* device, std::array<int, 3> dims, void* stream) {
    if (!m_interopAllowed || m_linkFailed || !m_textures.hasVolume() || dims != m_textures.dims()) return false;
    try {
        // Registered for this copy only: showing a soft map is a user's action, not a per-frame one,
        // and the host path re-specifies the texture (which would void a kept registration).
        gpu::GlTextureLink link(m_textures.heatTextureMade());
        link.copyFrom(device, dims, 1, VoxelBox{{0, 0, 0}, {dims[0] - 1, dims[1] - 1, dims[2] - 1}}, stream);
    } catch (const std::exception&) {
        return false;
    }
    m_textures.setHeatShown(true);
    m_interopUsed = true;
    return true;
}

void SharedTextures::release() {
    m_previewLink.reset();
    m_linkedTexture = 0;
    m_textures.release();
    m_volumeGeneration = m_labelGeneration = m_tableGeneration = -1;
}

void SharedTextures::setInterpolation(bool linear) {
    m_linear = linear;
    m_linearApplied = false;
}

}  // namespace lucent::ui
