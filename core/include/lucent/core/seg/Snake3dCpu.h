/// @brief The 3D snake on the CPU: a morphological region active contour (Marquez-Neila, Baumela,
/// Alvarez 2014, "morphological Chan-Vese"; scikit-image's morphological_chan_vese on the domain).
/// The surface is a binary level set u over the domain, packed 64 voxels a word (Snake3dWords.h).
/// An iteration: the region term sets u = 1 where u has a gradient and the voxel is nearer the inside
/// mean than the outside mean (0 where nearer the outside, unchanged on a tie), then `smoothing`
/// curvature operators, SIoIS and ISoSI in turn (counted from the start, as scikit-image counts
/// them in a fresh process). Means come from exact int64 sums kept up to date by the voxels that
/// changed (float data: double sums per slice, added in slice order), so the result is the same
/// on any thread count and the CUDA engine (Snake3dCuda) takes the same decisions. Every value is
/// clamped to the request's clip first (Snake3dClamp): the sums, the means and the region term see it.
/// Without an iteration count it runs until the level set repeats itself: the same as one
/// iteration before (with an even smoothing count) or two before (the period-2 cycle the
/// alternating operators are known for).
#pragma once

#include "lucent/core/seg/Segmenter.h"
#include "lucent/core/seg/Snake3dWords.h"

#include <cstdint>
#include <vector>

namespace lucent {

class Snake3dCpu final : public Segmenter {
public:
    Method method() const override { return Method::Snake3d; }
    const char* backend() const override { return backendKey(Backend::Cpu); }
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return m_finished; }
    void cancel() override { m_finished = true; }
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    MethodFigures figures() const override;
    bool copyLevelSet(std::vector<std::uint64_t>& words, VoxelBox& domain) const override;

    /// The level set (Snake3dShape's packing over domain()), for tests and the CUDA comparison.
    const std::vector<std::uint64_t>& words() const { return m_u; }
    const VoxelBox& domain() const { return m_domain; }
    int iterations() const { return m_iterations; }
    bool converged() const { return m_converged; }
    long long insideVoxels() const { return m_n1; }

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    void regionTerm();
    void curvature(bool supInf);
    /// Compares the new level set with the last two; updates the sums; returns the changed box.
    std::optional<VoxelBox> settle();
    double value(int x, int y, int z) const;
    unsigned threads() const;

    SegmentationRequest m_request;
    VoxelBox m_domain;
    Snake3dShape m_shape;
    std::vector<std::uint64_t> m_u, m_next, m_prev1, m_prev2;
    bool m_havePrev2 = false;
    long long m_n1 = 0, m_nAll = 0;
    long long m_s1 = 0, m_sAll = 0;         // int16: exact
    double m_s1f = 0, m_sAllf = 0;          // float32
    bool m_integer = true;
    Snake3dClamp m_clamp;                   // the values the run sees (value())
    long long m_smoothed = 0;               // curvature operators applied since start
    int m_iterations = 0;
    long long m_lastChanged = 0;
    bool m_finished = false, m_converged = false;
};

}  // namespace lucent
