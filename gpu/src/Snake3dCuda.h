/// @brief The 3D snake on the device (int16 volumes): Snake3dCpu's morphological Chan-Vese on the
/// same packed words (Snake3dWords.h), one thread a word and one kernel a sub-step (the region term,
/// each curvature operator, the settling pass that counts the changed voxels and their exact int64
/// sums), the threshold and the convergence test in one-thread kernels, so a step of many
/// iterations is enqueued at once and read back once. The values are clamped to the request's clip as
/// the CPU engine clamps them (Snake3dClamp). Equal to the CPU engine word for word.
#pragma once

#include "CudaEngineBase.h"
#include "DeviceBuffer.h"

#include "lucent/core/seg/Snake3dWords.h"

namespace lucent::gpu {

struct Snake3dDeviceState;

class Snake3dCuda final : public Segmenter {
public:
    explicit Snake3dCuda(std::shared_ptr<GpuContext> context) : m_context(std::move(context)) {}
    ~Snake3dCuda() override;
    Method method() const override { return Method::Snake3d; }
    const char* backend() const override { return backendKey(Backend::Cuda); }
    /// GpuError for float volumes (the CPU engine runs those).
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override;
    void cancel() override;
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    MethodFigures figures() const override;
    bool copyLevelSet(std::vector<std::uint64_t>& words, VoxelBox& domain) const override;

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    void enqueueIteration(long long smoothedBefore);

    std::shared_ptr<GpuContext> m_context;
    SegmentationRequest m_request;
    VoxelBox m_domain;
    Snake3dShape m_shape;
    DeviceBuffer m_u, m_work, m_prev1, m_prev2, m_state, m_mask;
    Snake3dDeviceState* m_host = nullptr;  // pinned mirror after each step
    mutable DeviceTimer m_timer;
    double m_msUpload = 0;
    bool m_cancelled = false;
};

}  // namespace lucent::gpu
