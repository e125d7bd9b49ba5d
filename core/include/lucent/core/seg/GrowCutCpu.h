/// @brief Grow from seeds on the CPU (fast GrowCut, Zhu et al. 2014): a Dijkstra competition in
/// which every voxel takes the label of the seed that reaches it along the path of least summed
/// intensity change; ties in distance go to the smallest label. Seeds added later (a new stroke)
/// go on from the previous distances: only the voxels they improve change.
#pragma once

#include "lucent/core/seg/Segmenter.h"

#include <array>
#include <cstdint>
#include <queue>
#include <utility>
#include <vector>

namespace lucent {

class GrowCutCpu final : public Segmenter {
public:
    Method method() const override { return Method::GrowCut; }
    const char* backend() const override { return backendKey(Backend::Cpu); }
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return m_queued == 0; }
    void cancel() override;
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    /// Voxels per label (labelVoxels), kept as keys change, so the HUD may ask every frame.
    MethodFigures figures() const override;
    /// Seeds only added (every earlier seed kept with its label, same volume, ROI and mask) to a
    /// finished run: it goes on from its distances (Continued); anything else, a run unfinished or
    /// cancelled, restarts. int16 volumes only: with
    /// float distances a voxel reached at an equal distance through a voxel the new seeds improve
    /// could keep an older smaller label, so float volumes restart (exactness over speed).
    UpdateOutcome update(const SegmentationRequest& request) override;

    /// The packed (distance, label) of every voxel (GrowCutKey.h); kGrowCutUnreached where no seed
    /// reached.
    const std::vector<std::uint64_t>& keys() const { return m_keys; }

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    bool floatVolume() const { return m_request.volume->pixelType() == PixelType::Float32; }
    /// Takes the seeds of `seeds` inside `box` that m_seeds does not hold yet into m_seeds and queues
    /// the eligible ones at distance 0. With `onlyImproving`, false (nothing changed) when a new
    /// seed's voxel already holds a smaller key than its own (0, label): update() then restarts.
    bool plantSeeds(const std::uint8_t* seeds, const VoxelBox& box, bool onlyImproving);
    /// Sets voxel v's key, keeping the per-label counts.
    void setKey(std::size_t v, std::uint64_t key);
    void push(std::size_t v, std::uint64_t key);
    /// Settles up to `budget` queue entries; the box of the voxels whose key changed.
    VoxelBox settleInt16(std::size_t budget);
    VoxelBox settleFloat(std::size_t budget);

    SegmentationRequest m_request;
    std::vector<std::uint8_t> m_seeds;  // the seeds of the run so far (a copy: the caller may paint)
    std::array<bool, 256> m_seeded{};     // labels that have a seed
    VoxelBox m_planted = VoxelBox::none();  // seeds planted since the last step (its changed box)
    std::vector<std::uint64_t> m_keys;
    std::array<std::size_t, 256> m_counts{};  // voxels per label (0: unreached)
    // int16: a ring of kGrowCutCostSpan buckets of voxel indices by distance (Dial's algorithm).
    std::vector<std::vector<std::size_t>> m_ring;
    std::uint64_t m_distance = 0;  // the ring's lowest distance that may hold entries
    // float32: a binary heap of (key, voxel).
    using Entry = std::pair<std::uint64_t, std::size_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> m_heap;
    std::size_t m_queued = 0;  // entries in the ring or the heap (stale ones included)
    std::size_t m_eligibleCount = 0, m_settled = 0;
    bool m_cancelled = false;  // the queue was dropped: the keys are no fixed point to go on from
    int m_iterations = 0;
};

}  // namespace lucent
