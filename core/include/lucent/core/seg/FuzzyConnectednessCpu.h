/// @brief Fuzzy connectedness on the CPU (paper 001, Udupa kFOE): the exact max-min connectivity map
/// from the seeds, by a Dijkstra-like sweep over a 65536-bucket queue of quantised strengths (O(N)).
#pragma once

#include "lucent/core/seg/FuzzyAffinity.h"
#include "lucent/core/seg/Segmenter.h"

#include <cstdint>
#include <vector>

namespace lucent {

class FuzzyConnectednessCpu final : public Segmenter {
public:
    Method method() const override { return Method::FuzzyConnectedness; }
    const char* backend() const override { return "cpu"; }
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return m_level == 0; }
    void cancel() override { m_level = 0; }
    void result(LabelMap& out) const override;
    std::vector<Volume> softMaps() const override;
    void describe(JsonWriter& json) const override;

    /// The parameters used (estimated or given).
    const AffinityParams& affinity() const { return m_params; }
    /// Connectivity, quantised: 65535 at the seeds.
    const std::vector<std::uint16_t>& connectivity() const { return m_connectivity; }
    /// Relabels at another threshold without recomputing the map.
    void setThreshold(double threshold) { m_request.fuzzyConnectedness.threshold = threshold; }

    /// M, S and D from the voxels within `radius` of the seeds (S and D floored so flat regions work).
    static AffinityParams estimate(const Volume& volume, const std::vector<VoxelIndex>& seeds, int radius);

private:
    std::uint16_t affinity(std::size_t a, std::size_t b) const;

    SegmentationRequest m_request;
    AffinityParams m_params;
    std::vector<float> m_g1, m_g2;  // lookup tables for int16 volumes
    int m_minValue = 0;
    std::vector<std::uint16_t> m_connectivity;
    std::vector<std::vector<std::uint32_t>> m_buckets;
    int m_level = 0;  // highest bucket that may be non-empty
    int m_iterations = 0;
    std::size_t m_settled = 0;
};

}  // namespace lucent
