/// @brief Seeded region growing on the device: the threshold mask and the region as bits (32
/// voxels along x a word), grown tile by tile in shared memory with a worklist of active tiles.
/// Same voxels as RegionGrowingCpu (both are the seeds' component of the mask).
#pragma once

#include "BitGrid.h"
#include "CudaEngineBase.h"
#include "DeviceBuffer.h"
#include "TileQueue.h"
#include "TileRounds.h"

namespace lucent::gpu {

namespace rg {
template <typename T>
struct TileMask;  // defined with the kernels
}

class RegionGrowingCuda final : public Segmenter {
public:
    explicit RegionGrowingCuda(std::shared_ptr<GpuContext> context) : m_context(std::move(context)) {}
    Method method() const override { return Method::RegionGrowing; }
    const char* backend() const override { return backendKey(Backend::Cuda); }
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return m_tally.finished; }
    void cancel() override { m_tally.finished = true; }
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    MethodFigures figures() const override;
    UpdateOutcome update(const SegmentationRequest& request) override;

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    /// The kernels' view of the interval, scope and lazily made mask words (TileMask in the .cu).
    template <typename T>
    rg::TileMask<T> tileMask() const;
    /// Sets the bits of the seeds that lie in the mask and queues their tiles; returns how many.
    std::size_t plantSeeds(const std::vector<VoxelIndex>& seeds, std::string* rejected);
    /// Queues the tiles that hold region voxels and their neighbours (after the interval widened).
    void requeueRegion();

    std::shared_ptr<GpuContext> m_context;
    SegmentationRequest m_request;
    BitGrid m_grid;
    DeviceBuffer m_mask, m_region, m_userMask, m_seeds, m_tileGen, m_occupied;
    std::uint32_t m_gen = 1;  // the interval's generation: tiles made for an older one remake their mask
    TileQueue m_queue;
    RoundFigures m_figures;
    mutable DeviceTimer m_timer;
    RoundTally m_tally;
    double m_msUpload = 0;
};

}  // namespace lucent::gpu
