/// @brief Fuzzy C-means on intensities, CPU (paper 000). Memberships depend only on a voxel's value,
/// so the default path iterates over the histogram of distinct values (weights = counts): the same
/// fixed point as per-voxel FCM at a fraction of the cost. The per-voxel path is kept for checking.
#pragma once

#include "lucent/core/seg/Segmenter.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace lucent {

class FuzzyCMeansCpu final : public Segmenter {
public:
    Method method() const override { return Method::FuzzyCMeans; }
    const char* backend() const override { return backendKey(Backend::Cpu); }
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return m_finished; }
    void cancel() override { m_finished = true; }
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    /// The inclusion bytes become the labels in place (a voxel's label reads only its own byte).
    void takeResult(LabelMap& out) override;
    std::vector<Volume> softMaps() const override;
    MethodFigures figures() const override;

    /// Cluster centres in ascending order (label k+1 is centre k).
    std::vector<double> centres() const;
    int iterations() const { return m_iterations; }
    /// Starting centres from the sorted distinct values and their counts: the (k + 1/2)/c quantiles,
    /// repeats moved up to the next distinct values. Throws when there are fewer than c values.
    static std::vector<double> startCentres(const std::vector<double>& distinct, const std::vector<double>& counts, int c);

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    bool included(std::size_t index, int i, int j, int k) const;
    /// One Eq. 3 + Eq. 4 round over the samples; returns the largest membership change.
    double iterate();
    /// Label order: rank of each internal cluster by centre.
    std::vector<int> ranks() const;
    /// The label of each sample's value: its largest membership, ties to the lower centre.
    std::unordered_map<double, std::uint8_t> labelsOfValues() const;

    SegmentationRequest m_request;
    std::vector<double> m_values;       // distinct values (histogram) or every included voxel
    std::vector<double> m_weights;      // counts (histogram) or 1
    std::vector<double> m_memberships;  // samples x clusters
    std::vector<double> m_centres;
    std::vector<std::uint8_t> m_included;  // per voxel: inside ROI and mask
    int m_iterations = 0;
    bool m_finished = false;
    double m_lastChange = 0.0;
};

}  // namespace lucent
