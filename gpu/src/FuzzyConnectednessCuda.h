/// @brief Fuzzy connectedness on the device: the exact max-min connectivity map (16-bit
/// strengths), relaxed tile by tile in shared memory with a worklist of active tiles; affinities
/// computed per tile from the voxels (no affinity volume). Max-min updates are monotone, so any
/// order converges to the map of FuzzyConnectednessCpu, bit for bit.
#pragma once

#include "CudaEngineBase.h"
#include "DeviceBuffer.h"
#include "TileQueue.h"
#include "TileRounds.h"
#include "lucent/core/seg/FuzzyAffinity.h"

namespace lucent::gpu {

class FuzzyConnectednessCuda final : public Segmenter {
public:
    explicit FuzzyConnectednessCuda(std::shared_ptr<GpuContext> context) : m_context(std::move(context)) {}
    Method method() const override { return Method::FuzzyConnectedness; }
    const char* backend() const override { return backendKey(Backend::Cuda); }
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return m_tally.finished; }
    void cancel() override { m_tally.finished = true; }
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    std::vector<Volume> softMaps() const override;
    bool writeSoftMap(int index, const LabelSink& sink) const override;
    MethodFigures figures() const override;
    /// A new threshold relabels from the stored map; anything else restarts.
    UpdateOutcome update(const SegmentationRequest& request) override;

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    std::shared_ptr<GpuContext> m_context;
    SegmentationRequest m_request;
    AffinityParams m_params;
    int m_minValue = 0, m_span = 0;  // int16: the lookup tables cover [min, max]
    DeviceBuffer m_connectivity, m_g1, m_g2, m_userMask, m_seeds;
    TileQueue m_queue;
    RoundFigures m_figures;
    mutable DeviceTimer m_timer;
    RoundTally m_tally;
    double m_msUpload = 0;
};

}  // namespace lucent::gpu
