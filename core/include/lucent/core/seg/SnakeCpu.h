/// @brief Region-based polygonal snake on the CPU (paper 003, Chesnaud-Refregier): minimises
/// GL = 1/2 (N_B log var_B + N_T log var_T) with region sums from row-cumulated images.
/// A step moves all even nodes, then all odd nodes (then the last node when the count is odd),
/// each to its best of 8 candidates at distance d against the current polygon; the chosen moves are
/// applied in node order, each kept only if it still lowers GL and crosses no segment, so GL never
/// rises. Ties go to the lowest candidate index. When nothing moves, a node is added in the middle
/// of every segment at least minSegment long and d is halved; it ends when d is 1 and none is added.
/// Int16 slices are summed in exact 64-bit integers and GL uses portableLog, so the CUDA engine
/// (SnakeCuda) takes the same decisions and produces the same polygons.
#pragma once

#include "lucent/core/seg/Segmenter.h"
#include "lucent/core/seg/SnakeCriterion.h"
#include "lucent/core/seg/SnakeGeometry.h"
#include "lucent/core/seg/SnakeSlices.h"

#include <memory>
#include <vector>

namespace lucent {

/// One slice's evolution (int16: exact sums; float: double sums), defined in SnakeCpu.cpp.
class SnakeSliceCpu;

class SnakeCpu final : public Segmenter {
public:
    SnakeCpu();
    ~SnakeCpu() override;
    Method method() const override { return Method::Snake; }
    const char* backend() const override { return backendKey(Backend::Cpu); }
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return m_finished; }
    void cancel() override;
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    MethodFigures figures() const override;
    bool writeContours(JsonWriter& json) const override;

    double gl() const;
    const std::vector<PixelPoint>& polygon() const;
    const std::vector<SnakeSliceResult>& slices() const { return m_slices.done(); }
    /// Region sums inside the current polygon (for tests: equal to the rasterised mask's).
    RegionSums targetSums() const;

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    void beginSlice(int slice, std::vector<PixelPoint> polygon, int d);
    void finishSlice();

    SegmentationRequest m_request;
    std::unique_ptr<SnakeSliceCpu> m_slice;
    SnakeSlices m_slices;
    int m_iterations = 0;
    bool m_finished = false;
};

}  // namespace lucent
