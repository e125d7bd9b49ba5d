/// @brief fillBetweenSlices: labelled slices, the gaps between them (in parallel, label by label),
/// regions matched by overlap, shapes written into the background.
#include "lucent/core/SliceFill.h"

#include "PlaneMask.h"
#include "ShapeInterpolation.h"
#include "SlicePresence.h"

#include "lucent/core/Errors.h"
#include "lucent/core/ParallelFor.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace lucent {

namespace {

using fill::PlaneBox;
using fill::PlaneMask;

/// One slice plane of the axis: its pixel (x, y) is voxel (u = x, v = y) of the two other axes.
struct SlicePlane {
    int axis, width, height;
    std::size_t strideX, strideY, strideS;
    fill::PlaneSpacing spacing;

    SlicePlane(const Geometry& g, int a) : axis(a) {
        const std::size_t si = 1, sj = std::size_t(g.dims[0]), sk = sj * std::size_t(g.dims[1]);
        const int u = a == 0 ? 1 : 0, v = a == 2 ? 1 : 2;
        const std::size_t strides[3] = {si, sj, sk};
        width = g.dims[u], height = g.dims[v];
        strideX = strides[u], strideY = strides[v], strideS = strides[a];
        spacing = {g.spacing[u], g.spacing[v]};
    }
    std::size_t voxel(int x, int y, int s) const { return x * strideX + y * strideY + s * strideS; }

    /// The pixels of slice s carrying `label`, on the whole plane.
    PlaneMask extract(const LabelMap& map, std::uint8_t label, int s) const {
        PlaneMask m(PlaneBox{0, 0, width, height});
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) m[std::size_t(y) * width + x] = map[voxel(x, y, s)] == label;
        return m;
    }
};

/// Disjoint sets over the regions of both slices.
struct Groups {
    std::vector<std::uint32_t> parent;
    explicit Groups(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
    std::uint32_t root(std::uint32_t a) {
        while (parent[a] != a) a = parent[a] = parent[parent[a]];
        return a;
    }
    void join(std::uint32_t a, std::uint32_t b) { parent[root(a)] = root(b); }
};

/// The regions of each group of overlapping regions, one mask per side (empty where a side has none).
std::vector<std::pair<PlaneMask, PlaneMask>> matchRegions(const PlaneMask& first, const PlaneMask& last) {
    const fill::PlaneComponents ca = fill::components(first), cb = fill::components(last);
    Groups groups(std::size_t(ca.count) + cb.count);
    for (std::size_t p = 0; p < first.size(); ++p)
        if (ca.ids[p] && cb.ids[p]) groups.join(ca.ids[p] - 1, ca.count + cb.ids[p] - 1);
    // Each region's group numbered once, then each group's box on each side, then its masks.
    std::vector<int> slotOfRoot(groups.parent.size(), -1), slot(groups.parent.size());
    int groupCount = 0;
    for (std::uint32_t r = 0; r < groups.parent.size(); ++r) {
        const std::uint32_t root = groups.root(r);
        if (slotOfRoot[root] < 0) slotOfRoot[root] = groupCount++;
        slot[r] = slotOfRoot[root];
    }
    std::vector<std::pair<PlaneBox, PlaneBox>> boxes(static_cast<std::size_t>(groupCount));
    const int w = first.box().w;
    for (std::size_t p = 0; p < first.size(); ++p) {
        const PlaneBox pixel{int(p % w), int(p / w), 1, 1};
        if (ca.ids[p]) boxes[slot[ca.ids[p] - 1]].first = fill::unite(boxes[slot[ca.ids[p] - 1]].first, pixel);
        if (cb.ids[p]) {
            PlaneBox& b = boxes[slot[ca.count + cb.ids[p] - 1]].second;
            b = fill::unite(b, pixel);
        }
    }
    std::vector<std::pair<PlaneMask, PlaneMask>> out;
    for (const auto& [a, b] : boxes) out.emplace_back(PlaneMask(a), PlaneMask(b));
    auto set = [w](PlaneMask& m, std::size_t p) {
        m[std::size_t(int(p / w) - m.box().y0) * m.box().w + (int(p % w) - m.box().x0)] = 1;
    };
    for (std::size_t p = 0; p < first.size(); ++p) {
        if (ca.ids[p]) set(out[slot[ca.ids[p] - 1]].first, p);
        if (cb.ids[p]) set(out[slot[ca.count + cb.ids[p] - 1]].second, p);
    }
    return out;
}

struct GapResult {
    std::size_t added = 0;
    int slicesGained = 0;
};

/// Fills `label` on the slices strictly between labelled slices a and b.
GapResult fillGap(LabelMap& map, const SlicePlane& plane, std::uint8_t label, int a, int b, FillMethod method) {
    const int gap = b - a;
    std::vector<bool> gained(std::size_t(gap), false);
    GapResult result;
    const fill::EmitShape write = [&](int offset, const PlaneMask& shape) {
        const PlaneBox& box = shape.box();
        const int s = a + offset;
        for (int y = std::max(0, box.y0); y < std::min(plane.height, box.y0 + box.h); ++y)
            for (int x = std::max(0, box.x0); x < std::min(plane.width, box.x0 + box.w); ++x) {
                if (!shape[std::size_t(y - box.y0) * box.w + (x - box.x0)]) continue;
                std::uint8_t& v = map[plane.voxel(x, y, s)];
                if (v != 0) continue;
                v = label;
                ++result.added;
                gained[std::size_t(offset)] = true;
            }
    };
    const auto groups = matchRegions(plane.extract(map, label, a), plane.extract(map, label, b));
    for (const auto& [first, last] : groups) {
        const bool onFirst = !first.box().empty(), onLast = !last.box().empty();
        if (onFirst && onLast)
            fill::interpolatePair(first, last, gap, method, plane.spacing, write);
        else
            fill::vanish(onFirst ? first : last, onFirst, gap, plane.spacing, write);
    }
    result.slicesGained = int(std::count(gained.begin(), gained.end(), true));
    return result;
}

std::array<bool, 256> wantedSet(const std::vector<std::uint8_t>& labels) {
    std::array<bool, 256> wanted{};
    for (int v = 1; v < 256; ++v) wanted[v] = labels.empty();
    for (auto v : labels) wanted[v] = v != 0;
    return wanted;
}

int sparseAxisOf(const fill::SlicePresence& presence, const std::array<bool, 256>& wanted) {
    int best = -1;
    double bestShare = -1;
    for (int axis : {2, 1, 0}) {  // ties go to the first seen: k, then j
        // Each label's own span: a label drawn on every slice beside one drawn on a few does not
        // hide the gaps of the second.
        double empty = 0, span = 0;
        for (int v = 1; v < 256; ++v) {
            if (!wanted[v]) continue;
            const std::vector<int> held = presence.slices(axis, std::uint8_t(v));
            if (held.empty()) continue;
            span += held.back() - held.front() + 1;
            empty += double(held.back() - held.front() + 1) - double(held.size());
        }
        if (span == 0) return -1;
        if (empty / span > bestShare) best = axis, bestShare = empty / span;
    }
    return best;
}

}  // namespace

