/// @brief Fuzzy connectedness on the CPU (paper 001, Udupa kFOE): the exact max-min connectivity map
/// from the seeds, by a Dijkstra-like sweep over a 65536-bucket queue of quantised strengths (O(N)).
#pragma once

#include "lucent/core/seg/FuzzyAffinity.h"
#include "lucent/core/seg/Segmenter.h"
#include "lucent/core/seg/VoxelIndices.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace lucent {

class FuzzyConnectednessCpu final : public Segmenter {
public:
    /// `width`: the bucket queue's index width (IndexWidth::Wide runs the 64-bit path on any volume).
    explicit FuzzyConnectednessCpu(IndexWidth width = IndexWidth::Fit) : m_width(width) {}
    Method method() const override { return Method::FuzzyConnectedness; }
    const char* backend() const override { return backendKey(Backend::Cpu); }
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return objectOnly() ? indexCount(m_queue) == 0 : m_level == 0; }
    void cancel() override {
        m_level = 0;
        clearIndices(m_queue, true);
        m_queueRead = 0;
    }
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    /// objectOnly: the object's bytes become the labels (no second byte per voxel).
    void takeResult(LabelMap& out) override;
    /// The connectivity map (none for an objectOnly run).
    std::vector<Volume> softMaps() const override;
    MethodFigures figures() const override;
    /// A new threshold relabels from the stored map; anything else restarts.
    UpdateOutcome update(const SegmentationRequest& request) override;

    /// The parameters used (estimated or given).
    const AffinityParams& affinity() const { return m_params; }
    /// True when the bucket queue holds 64-bit voxel indices (volumes past 2^32 voxels, or IndexWidth::Wide).
    bool wideIndices() const { return holdsWideIndices(m_buckets); }
    /// Connectivity, quantised: 65535 at the seeds.
    const std::vector<std::uint16_t>& connectivity() const { return m_connectivity; }

    /// M, S and D from the voxels within `radius` of the seeds (S and D floored at 0.1 % of the
    /// volume's value range `range`, so flat regions work).
    static AffinityParams estimate(const Volume& volume, const std::vector<VoxelIndex>& seeds, int radius,
                                   std::pair<double, double> range);
    /// The same, reading voxel (i, j, k) of a volume on `grid` through `value` (a CUDA engine reads
    /// the cubes around the seeds off the device, not the whole volume).
    static AffinityParams estimate(const Geometry& grid, const std::function<double(int, int, int)>& value,
                                   const std::vector<VoxelIndex>& seeds, int radius, std::pair<double, double> range);

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    std::uint16_t affinity(std::size_t a, std::size_t b) const;
    /// Fills the affinity tables of an int16 volume whose values span `range`.
    void buildAffinityTables(std::pair<double, double> range);
    /// Queues the eligible seeds at full strength.
    template <class Index>
    void plantSeeds(IndexBuckets<Index>& buckets);
    /// Settles up to `budget` voxels from the highest non-empty bucket down; the box of the voxels raised.
    template <class Index>
    VoxelBox settle(IndexBuckets<Index>& buckets, std::size_t budget);
    bool objectOnly() const { return m_request.fuzzyConnectedness.objectOnly; }
    /// objectOnly (FuzzyConnectednessObject.cpp): the eligible seeds marked and queued.
    void startObject();
    /// Takes up to `budget` voxels from the queue, marking and queueing each eligible neighbour
    /// joined by an edge of affinity >= the threshold; the box of the voxels marked.
    template <class Index>
    VoxelBox growObject(std::vector<Index>& queue, std::size_t budget);

    IndexWidth m_width;

    SegmentationRequest m_request;
    AffinityParams m_params;
    std::vector<float> m_g1, m_g2;  // lookup tables for int16 volumes
    int m_minValue = 0;
    std::vector<std::uint16_t> m_connectivity;
    VoxelIndexBuckets m_buckets;
    std::vector<std::uint8_t> m_object;  // objectOnly: 1 on the object
    VoxelIndexList m_queue;              // objectOnly: voxels marked, their neighbours not yet seen
    std::size_t m_queueRead = 0;
    int m_level = 0;  // highest bucket that may be non-empty
    int m_iterations = 0;
    std::size_t m_settled = 0;
};

}  // namespace lucent
