/// @brief Region-based polygonal snake on the CPU (paper 003, Chesnaud-Refregier): minimises
/// GL = 1/2 (N_B log var_B + N_T log var_T) with region sums from row-cumulated images.
/// A step moves all even nodes, then all odd nodes (then the last node when the count is odd),
/// each to its best of 8 candidates at distance d against the current polygon; the chosen moves are
/// applied in node order, each kept only if it still lowers GL and crosses no segment, so GL never
/// rises. Ties go to the lowest candidate index. When nothing moves, a node is added in the middle
/// of every segment at least minSegment long and d is halved; it ends when d is 1 and none is added.
#pragma once

#include "lucent/core/seg/Segmenter.h"
#include "lucent/core/seg/SnakeGeometry.h"

#include <vector>

namespace lucent {

/// Pixel count, sum and sum of squares of a region.
struct RegionSums {
    double n = 0, sz = 0, sz2 = 0;
    RegionSums& operator+=(const RegionSums& o) { n += o.n; sz += o.sz; sz2 += o.sz2; return *this; }
    RegionSums& operator-=(const RegionSums& o) { n -= o.n; sz -= o.sz; sz2 -= o.sz2; return *this; }
};

/// The finished polygon of one slice and the GL values of its steps.
struct SnakeSliceResult {
    int slice = 0;
    std::vector<PixelPoint> polygon;
    std::vector<double> glHistory;  ///< GL after every step, the start first
};

class SnakeCpu final : public Segmenter {
public:
    Method method() const override { return Method::Snake; }
    const char* backend() const override { return "cpu"; }
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return m_finished; }
    void cancel() override;
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    MethodFigures figures() const override;
    bool writeContours(JsonWriter& json) const override;

    double gl() const { return m_gl; }
    const std::vector<PixelPoint>& polygon() const { return m_polygon; }
    const std::vector<SnakeSliceResult>& slices() const { return m_done; }
    /// Region sums inside the current polygon (for tests: equal to the rasterised mask's).
    RegionSums targetSums() const { return m_target; }

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    void beginSlice(int slice, std::vector<PixelPoint> polygon, int d);
    RegionSums segmentSums(PixelPoint p, PixelPoint q) const;
    double criterion(const RegionSums& target) const;
    bool crosses(std::size_t node, PixelPoint candidate) const;
    bool movePhase(const std::vector<std::size_t>& nodes);
    bool addNodes();
    void finishSlice();
    void recomputeTotals();

    SegmentationRequest m_request;
    int m_width = 0, m_height = 0;
    std::vector<double> m_cz, m_cz2;  // per row: cumulated z and z^2 along x
    RegionSums m_image;               // the whole slice
    std::vector<PixelPoint> m_polygon;
    std::vector<RegionSums> m_segments;  // m_segments[i]: contribution of node i -> node i+1
    RegionSums m_target;
    double m_gl = 0;
    int m_d = 1;
    int m_slice = 0;
    int m_iterations = 0;
    bool m_finished = false;
    std::vector<double> m_glHistory;
    std::vector<SnakeSliceResult> m_done;
    // Propagation to neighbouring slices.
    int m_direction = 0;  // 0: first slice; +1 / -1: propagating
    double m_startArea = 0, m_startContrast = 0, m_startMean = 0, m_startSigma = 0;
};

}  // namespace lucent
