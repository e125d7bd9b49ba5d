/// @brief Fuzzy C-means on the device (paper 000) for int16 volumes: a histogram of the resident
/// volume in one pass (shared-memory privatised), every iteration over its distinct values in one
/// persistent block with the convergence test on the device, then one labelling pass through a
/// lookup table. Memberships stay on the device, one row per distinct value, and as float maps per
/// voxel on demand (deviceSoftMaps, or with the labels in one pass when the request asks). The
/// per-voxel path iterates over every voxel instead (FcmPerVoxel), for comparison and for variants
/// whose memberships depend on more than the value.
#pragma once

#include "CudaEngineBase.h"
#include "DeviceBuffer.h"

namespace lucent::gpu {

struct FcmState;
struct FcmScope;

class FuzzyCMeansCuda final : public Segmenter {
public:
    explicit FuzzyCMeansCuda(std::shared_ptr<GpuContext> context) : m_context(std::move(context)) {}
    ~FuzzyCMeansCuda() override;
    Method method() const override { return Method::FuzzyCMeans; }
    const char* backend() const override { return backendKey(Backend::Cuda); }
    /// GpuError for float volumes (the CPU engine runs those) and for the per-voxel path with more
    /// than kPerVoxelMaxClusters clusters.
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override;
    void cancel() override;
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    std::vector<Volume> softMaps() const override;
    bool writeSoftMap(int index, const LabelSink& sink) const override;
    /// c float maps (label order) of voxelCount floats each, built on the first call after a step.
    const float* deviceSoftMaps() const override;
    MethodFigures figures() const override;
    /// Included voxels of each cluster, in label order.
    std::vector<std::size_t> clusterVoxels() const;

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    /// The label of each distinct value, on the device (argmax membership, ties to the lower centre).
    /// With `withMemberships`, also the bins' memberships as floats in label order (m_binU).
    void buildLabelTable(bool withMemberships) const;
    /// The float maps into m_maps, and the labels into `labels` when not null, in one pass.
    void buildMaps(std::uint8_t* labels) const;
    FcmScope scope() const;
    std::vector<double> sortedCentres() const;
    /// Runs the per-voxel table lookup (labels or heat) over `box` into `out` (0 outside the ROI/mask).
    void lookUp(const std::uint8_t* binTable, std::uint8_t* out, const VoxelBox& box) const;
    /// Memberships of the latest iteration and the distinct values, downloaded (small: one row per value).
    void downloadMemberships(std::vector<double>& u, std::vector<double>& values) const;
    /// Cluster indices in label order (ascending centre), as the CPU engine orders its maps.
    std::vector<int> labelOrder() const;

    std::shared_ptr<GpuContext> m_context;
    SegmentationRequest m_request;
    int m_minValue = 0, m_bins = 0;  // the histogram covers [min, min + bins)
    std::size_t m_samples = 0;       // distinct values
    std::size_t m_included = 0;      // voxels inside the ROI/mask
    DeviceBuffer m_histogram, m_values, m_weights, m_memberships, m_state, m_userMask, m_binLabel;
    DeviceBuffer m_partials;        // the per-voxel path's block sums
    mutable DeviceBuffer m_binHeat;  // one soft map's 8-bit value per bin, for writeSoftMap
    mutable DeviceBuffer m_binU, m_maps;  // memberships per bin (float, label order) and per voxel
    mutable bool m_binUReady = false, m_mapsReady = false;
    FcmState* m_host = nullptr;  // pinned mirror of the device state after each step
    mutable DeviceTimer m_timer;
    mutable bool m_labelsReady = false;
    double m_msUpload = 0;
};

}  // namespace lucent::gpu
