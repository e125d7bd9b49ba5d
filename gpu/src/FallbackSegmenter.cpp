/// @brief GPU faults move the run to the CPU engine, which restarts from the request.
#include "FallbackSegmenter.h"

#include "lucent/core/Errors.h"

namespace lucent::gpu {

void FallbackSegmenter::fallBack(const std::exception& fault) {
    m_notice = std::string("CUDA engine failed (") + fault.what() + "); running on the CPU engine instead";
    m_active = std::move(m_cpu);
    m_active->start(m_request);
}

void FallbackSegmenter::start(const SegmentationRequest& request) {
    m_request = request;
    if (!m_cpu) {  // already fell back: stay on the CPU
        m_active->start(request);
        return;
    }
    try {
        m_active->start(request);
    } catch (const GpuError& e) {
        fallBack(e);
    }
}

StepReport FallbackSegmenter::step(int maxIterations) {
    if (!m_cpu) return m_active->step(maxIterations);
    try {
        return m_active->step(maxIterations);
    } catch (const GpuError& e) {
        fallBack(e);
        return m_active->step(maxIterations);
    }
}

void FallbackSegmenter::writeLabels(const LabelSink& sink, const VoxelBox* box) const {
    m_active->writeLabels(sink, box);
}

UpdateOutcome FallbackSegmenter::update(const SegmentationRequest& request) {
    m_request = request;
    if (!m_cpu) return m_active->update(request);
    try {
        return m_active->update(request);
    } catch (const GpuError& e) {
        fallBack(e);
        return UpdateOutcome::Restarted;
    }
}

}  // namespace lucent::gpu
