/// @brief Grow from seeds on the device: every voxel's (distance, label) packed in one 64-bit key
/// (GrowCutKey.h), relaxed key = min(key, neighbour's key + |I(p) - I(q)|) tile by tile in shared
/// memory over a worklist of active tiles until no key falls. For int16 volumes the step costs and
/// the sums are exact integers and the update is monotone in the key, so any order reaches the one
/// fixed point GrowCutCpu's Dijkstra settles: the same keys, voxel for voxel. Float volumes run on
/// the CPU engine (GpuError, so backend auto falls back and says why). New seeds go on from the
/// keys on the device. The seeds the run holds live on the device only: the host gathers the painted
/// voxels of a map (of the box that changed, on an update) and uploads that list, never the map.
#pragma once

#include "CudaEngineBase.h"
#include "DeviceBuffer.h"
#include "TileQueue.h"
#include "TileRounds.h"

#include <array>
#include <cstdint>
#include <vector>

namespace lucent::gpu {

class GrowCutCuda final : public Segmenter {
public:
    explicit GrowCutCuda(std::shared_ptr<GpuContext> context) : m_context(std::move(context)) {}
    Method method() const override { return Method::GrowCut; }
    const char* backend() const override { return backendKey(Backend::Cuda); }
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return m_tally.finished; }
    void cancel() override {
        m_cancelled = !m_tally.finished;
        m_tally.finished = true;
    }
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    /// Voxels per label, counted on the device from the keys.
    MethodFigures figures() const override;
    /// Added seeds (GrowCutCpu's rule): the run goes on from the keys on the device (Continued),
    /// uploading only the seed voxels of request.growCut.changedBox (of the whole map without one) and
    /// comparing them with the device's seeds there; anything else (a seed erased or relabelled), a run
    /// unfinished or cancelled, or a new seed on a voxel another label reached at distance 0, restarts.
    UpdateOutcome update(const SegmentationRequest& request) override;

    /// The keys, downloaded (tests compare them with GrowCutCpu::keys()).
    std::vector<std::uint64_t> keys() const;

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    /// Uploads the seed voxels of `seeds` inside `box` (within the grid) and plants those the device
    /// map lacks, the eligible ones keyed (0, label). False when the run cannot go on from its keys: a
    /// new seed on a voxel holding a smaller key than its own (0, label), or with `compare`, a seed of
    /// the device map inside `box` that `seeds` no longer holds with its label.
    bool plantSeeds(const LabelMap& seeds, const VoxelBox& box, bool compare);

    std::shared_ptr<GpuContext> m_context;
    SegmentationRequest m_request;
    std::array<bool, 256> m_seeded{};
    DeviceBuffer m_keys, m_seeds, m_userMask, m_list, m_plantFigures;  // m_seeds: the seeds so far
    int m_blocks = 0;  // relaxation blocks a round: as many as fit on the device at once
    mutable DeviceBuffer m_counts;  // figures(): voxels per label, counted on the device
    TileQueue m_queue;
    RoundFigures m_figures;
    mutable DeviceTimer m_timer;
    VoxelBox m_planted = VoxelBox::none();
    bool m_cancelled = false;  // the worklist was dropped: the keys are no fixed point to go on from
    RoundTally m_tally;
    double m_msUpload = 0;
};

}  // namespace lucent::gpu
