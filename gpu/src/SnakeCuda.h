/// @brief The region snake on the device (paper 003) for int16 volumes, with the same polygons as
/// SnakeCpu step for step: the slice's cumulated images as checkpoints (one CUB block scan per row),
/// then every step in one cooperative kernel. A polygon that fits a block's shared memory runs
/// SnakeReplica.h (each block sums and judges its own nodes, one grid barrier a stage, then every
/// block takes the node-order decisions on its own copy of the polygon); a larger one runs the
/// stages of SnakeProgram.h (candidate segment sums over all SMs, the decisions in the leader
/// block), on the same state, so a slice moves from one to the other when its polygon grows. Both
/// insert nodes on the device. A launch runs up to a step() call's iterations; only the state
/// (about 160 bytes), the new GL values and the polygon come back. Labels are rasterised on the device.
/// Visiting order and tie-breaks are SnakeCpu's (see SnakeCpu.h); sums are exact int64 and GL uses
/// portableLog, so every comparison gives the same answer on both backends.
#pragma once

#include "CudaEngineBase.h"
#include "DeviceBuffer.h"
#include "SnakeReplicaCuda.h"
#include "SnakeTuning.h"

#include "lucent/core/seg/SnakeSlices.h"

#include <vector>

namespace lucent::snake {
struct State;
}

namespace lucent::gpu {

class SnakeCuda final : public Segmenter {
public:
    explicit SnakeCuda(std::shared_ptr<GpuContext> context);
    ~SnakeCuda() override;
    Method method() const override { return Method::Snake; }
    const char* backend() const override { return backendKey(Backend::Cuda); }
    /// GpuError for float volumes (the CPU engine runs those: their sums are not exact, so the two
    /// backends could order them differently) and devices without cooperative launch.
    void start(const SegmentationRequest& request) override;
    StepReport step(int maxIterations) override;
    bool finished() const override { return m_finished; }
    void cancel() override;
    void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const override;
    MethodFigures figures() const override;
    bool writeContours(JsonWriter& json) const override;

    double gl() const { return m_gl; }
    const std::vector<PixelPoint>& polygon() const { return m_polygon; }
    const std::vector<SnakeSliceResult>& slices() const { return m_slices.done(); }

protected:
    const Geometry& grid() const override { return m_request.volume->geometry(); }

private:
    /// Cumulated images of `slice`, the polygon uploaded, its first sums and GL (a launch of no steps).
    void beginSlice(int slice, const std::vector<PixelPoint>& polygon, int d);
    /// Runs up to `budget` iterations on the device (fewer when the slice ends); returns those done.
    int launch(int budget);
    /// Node arrays for at least `capacity` nodes, keeping the polygon and its segment sums if asked.
    void reserveNodes(int capacity, bool keep);
    void finishSlice();
    /// LUCENT_SNAKE_PROFILE: where a stage's time went (stderr), when the run ends.
    void printProfile() const;

    std::shared_ptr<GpuContext> m_context;
    SegmentationRequest m_request;
    SnakeSlices m_slices;
    SnakeTuning m_tuning;  // LUCENT_SNAKE_*, read at each start
    DeviceBuffer m_checkpoints, m_state, m_nodes, m_history, m_userMask;
    DeviceBuffer m_handoff;  // the replica kernel's two handoff buffers
    DeviceBuffer m_gather;   // its split items' sums and arrival counters
    DeviceBuffer m_cache;    // its nodes' candidate sums
    int m_cacheSums = 1;     // whether the replica kernel uses them (ReplicaProgram::useCache)
    /// Counters while LUCENT_SNAKE_PROFILE is set: the block-0 program's (ProgramProfile), then the
    /// replica's (ReplicaProfile).
    static constexpr int kProgramCounters = int(snake::ProgramProfile::Count);
    static constexpr int kProfileCounters = kProgramCounters + int(snake::ReplicaProfile::Count);
    DeviceBuffer m_profile;
    mutable DeviceBuffer m_labelPolygons, m_labelRanges;
    snake::State* m_host = nullptr;  // pinned mirror of the device state
    int m_capacity = 0, m_blocks = 0, m_sharedItems = 0, m_slice = 0;
    SnakeReplicaShape m_replica;  // capacity 0: the replica kernel is off or does not fit
    int m_replicaBlocks = 1;
    int m_sms = 0, m_maxBlocks = 0;  // the device's SMs; blocks of the program kernel that can be resident
    SnakeBounds m_bounds;            // the pixels the snake sees on every slice (snakeBounds)
    std::vector<PixelPoint> m_polygon;
    std::vector<double> m_glHistory;
    double m_gl = 0;
    int m_iterations = 0;
    bool m_finished = true;
    mutable DeviceTimer m_timer;
    double m_msUpload = 0;
};

}  // namespace lucent::gpu
