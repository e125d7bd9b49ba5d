/// @brief Seeded region growing on the CPU (paper 004): the seeds' connected component of the
/// threshold mask, grown front by front (one layer of neighbours per iteration) on all cores.
#pragma once

#include "lucent/core/seg/Segmenter.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace lucent {

class RegionGrowingCpu final : public Segmenter {
public:
    Method method() const override { return Method::RegionGrowing; }
    const char* backend() const override { return backendKey(Backend::Cpu); }
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return m_front.empty(); }
    void cancel() override { m_front.clear(); }
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    /// The state bytes become the labels in place (no second byte per voxel).
    void takeResult(LabelMap& out) override;
    /// A wider interval or added seeds (same volume, ROI, mask, connectivity) grow on from the
    /// current region; anything else restarts.
    UpdateOutcome update(const SegmentationRequest& request) override;

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    /// Marks eligible voxels of the interval kCandidate (grown voxels stay kGrown).
    void classify();
    /// Seeds that are candidates become grown and join the front; returns the first rejection.
    std::string plantSeeds(const std::vector<VoxelIndex>& seeds);

    // One byte per voxel: kOutside (ineligible or outside the interval), kCandidate, kGrown. Made in
    // one streaming pass, so the propagation reads a single byte per neighbour.
    static constexpr std::uint8_t kOutside = 0, kCandidate = 1, kGrown = 2;

    SegmentationRequest m_request;
    std::vector<std::uint8_t> m_state;
    std::vector<std::uint32_t> m_front;
    int m_iterations = 0;
    std::size_t m_grown = 0;
};

}  // namespace lucent
