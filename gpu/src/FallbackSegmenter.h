/// @brief Backend auto: runs the CUDA engine and, on any GPU fault (no memory, a failed launch),
/// moves the run to the CPU engine with the same request and says why.
#pragma once

#include "lucent/core/seg/Segmenter.h"

#include <memory>
#include <string>

namespace lucent::gpu {

class FallbackSegmenter final : public Segmenter {
public:
    FallbackSegmenter(std::unique_ptr<Segmenter> cuda, std::unique_ptr<Segmenter> cpu)
        : m_active(std::move(cuda)), m_cpu(std::move(cpu)) {}
    Method method() const override { return m_active->method(); }
    const char* backend() const override { return m_active->backend(); }
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return m_active->finished(); }
    void cancel() override { m_active->cancel(); }
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    std::vector<Volume> softMaps() const override { return m_active->softMaps(); }
    bool writeSoftMap(int index, const LabelSink& sink) const override { return m_active->writeSoftMap(index, sink); }
    const float* deviceSoftMaps() const override { return m_active->deviceSoftMaps(); }
    MethodFigures figures() const override { return m_active->figures(); }
    UpdateOutcome update(const SegmentationRequest& request) override;
    bool writeContours(JsonWriter& json) const override { return m_active->writeContours(json); }
    bool copyLevelSet(std::vector<std::uint64_t>& words, VoxelBox& domain) const override {
        return m_active->copyLevelSet(words, domain);
    }

    /// Why the run left the GPU; empty while it is on its first engine.
    const std::string& notice() const { return m_notice; }

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    /// Replaces the CUDA engine by the CPU engine, started on the current request.
    void fallBack(const std::exception& fault);

    std::unique_ptr<Segmenter> m_active, m_cpu;
    SegmentationRequest m_request;
    std::string m_notice;
};

}  // namespace lucent::gpu
