/// @brief Upload-on-change for the shared textures.
#include "lucent/ui/SharedTextures.h"

#include "lucent/core/StageTimes.h"
#include "lucent/core/VolumePlane.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/DeviceVolume.h"

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
        if (!takeVolume(model, error)) return false;
        m_volumeGeneration = model.volumeGeneration();
        m_linearApplied = false;
    }
    if (model.labelGeneration() != m_labelGeneration) {
        // One change since the last upload with a known box: upload only that box.
        const auto box = m_labelGeneration >= 0 ? model.labelChangeSince(m_labelGeneration) : std::nullopt;
        stages::Scope scope(box ? "textures: the labels' changed box into the 3D texture" : "textures: the labels whole into the 3D texture");
        // The layer by reference: `labels ? *labels : LabelMap()` would be a copy of the whole layer
        // at every brush dab (a prvalue), which cost more than the upload of its box.
        if (const std::shared_ptr<const LabelMap> layer = model.labels()) m_textures.uploadLabels(*layer, box ? &*box : nullptr);
        else m_textures.uploadLabels(LabelMap());
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

bool SharedTextures::takeVolume(const ViewerModel& model, QString& error) {
    m_previewLink.reset();  // unregister before the texture it maps is deleted and remade
    m_linkedTexture = 0;
    m_linkFailed = false;
    forgetPreviewSource();
    m_wholePreviewKept = false;
    notePreviewChange(std::nullopt);
    if (m_textures.takeVolume(*model.volume(), planesWanted(model))) return true;  // the views fill their planes
    return makeWholeVolume(model, error);
}

bool SharedTextures::makeWholeVolume(const ViewerModel& model, QString& error) {
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
    std::string why;
    if (!m_textures.makeWholeVolume(*model.volume(), why, fillOnDevice)) {
        error = QString::fromStdString(why);
        return false;
    }
    return true;
}

bool SharedTextures::planesWanted(const ViewerModel& model) const {
    SliceTextures mode = m_mode;
    if (mode == SliceTextures::Automatic) {
        const char* env = std::getenv("LUCENT_SLICE_TEXTURES");
        const std::string e = env ? env : "";
        mode = e == "planes" ? SliceTextures::Planes : e == "volume" ? SliceTextures::WholeVolume : SliceTextures::Automatic;
    }
    if (mode == SliceTextures::WholeVolume) return false;
    return mode == SliceTextures::Planes || fillingContext(model) != nullptr;
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
    if (!m_textures.hasVolume()) return;
    if (!m_textures.volumeOnPlanes()) return m_textures.uploadPreview(labels, &box);
    // The views copy the planes they show from the map when they paint.
    m_previewHost = &labels;
    m_previewDevice = nullptr;
    notePreviewChange(m_textures.previewStale() ? std::nullopt : std::optional<VoxelBox>(box));
    if (m_wholePreviewKept) return m_textures.uploadPreview(labels, &box);  // whole while stale, as ever
    m_textures.previewWritten();
    m_textures.setPreviewShown(true);
}

bool SharedTextures::copyPreviewFromDevice(const void* device, std::array<int, 3> dims, const VoxelBox& box, void* stream) {
    if (!m_interopAllowed || m_linkFailed || !m_textures.hasVolume() || dims != m_textures.dims()) return false;
    if (m_textures.volumeOnPlanes()) {
        // The views copy the planes they show from the device buffer when they paint.
        m_previewDevice = device;
        m_previewDims = dims;
        m_previewHost = nullptr;
        notePreviewChange(m_textures.previewStale() ? std::nullopt : std::optional<VoxelBox>(box));
        m_interopUsed = true;
        if (!m_wholePreviewKept) {
            m_textures.previewWritten();
            m_textures.setPreviewShown(true);
            return true;
        }
    }
    return copyWholePreviewBox(device, dims, box, stream);  // whole while stale
}

bool SharedTextures::copyWholePreviewBox(const void* device, std::array<int, 3> dims, const VoxelBox& box, void* stream) {
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

void SharedTextures::clearPreview() {
    m_textures.clearPreview();
    m_sliceShown.reset();
    notePreviewChange(std::nullopt);
}

void SharedTextures::forgetPreviewSource() {
    m_previewDevice = nullptr;
    m_previewHost = nullptr;
    if (m_heatDevice) m_textures.setHeatOnPlanes(false);
    m_heatDevice = nullptr;
}

void SharedTextures::showPreviewSlice(int k, const std::vector<std::uint8_t>& slice) {
    const auto d = m_textures.dims();
    if (!m_textures.volumeOnPlanes() || m_wholePreviewKept) m_textures.uploadPreviewSlice(k, slice.data());
    if (!m_textures.volumeOnPlanes() || k < 0 || k >= d[2]) return;
    // The views' planes: the axial plane k shows it; the others cross that slice in one row or
    // column and show the source's (the run's present result) there.
    notePreviewChange(std::nullopt);
    m_sliceShown = std::make_pair(k, slice);
}

void SharedTextures::notePreviewChange(std::optional<VoxelBox> box) {
    if (!box || box->empty() == false) m_previewChanges.emplace_back(++m_previewSerial, box);
    // Enough for the frames between two paints of a view; a view further behind refills its planes.
    while (m_previewChanges.size() > 64) m_previewChanges.pop_front();
    if (box) m_sliceShown.reset();  // a change of the run's result ends the scrubber's slice
}

bool SharedTextures::previewChangedOn(const VolumePlane& plane, long since) const {
    if (m_previewChanges.empty() || since >= m_previewSerial) return false;
    if (since < m_previewChanges.front().first - 1) return true;  // older than the log
    for (const auto& [serial, box] : m_previewChanges)
        if (serial > since && (!box || (box->lo[plane.normal] <= plane.index && plane.index <= box->hi[plane.normal])))
            return true;
    return false;
}

const render::PlaneTextures* SharedTextures::preparePlanes(ViewPlanes& planes, const render::SliceViewGeometry& view,
                                                          const ViewerModel& model) {
    if (!m_textures.volumeOnPlanes() || !model.hasVolume()) return nullptr;
    const auto shown = view.shownVolumePlane();
    if (!shown) {
        makeWholeTextures(model);
        return nullptr;
    }
    if (planes.textures.linear() != m_linear) planes.textures.setInterpolation(m_linear);
    if (planes.textures.allocate(planeSize(*shown, m_textures.dims()))) {
        planes.volumeLink.reset();  // registrations of the old names
        planes.previewLink.reset();
    }
    if (planes.textures.volumePlane != shown || planes.volumeGeneration != m_volumeGeneration)
        fillVolumePlane(planes, *shown, model);
    if (!m_textures.volumeOnPlanes()) return nullptr;  // interop failed on the way: whole textures now
    if (m_textures.hasPreview() && (planes.textures.previewPlane != shown || previewChangedOn(*shown, planes.previewSerial)))
        fillPreviewPlane(planes, *shown);
    if (!m_textures.hasHeat() || !m_heatDevice) planes.textures.heatPlane.reset();  // none, or the 3D texture's
    else if (planes.textures.heatPlane != shown || planes.heatSerial != m_heatSerial) fillHeatPlane(planes, *shown);
    return &planes.textures;
}

void SharedTextures::fillVolumePlane(ViewPlanes& planes, const VolumePlane& plane, const ViewerModel& model) {
    stages::Scope scope("slice view: the volume's plane");
    if (const auto device = fillingContext(model)) {
        try {
            if (!planes.volumeLink)
                planes.volumeLink = std::make_unique<gpu::GlTextureLink>(planes.textures.volumeTexture(), gpu::GlTextureLink::Shape::Texture2D);
            const auto& d = m_textures.dims();
            planes.volumeLink->copyPlane(device->deviceVolume().devicePointer(), {d[0], d[1], d[2]}, plane,
                                         gpu::GlTextureLink::PlaneElement::Int16AsUnsigned16, nullptr);
            m_interopUsed = true;
        } catch (const std::exception&) {
            return leavePlanes(model);
        }
    } else {
        std::vector<std::uint16_t> texels;
        m_textures.volumePlaneTexels(*model.volume(), plane, texels);
        planes.textures.uploadVolume(texels.data());
    }
    planes.textures.volumePlane = plane;
    planes.volumeGeneration = m_volumeGeneration;
}

void SharedTextures::fillPreviewPlane(ViewPlanes& planes, const VolumePlane& plane) {
    stages::Scope scope("slice view: the preview's plane");
    const auto& d = m_textures.dims();
    const auto size = planeSize(plane, d);
    std::vector<std::uint8_t> host;
    auto fill = [&] {
        if (m_sliceShown && plane.normal == 2 && plane.index == m_sliceShown->first) {
            planes.textures.uploadPreview(m_sliceShown->second.data());
        } else if (m_previewDevice && m_previewDims == d) {
            if (!planes.previewLink)
                planes.previewLink = std::make_unique<gpu::GlTextureLink>(planes.textures.previewTexture(), gpu::GlTextureLink::Shape::Texture2D);
            planes.previewLink->copyPlane(m_previewDevice, d, plane, gpu::GlTextureLink::PlaneElement::Byte, nullptr);
        } else {
            host.assign(std::size_t(size[0]) * std::size_t(size[1]), 0);  // no source: an empty plane
            if (m_previewHost && m_previewHost->geometry().dims == d)
                extractPlane(m_previewHost->data(), d, plane, host.data(), [](std::uint8_t v) { return v; });
            planes.textures.uploadPreview(host.data());
        }
    };
    try {
        if (m_previewAccess) m_previewAccess(fill);
        else fill();
    } catch (const std::exception&) {
        planes.previewLink.reset();  // the device plane could not be copied: shown without the preview
        return;
    }
    planes.textures.previewPlane = plane;
    planes.previewSerial = m_previewSerial;
}

void SharedTextures::makeWholeTextures(const ViewerModel& model) {
    if (!m_textures.hasWholeVolume()) {
        QString why;
        makeWholeVolume(model, why);
    }
    if (!m_wholePreviewKept) {
        m_wholePreviewKept = true;
        fillWholePreview();
        if (m_heatDevice && m_textures.hasHeat()) copyHeatFromDevice(m_heatDevice, m_textures.dims(), nullptr);
    }
}

void SharedTextures::fillWholePreview() {
    if (!m_textures.hasPreview()) return;
    const auto d = m_textures.dims();
    const VoxelBox whole{{0, 0, 0}, {d[0] - 1, d[1] - 1, d[2] - 1}};
    auto fill = [&] {
        if (m_previewDevice && m_previewDims == d) copyWholePreviewBox(m_previewDevice, d, whole, nullptr);
        else if (m_previewHost && m_previewHost->geometry().dims == d) m_textures.uploadPreview(*m_previewHost, nullptr);
    };
    if (m_previewAccess) m_previewAccess(fill);
    else fill();
}

void SharedTextures::leavePlanes(const ViewerModel& model) {
    m_linkFailed = true;
    QString why;
    m_textures.takeVolume(*model.volume(), false);
    makeWholeVolume(model, why);
    forgetPreviewSource();  // the live run's next publication goes through host memory
}

bool SharedTextures::copyHeatFromDevice(const void* device, std::array<int, 3> dims, void* stream) {
    if (!m_interopAllowed || m_linkFailed || !m_textures.hasVolume() || dims != m_textures.dims()) return false;
    if (m_textures.volumeOnPlanes()) {
        m_heatDevice = device;
        ++m_heatSerial;
        m_textures.setHeatOnPlanes(true);
        m_interopUsed = true;
        if (!m_wholePreviewKept) return true;
    }
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

void SharedTextures::uploadHeat(const std::vector<std::uint8_t>& values) {
    m_heatDevice = nullptr;  // the views' heat planes no longer hold the map shown
    m_textures.uploadHeat(values);
}

void SharedTextures::fillHeatPlane(ViewPlanes& planes, const VolumePlane& plane) {
    try {
        if (!planes.heatLink)
            planes.heatLink = std::make_unique<gpu::GlTextureLink>(planes.textures.heatTexture(), gpu::GlTextureLink::Shape::Texture2D);
        planes.heatLink->copyPlane(m_heatDevice, m_textures.dims(), plane, gpu::GlTextureLink::PlaneElement::Byte, nullptr);
    } catch (const std::exception&) {
        planes.heatLink.reset();  // shown without the map rather than not at all
        return;
    }
    planes.textures.heatPlane = plane;
    planes.heatSerial = m_heatSerial;
}

void SharedTextures::release() {
    m_previewLink.reset();
    m_linkedTexture = 0;
    m_textures.release();
    m_volumeGeneration = m_labelGeneration = m_tableGeneration = -1;
    forgetPreviewSource();
    m_previewChanges.clear();
    m_wholePreviewKept = false;
}

void SharedTextures::setInterpolation(bool linear) {
    m_linear = linear;
    m_linearApplied = false;
}

}  // namespace lucent::ui
