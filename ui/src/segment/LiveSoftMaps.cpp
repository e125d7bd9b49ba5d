/// @brief The live run's side of its soft maps' heat overlay (SoftMapOverlay.h): the engine's maps on the
/// host, and the device path (the map written into device scratch, copied into the heat texture through
/// CUDA-OpenGL interop) where the engine and the GL allow.
#include "lucent/ui/LiveSegmentation.h"

#include "LiveBackend.h"

#include "lucent/gpu/GpuContext.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

namespace lucent::ui {

SoftMapSource LiveSegmentation::softMapSource() {
    SoftMapSource source;
    source.hostMaps = [this] { return softMaps(); };
    source.copyFromDevice = [this](int index) { return showSoftMapFromDevice(index); };
    source.uploadHeat = [this](const std::vector<std::uint8_t>& values) {
        m_grid->withGlContext([&](SharedTextures& t) {
            QString why;
            t.sync(*m_model, why);
            t.uploadHeat(values);
        });
    };
    source.redraw = [this] { m_grid->updateViews(); };
    return source;
}

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
            written = false;  // out of device memory: the host path still shows the map
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

std::vector<Volume> LiveSegmentation::softMaps() const {
    std::vector<Volume> maps;
    if (m_worker)
        m_worker->command([&](SegmentationSession& s) {
            if (s.engine()) maps = s.engine()->softMaps();
        });
    return maps;
}

}  // namespace lucent::ui
