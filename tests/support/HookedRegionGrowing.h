/// @brief Region growing (the CPU engine) with a test's hooks before its start and after each step: a
/// test's engine that starts late or whose steps take time on a fake clock, without an engine of its own.
#pragma once

#include "lucent/core/seg/RegionGrowingCpu.h"
#include "lucent/core/seg/Segmenter.h"

#include <functional>

namespace lucent::testing {

class HookedRegionGrowing final : public Segmenter {
public:
    std::function<void()> beforeStart = [] {};
    std::function<void(const StepReport&)> afterStep = [](const StepReport&) {};

    Method method() const override { return m_engine.method(); }
    const char* backend() const override { return m_engine.backend(); }
    void start(const SegmentationRequest& request) override {
        beforeStart();
        m_grid = request.volume->geometry();
        m_engine.start(request);
    }
    StepReport step(int maxIterations) override {
        const StepReport report = m_engine.step(maxIterations);
        afterStep(report);
        return report;
    }
    bool finished() const override { return m_engine.finished(); }
    void cancel() override { m_engine.cancel(); }
    void writeLabels(const LabelSink& sink, const VoxelBox* box) const override { m_engine.writeLabels(sink, box); }

protected:
    const Geometry& grid() const override { return m_grid; }

private:
    RegionGrowingCpu m_engine;
    Geometry m_grid;
};

}  // namespace lucent::testing
