/// @brief The CUDA fill between slices: per label, its gaps in batches (nodes, union-find, group
/// boxes downloaded, one block per group; a pair's shapes by the method's kernel), the filled voxels
/// counted per slice on the device, the map uploaded and downloaded once through pinned buffers.
#include "SliceFillCuda.h"

#include "CudaCheck.h"
#include "DeviceBuffer.h"
#include "SliceFillKernels.cuh"
#include "SliceFillMorph.cuh"
#include "Staging.h"

#include "lucent/core/Errors.h"

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <vector>

namespace lucent::gpu {

namespace {

using fill::MorphTask;
using fill::Plane;
using fill::Task;

/// At most this many nodes (two slice planes per gap) in one batch: 8 bytes each, with the scan.
constexpr std::size_t kBatchNodes = std::size_t(1) << 26;
constexpr int kThreads = 256;

Plane planeOf(const Geometry& g, int axis) {
    const std::size_t strides[3] = {1, std::size_t(g.dims[0]), std::size_t(g.dims[0]) * std::size_t(g.dims[1])};
    const int u = axis == 0 ? 1 : 0, v = axis == 2 ? 1 : 2;
    Plane p;
    p.width = g.dims[u], p.height = g.dims[v];
    p.strideX = strides[u], p.strideY = strides[v], p.strideS = strides[axis];
    p.su = g.spacing[u], p.sv = g.spacing[v];
    return p;
}

int gridFor(std::size_t items) {
    return int(std::min<std::size_t>(std::max<std::size_t>(1, (items + kThreads - 1) / kThreads), 65535));
}

/// Device buffers kept across labels and batches (grown, never shrunk).
struct Scratch {
    DeviceBuffer parent, groupSum, gaps, boxes, gapOfGroup, tasks, scan;
    DeviceBuffer steps, a, b, t, f, v, z;
    // The morphological pairs: their list, canvases, shapes, transform scratch and overflow flag.
    DeviceBuffer morph, canvas, shapes, mSteps, d0, d1, d2, mf, mv, mz, overflow;
};

template <typename T> void upload(DeviceBuffer& buffer, const std::vector<T>& host, const char* what) {
    buffer.reserve(host.size() * sizeof(T), what);
    cudaCheck(cudaMemcpy(buffer.get(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), what);
}

/// Union-find over the batch's nodes; returns the number of groups, with their boxes and gaps.
int groupRegions(Scratch& s, std::uint8_t* map, const Plane& plane, const std::vector<int2>& gaps, std::uint8_t label,
                 std::vector<int>& boxes, std::vector<int>& gapOfGroup) {
    const std::size_t nodes = gaps.size() * 2 * plane.pixels();
    upload(s.gaps, gaps, "fill between slices: the gaps");
    s.parent.reserve(nodes * 4, "fill between slices: the regions of the labelled slices");
    s.groupSum.reserve(nodes * 4, "fill between slices: the group numbers");
    auto* parent = s.parent.as<std::uint32_t>();
    auto* sum = s.groupSum.as<std::uint32_t>();
    fill::initNodes<<<gridFor(nodes), kThreads>>>(map, plane, s.gaps.as<int2>(), nodes, label, parent);
    fill::linkNodes<<<gridFor(nodes), kThreads>>>(plane, nodes, parent);
    fill::flattenNodes<<<gridFor(nodes), kThreads>>>(nodes, parent, sum);
    launchCheck("fill between slices: regions");
    std::size_t scanBytes = 0;
    cudaCheck(cub::DeviceScan::InclusiveSum(nullptr, scanBytes, sum, sum, int(nodes)), "fill between slices: scan");
    s.scan.reserve(scanBytes, "fill between slices: the scan");
    cudaCheck(cub::DeviceScan::InclusiveSum(s.scan.get(), scanBytes, sum, sum, int(nodes)), "fill between slices: scan");
    std::uint32_t groups = 0;
    cudaCheck(cudaMemcpy(&groups, sum + nodes - 1, 4, cudaMemcpyDeviceToHost), "fill between slices: groups");
    if (groups == 0) return 0;
    boxes.assign(std::size_t(groups) * 8, 0);
    for (std::size_t g = 0; g < groups; ++g)
        for (int side = 0; side < 2; ++side) {
            int* box = boxes.data() + g * 8 + side * 4;
            box[0] = box[1] = INT_MAX, box[2] = box[3] = -1;
        }
    upload(s.boxes, boxes, "fill between slices: the group boxes");
    s.gapOfGroup.reserve(std::size_t(groups) * 4, "fill between slices: the group gaps");
    fill::groupBoxes<<<gridFor(nodes), kThreads>>>(plane, nodes, parent, sum, s.boxes.as<int>(), s.gapOfGroup.as<int>());
    launchCheck("fill between slices: group boxes");
    gapOfGroup.resize(groups);
    cudaCheck(cudaMemcpy(boxes.data(), s.boxes.get(), boxes.size() * 4, cudaMemcpyDeviceToHost), "fill between slices");
    cudaCheck(cudaMemcpy(gapOfGroup.data(), s.gapOfGroup.get(), groups * 4, cudaMemcpyDeviceToHost), "fill between slices");
    return int(groups);
}

/// The CPU's boxes: both sides' boxes united (a pair) or one side's (a region with no partner),
/// grown by a pixel of background. Arena scratch for the tasks fillTasks computes: all of them when
/// it blends pairs, else the regions with no partner.
std::vector<Task> planTasks(int groups, const std::vector<int>& boxes, const std::vector<int>& gapOfGroup,
                            const std::vector<int2>& gaps, bool blendPairs, std::size_t& pixels,
                            std::size_t& zEntries) {
    std::vector<Task> tasks;
    pixels = zEntries = 0;
    for (int g = 0; g < groups; ++g) {
        const int* first = boxes.data() + std::size_t(g) * 8;
        const int* last = first + 4;
        const bool onFirst = first[2] >= 0, onLast = last[2] >= 0;
        Task t;
        t.group = g, t.gap = gapOfGroup[g];
        t.first = gaps[t.gap].x, t.last = gaps[t.gap].y;
        t.side = onFirst && onLast ? -1 : onFirst ? 0 : 1;
        int x0 = INT_MAX, y0 = INT_MAX, x1 = -1, y1 = -1;
        for (const int* box : {first, last}) {
            if (box[2] < 0) continue;
            x0 = std::min(x0, box[0]), y0 = std::min(y0, box[1]), x1 = std::max(x1, box[2]), y1 = std::max(y1, box[3]);
        }
        t.x0 = x0 - 1, t.y0 = y0 - 1, t.w = x1 - x0 + 3, t.h = y1 - y0 + 3;
        t.pixel = pixels, t.zEntry = zEntries;
        if (blendPairs || t.side >= 0) {
            pixels += std::size_t(t.w) * t.h;
            zEntries += std::size_t(t.w + 1) * t.h;
        }
        tasks.push_back(t);
    }
    return tasks;
}

/// The first margin of a pair's canvas beyond its box, in pixels: an eighth of the box's larger side
/// (medians stay near the pair's box), or LUCENT_SLICE_FILL_MARGIN (tests: a small one makes shapes
/// leave their canvas, so that the batch runs again with larger ones).
int firstMargin(const Task& t) {
    const char* text = std::getenv("LUCENT_SLICE_FILL_MARGIN");
    if (text && std::atoi(text) > 0) return std::atoi(text);
    return std::max(t.w, t.h) / 8 + 2;
}

/// The pairs' canvases, shapes and scratch with `scale` times the first margin; the scratch of a
/// pair holds a median box as large as its canvas.
std::vector<MorphTask> planPairs(const std::vector<Task>& tasks, int scale, std::size_t& canvasBytes,
                                 std::size_t& shapes, std::size_t& scratch, int& widest) {
    std::vector<MorphTask> pairs;
    canvasBytes = shapes = scratch = 0;
    widest = 0;
    for (std::size_t n = 0; n < tasks.size(); ++n) {
        const Task& t = tasks[n];
        if (t.side >= 0) continue;
        const int margin = scale * firstMargin(t);
        MorphTask m;
        m.task = int(n);
        m.x0 = t.x0 - margin, m.y0 = t.y0 - margin, m.w = t.w + 2 * margin, m.h = t.h + 2 * margin;
        const std::size_t area = std::size_t(m.w) * m.h, slices = std::size_t(t.last - t.first) + 1;
        m.canvas = canvasBytes, m.shapes = shapes, m.scratch = scratch, m.capacity = area;
        canvasBytes += slices * area, shapes += slices, scratch += area;
        widest = std::max(widest, margin);
        pairs.push_back(m);
    }
    return pairs;
}

/// The morphological shapes of the batch's pairs: run again with canvases twice as wide while a
/// shape leaves its canvas (writes are idempotent: the same label into voxels still 0).
void fillPairs(Scratch& s, std::uint8_t* map, const Plane& plane, const std::vector<Task>& tasks, std::uint8_t label) {
    const char* what = "fill between slices: morphological shapes";
    for (int scale = 1;; scale *= 2) {
        std::size_t canvasBytes = 0, shapes = 0, scratch = 0;
        int margin = 0;
        const std::vector<MorphTask> pairs = planPairs(tasks, scale, canvasBytes, shapes, scratch, margin);
        if (pairs.empty()) return;
        upload(s.morph, pairs, what);
        s.canvas.reserve(canvasBytes, "fill between slices: the shapes of each slice");
        s.shapes.reserve(shapes * sizeof(fill::Shape), what);
        s.mSteps.reserve(scratch * 4, "fill between slices: column distances");
        s.mv.reserve(scratch * 4, "fill between slices: envelope scratch");
        for (DeviceBuffer* d : {&s.d0, &s.d1, &s.d2, &s.mf}) d->reserve(scratch * 8, "fill between slices: distance maps");
        s.mz.reserve(scratch * 16, "fill between slices: envelope scratch");
        s.overflow.reserve(4, what);
        cudaCheck(cudaMemset(s.canvas.get(), 0, canvasBytes), what);
        cudaCheck(cudaMemset(s.overflow.get(), 0, 4), what);
        const fill::MorphArena arena{s.canvas.as<std::uint8_t>(), s.shapes.as<fill::Shape>(), s.mSteps.as<std::int32_t>(),
                                     s.d0.as<double>(), s.d1.as<double>(), s.d2.as<double>(), s.mf.as<double>(),
                                     s.mz.as<double>(), s.mv.as<int>(), s.overflow.as<int>()};
        fill::morphTasks<<<int(pairs.size()), fill::kMorphThreads>>>(s.morph.as<MorphTask>(), s.tasks.as<Task>(), arena,
                                                                      plane, s.parent.as<std::uint32_t>(),
                                                                      s.groupSum.as<std::uint32_t>(), label, map);
        launchCheck(what);
        int overflow = 0;
        cudaCheck(cudaMemcpy(&overflow, s.overflow.get(), 4, cudaMemcpyDeviceToHost), what);
        if (!overflow) return;
        // Medians lie between their two shapes' boxes: a margin past the plane's size on every side
        // is never too small for shapes drawn on the plane; past it something else is wrong.
        if (margin > 2 * std::max(plane.width, plane.height))
            throw GpuError("fill between slices: a morphological shape left every canvas tried");
    }
}

void fillBatch(Scratch& s, std::uint8_t* map, const Plane& plane, const std::vector<int2>& gaps, std::uint8_t label,
               FillMethod method) {
    std::vector<int> boxes, gapOfGroup;
    const int groups = groupRegions(s, map, plane, gaps, label, boxes, gapOfGroup);
    if (groups == 0) return;
    const bool blendPairs = method == FillMethod::SignedDistance;
    std::size_t pixels = 0, zEntries = 0;
    const std::vector<Task> tasks = planTasks(groups, boxes, gapOfGroup, gaps, blendPairs, pixels, zEntries);
    upload(s.tasks, tasks, "fill between slices: the groups");
    s.steps.reserve(pixels * 4, "fill between slices: column distances");
    s.v.reserve(pixels * 4, "fill between slices: envelope scratch");
    for (DeviceBuffer* d : {&s.a, &s.b, &s.t, &s.f}) d->reserve(pixels * 8, "fill between slices: distance maps");
    s.z.reserve(zEntries * 8, "fill between slices: envelope scratch");
    const fill::Arena arena{s.steps.as<std::int32_t>(), s.a.as<double>(), s.b.as<double>(), s.t.as<double>(),
                            s.f.as<double>(), s.z.as<double>(), s.v.as<int>()};
    fill::fillTasks<<<int(tasks.size()), kThreads>>>(s.tasks.as<Task>(), arena, plane, s.parent.as<std::uint32_t>(),
                                                      s.groupSum.as<std::uint32_t>(), label, blendPairs, map);
    launchCheck("fill between slices: shapes");
    if (!blendPairs) fillPairs(s, map, plane, tasks, label);
}

/// The label's voxels on each slice strictly inside its gaps (none before the fill: only slices
/// without the label lie there), so the figures are what the fill added.
LabelFillFigures countAdded(const std::uint8_t* map, const Plane& plane,
                            const std::vector<std::pair<int, int>>& gaps, std::uint8_t label, int labelled) {
    LabelFillFigures figures{label, labelled, 0, 0};
    std::vector<int> inside;
    for (const auto& [first, last] : gaps)
        for (int slice = first + 1; slice < last; ++slice) inside.push_back(slice);
    if (inside.empty()) return figures;
    DeviceBuffer slices(inside.size() * 4, "fill between slices: slice list");
    DeviceBuffer counts(inside.size() * 8, "fill between slices: slice counts");
    cudaCheck(cudaMemcpy(slices.get(), inside.data(), inside.size() * 4, cudaMemcpyHostToDevice), "fill between slices");
    cudaCheck(cudaMemset(counts.get(), 0, counts.bytes()), "fill between slices");
    const dim3 grid(unsigned(std::min<std::size_t>(64, (plane.pixels() + kThreads - 1) / kThreads)), unsigned(inside.size()));
    fill::countSlices<<<grid, kThreads>>>(map, plane, slices.as<int>(), label, counts.as<unsigned long long>());
    launchCheck("fill between slices: counts");
    std::vector<unsigned long long> host(inside.size());
    cudaCheck(cudaMemcpy(host.data(), counts.get(), counts.bytes(), cudaMemcpyDeviceToHost), "fill between slices");
    for (unsigned long long c : host) {
        figures.voxelsAdded += c;
        figures.filledSlices += c > 0;
    }
    return figures;
}

}  // namespace

SliceFillReport fillBetweenSlicesCuda(LabelMap& map, const SliceFillPlan& plan, FillMethod method,
                                      const ProgressCallback& progress, std::size_t& deviceBytes) {
    SliceFillReport report;
    report.axis = plan.axis;
    ProgressCounter counter(progress, plan.gaps);
    if (plan.gaps == 0) {
        for (const auto& [label, slices] : plan.labels) report.labels.push_back({label, int(slices.size()), 0, 0});
        return report;
    }
    const Plane plane = planeOf(map.geometry(), plan.axis);
    const std::size_t perBatch = std::max<std::size_t>(1, kBatchNodes / (2 * plane.pixels()));
    DeviceBuffer device(map.voxelCount(), "fill between slices: the label map");
    auto* labels = device.as<std::uint8_t>();
    uploadStaged(labels, map.data(), map.voxelCount(), nullptr);
    Scratch scratch;
    for (const auto& [label, slices] : plan.labels) {
        const std::vector<std::pair<int, int>> gaps = sliceGaps(slices);
        for (std::size_t start = 0; start < gaps.size(); start += perBatch) {
            std::vector<int2> batch;
            for (std::size_t n = start; n < std::min(gaps.size(), start + perBatch); ++n)
                batch.push_back(make_int2(gaps[n].first, gaps[n].second));
            fillBatch(scratch, labels, plane, batch, label, method);
            cudaCheck(cudaDeviceSynchronize(), "fill between slices: shapes");
            // Cancelled before the download: the host map is as it was.
            for (std::size_t n = 0; n < batch.size(); ++n)
                if (!counter.advance()) throw Cancelled();
        }
        report.labels.push_back(countAdded(labels, plane, gaps, label, int(slices.size())));
    }
    deviceBytes = deviceBytesInUse();  // the map and the scratch, grown to the largest batch
    downloadStaged(map.data(), labels, map.voxelCount(), nullptr);
    return report;
}

}  // namespace lucent::gpu
