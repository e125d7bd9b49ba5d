/// @brief Seeded region growing on the CPU (paper 004): the seeds' connected component of the
/// threshold mask, grown front by front (one layer of neighbours per iteration) on all cores.
#pragma once

#include "lucent/core/seg/Segmenter.h"
#include "lucent/core/seg/VoxelIndices.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace lucent {

class RegionGrowingCpu final : public Segmenter {
public:
    /// `width`: the front's index width (IndexWidth::Wide runs the 64-bit path on any volume).
    explicit RegionGrowingCpu(IndexWidth width = IndexWidth::Fit) : m_width(width) {}
    Method method() const override { return Method::RegionGrowing; }
    const char* backend() const override { return backendKey(Backend::Cpu); }
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return indexCount(m_front) == 0; }
    void cancel() override { clearIndices(m_front); }
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    /// The state bytes become the labels in place (no second byte per voxel).
    void takeResult(LabelMap& out) override;
    /// A wider interval or added seeds (same volume, ROI, mask, connectivity) grow on from the
    /// current region; anything else restarts.
    UpdateOutcome update(const SegmentationRequest& request) override;
    /// True when the front holds 64-bit voxel indices (volumes past 2^32 voxels, or IndexWidth::Wide).
    bool wideIndices() const { return holdsWideIndices(m_front); }

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    /// Marks eligible voxels of the interval kCandidate (grown voxels stay kGrown).
    void classify();
    /// Seeds that are candidates become grown and join the front; returns the first rejection.
    std::string plantSeeds(const std::vector<VoxelIndex>& seeds);
    /// Up to `maxIterations` layers grown from `front` (which ends as the last layer's new voxels);
    /// the box of what they grew.
    template <class Index>
    std::optional<VoxelBox> growLayers(std::vector<Index>& front, int maxIterations);
    /// One layer from `front`: the voxels it claimed, in the order of the front's chunks; widens
    /// `changed` to hold them.
    template <class Index>
    std::vector<Index> growLayer(const std::vector<Index>& front, VoxelBox& changed);

    // One byte per voxel: kOutside (ineligible or outside the interval), kCandidate, kGrown. Made in
    // one streaming pass, so the propagation reads a single byte per neighbour.
    static constexpr std::uint8_t kOutside = 0, kCandidate = 1, kGrown = 2;

    IndexWidth m_width;
    SegmentationRequest m_request;
    std::vector<std::uint8_t> m_state;
    VoxelIndexList m_front;
    int m_iterations = 0;
    std::size_t m_grown = 0;
};

}  // namespace lucent
