/// @brief What the live run shows of itself: the HUD's facts (LiveHud.h), the voxels of the result so far
/// (the snake's polygon inside, the fuzzy C-means clusters still shown) and their volume.
#include "lucent/ui/LiveSegmentation.h"

#include "LiveBackend.h"
#include "PolygonFill.h"

#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"
#include "lucent/core/ParallelFor.h"
#include "lucent/gpu/DeviceInfo.h"

#include <algorithm>

namespace lucent::ui {

render::HudState LiveSegmentation::hudState() const {
    if (!active()) return {};
    LiveFacts f;
    f.published = &m_published;
    f.method = m_method;
    if (onCuda(m_published.backend)) {
        const auto devices = gpu::listDevices();
        f.backend = "CUDA (" + (devices.empty() ? std::string("device") : devices.front().name) + ")" +
                    (m_interop ? "  GL interop" : "");
    } else {
        f.backend = "CPU (" + std::to_string(defaultThreadCount()) + " threads)";
    }
    f.runSerial = m_runSerial;
    f.framesPerSecond = m_fps;
    f.speed = m_speed;
    f.recordedPace = m_recordedPace;
    f.shownStep = m_scrubber.shown();
    f.shownStepText = shownStepText().toStdString();
    f.shownVoxels = shownVoxels();
    f.volumeMl = volumeMl();
    render::HudState h = liveHud(f);
    if (m_method == Method::Snake3d) snake3dHud(h);  // a scrubbed state's step and voxels
    return h;
}

std::string LiveSegmentation::shownState() const { return liveShownState(m_published, m_recordedPace); }

std::size_t LiveSegmentation::chosenClusterVoxels() const {
    // Until the run settles every included voxel has a cluster; then the clusters still shown
    // (those to accept) count, from the engine's figure, asked for once.
    if (m_published.state != SessionState::Finished) return m_voxels.load();
    if (m_clusterVoxels.empty()) m_clusterVoxels = figures().clusterVoxels;
    if (m_clusterVoxels.empty()) return m_voxels.load();
    std::size_t n = 0;
    for (std::size_t v = 1; v <= m_clusterVoxels.size() && v < 256; ++v)
        if (!(m_hiddenValues[v / 32] >> (v % 32) & 1u)) n += m_clusterVoxels[v - 1];
    return n;
}

std::size_t LiveSegmentation::shownVoxels() const {
    if (m_method == Method::FuzzyCMeans) return chosenClusterVoxels();
    if (m_method == Method::Snake3d && m_history.shown() >= 0) return m_history.voxels(m_history.shown());
    if (m_method != Method::Snake || !m_volume) return m_voxels.load();
    // The snake writes its labels when it ends: until then its area is the polygon's inside,
    // rasterised by the engines' rule, once per new polygon.
    if (m_polygonPixels.first == m_published.polygons) return m_polygonPixels.second;
    // Before the first step the start (the rectangle) is the contour.
    const auto& points = m_published.last.polygon.empty() ? polygon(-1).points : m_published.last.polygon;
    const std::vector<std::uint8_t> slice = polygonFill(points, m_volume->geometry());
    const auto pixels = std::size_t(std::count(slice.begin(), slice.end(), std::uint8_t(1)));
    m_polygonPixels = {m_published.polygons, pixels};
    return pixels;
}

double LiveSegmentation::volumeMl() const {
    return m_volume ? double(shownVoxels()) * m_volume->geometry().voxelVolumeMl() : 0.0;
}

}  // namespace lucent::ui