const char* fillMethodKey(FillMethod method) {
    return method == FillMethod::Morphological ? "morphological" : "signed-distance";
}

FillMethod fillMethodFromKey(const std::string& key) {
    for (FillMethod m : {FillMethod::Morphological, FillMethod::SignedDistance})
        if (key == fillMethodKey(m)) return m;
    throw std::invalid_argument("method must be morphological or signed-distance, not '" + key + "'");
}

const char* axisName(int axis) { return axis == 0 ? "i" : axis == 1 ? "j" : "k"; }

int sparseAxis(const LabelMap& map, const std::vector<std::uint8_t>& labels) {
    const fill::SlicePresence presence(map, wantedSet(labels), 0);
    return sparseAxisOf(presence, wantedSet(labels));
}

std::vector<std::pair<int, int>> sliceGaps(const std::vector<int>& s) {
    std::vector<std::pair<int, int>> pairs;
    for (std::size_t n = 1; n < s.size(); ++n)
        if (s[n] - s[n - 1] > 1) pairs.emplace_back(s[n - 1], s[n]);
    return pairs;
}

SliceFillPlan planSliceFill(const LabelMap& map, const SliceFillOptions& options) {
    if (options.axis < -1 || options.axis > 2)
        throw std::invalid_argument("fill between slices: axis " + std::to_string(options.axis) + " is not 0, 1 or 2");
    const std::array<bool, 256> wanted = wantedSet(options.labels);
    const fill::SlicePresence presence(map, wanted, options.threads);
    SliceFillPlan plan;
    plan.axis = options.axis >= 0 ? options.axis : sparseAxisOf(presence, wanted);
    if (plan.axis < 0) plan.axis = 2;  // nothing labelled: nothing to fill
    // Ascending values: where two labels reach one voxel the lower, filled first, keeps it.
    for (int v = 1; v < 256; ++v) {
        if (!wanted[v] || !presence.present(std::uint8_t(v))) continue;
        plan.labels.emplace_back(std::uint8_t(v), presence.slices(plan.axis, std::uint8_t(v)));
        plan.gaps += sliceGaps(plan.labels.back().second).size();
    }
    return plan;
}

SliceFillReport fillBetweenSlices(LabelMap& map, const SliceFillOptions& options, const ProgressCallback& progress) {
    const SliceFillPlan plan = planSliceFill(map, options);
    SliceFillReport report;
    report.axis = plan.axis;
    ProgressCounter counter(progress, plan.gaps);
    const SlicePlane plane(map.geometry(), report.axis);
    for (const auto& entry : plan.labels) {
        // Named, not a structured binding: the lambda below captures it (clang 14 cannot capture bindings).
        const auto label = entry.first;
        const auto& s = entry.second;
        const std::vector<std::pair<int, int>> pairs = sliceGaps(s);
        std::vector<GapResult> results(pairs.size());
        // Gaps of one label write disjoint slices and read only their own two labelled slices.
        parallelFor(pairs.size(), options.threads, [&](std::size_t n) {
            if (counter.cancelled()) throw Cancelled();
            results[n] = fillGap(map, plane, label, pairs[n].first, pairs[n].second, options.method);
            if (!counter.advance()) throw Cancelled();
        });
        LabelFillFigures figures{label, int(s.size()), 0, 0};
        for (const GapResult& r : results) figures.filledSlices += r.slicesGained, figures.voxelsAdded += r.added;
        report.labels.push_back(figures);
    }
    return report;
}

}  // namespace lucent
