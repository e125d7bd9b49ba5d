/// @brief The live run's soft maps (fuzzy connectedness' connectivity, fuzzy C-means' memberships) as a
/// heat overlay: from the device through CUDA-OpenGL interop where the engine and the GL allow, else
/// through host memory.
#include "lucent/ui/LiveSegmentation.h"

#include "LiveBackend.h"
#include "PolygonFill.h"

#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"
#include "lucent/gpu/GpuContext.h"

#include <algorithm>
#include <cmath>

namespace lucent::ui {

bool LiveSegmentation::showSoftMapFromDevice(int index) {
    if (!m_worker || !m_context || !m_volume) return false;
    const std::size_t n = m_volume->voxelCount();
    std::uint8_t* buffer = nullptr;
    bool written = false;
    // Under the engine lock: the worker is between advances, so the context's scratch slots and the
    // engine's device state are not in use meanwhile.
    m_worker->command([&](SegmentationSession& s) {
        if (!s.engine() || !onCuda(s.engine()->backend())) return;
        try {
            if (m_heatSlot < 0) m_heatSlot = m_context->reserveScratch();
            buffer = static_cast<std::uint8_t*>(m_context->scratch(m_heatSlot, n));
            written = s.engine()->writeSoftMap(index, LabelSink::device(buffer, n));
            // Whole before the views read it on streams of their own (plane textures).
            if (written) m_context->synchronize();
        } catch (const std::exception&) {
            written = false;  // out of device memory: the host path below still shows the map
        }
    });
    if (!written) return false;
    bool copied = false;
    m_grid->withGlContext([&](SharedTextures& t) {
        QString why;
        t.sync(*m_model, why);
        copied = t.copyHeatFromDevice(buffer, m_volume->geometry().dims, m_context->stream());
    });
    return copied;
}

bool LiveSegmentation::showSoftMap(int index) {
    m_softFromDevice = index >= 0 && showSoftMapFromDevice(index);
    if (m_softFromDevice) {
        m_softShown = index;
        m_grid->updateViews();
        return true;
    }
    std::vector<std::uint8_t> values;
    if (index >= 0) {
        const auto maps = softMaps();
        if (index >= int(maps.size())) return false;
        const Volume& map = maps[std::size_t(index)];
        values.resize(map.voxelCount());
        // 8 bits are plenty for a colour ramp; the exact values stay in the engine.
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = std::uint8_t(std::lround(std::clamp(map.value(i), 0.0, 1.0) * 255.0));
    }
    m_softShown = values.empty() ? -1 : index;
    m_grid->withGlContext([&](SharedTextures& t) {
        QString why;
        t.sync(*m_model, why);
        t.uploadHeat(values);
    });
    m_grid->updateViews();
    return index < 0 || m_softShown == index;
}

std::vector<Volume> LiveSegmentation::softMaps() const {
    std::vector<Volume> maps;
    if (m_worker)
        m_worker->command([&](SegmentationSession& s) {
            if (s.engine()) maps = s.engine()->softMaps();
        });
    return maps;
}

}  // namespace lucent::ui
