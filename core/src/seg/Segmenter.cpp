/// @brief Request validation and the run-to-completion helper.
#include "lucent/core/seg/Segmenter.h"
#include "lucent/core/seg/MethodParameters.h"
#include "lucent/core/seg/SeedVoxels.h"
#include "lucent/core/seg/Snake3dStart.h"
#include "lucent/core/seg/SnakeSlices.h"
#include "lucent/core/ParallelFor.h"
#include "lucent/core/StageTimes.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

namespace lucent {

namespace {
std::string str(const VoxelIndex& s) {
    return std::to_string(s.i) + "," + std::to_string(s.j) + "," + std::to_string(s.k);
}

template <class T>
std::string number(T v) {
    std::ostringstream out;
    out << v;  // 0.5, 1, 255: as a user types them
    return out.str();
}

/// "within 2..255", "at least 1" (below a limit that has no upper end), "greater than 1" (open lower end).
template <class T>
void checkLimit(const Limit<T>& limit, T value, const char* name) {
    if (limit.allows(value)) return;
    const bool noMax = double(limit.max) >= double(kNoIntLimit);
    std::string range = "within " + number(limit.min) + ".." + number(limit.max);
    if (limit.minOpen)
        range = "greater than " + number(limit.min) + (noMax ? "" : " and at most " + number(limit.max));
    else if (noMax && value < limit.min)
        range = "at least " + number(limit.min);
    throw std::invalid_argument(std::string(name) + " must be " + range);
}

}  // namespace

void validateParameters(Method method, const SegmentationRequest& r) {
    for (const Parameter* p : parametersOf(method)) {
        if (p->kind == ParameterKind::OptionalRange) {
            if (const auto range = p->getRange(r)) checkRange(*p, *range);
        } else if (const auto value = p->get(r)) {
            checkParameter(*p, *value);
        }
    }
    if (method == Method::RegionGrowing && r.regionGrowing.lower > r.regionGrowing.upper)
        throw std::invalid_argument("lower bound is above the upper bound");
    if (method == Method::Snake3d)  // one radius a bubble: a list, not a row of the table
        for (double radius : r.snake3d.radiiMm) checkLimit(kSnake3dLimits.radiusMm, radius, "radius");
}

namespace {

std::string str(const std::array<int, 4>& q) {
    return std::to_string(q[0]) + "," + std::to_string(q[1]) + "," + std::to_string(q[2]) + "," + std::to_string(q[3]);
}
}  // namespace

void validateRequest(Method method, const SegmentationRequest& r) {
    if (!r.volume || r.volume->empty()) throw std::invalid_argument("no volume to segment");
    const Geometry& g = r.volume->geometry();
    if (r.mask && r.mask->geometry().dims != g.dims)
        throw std::invalid_argument("mask dimensions differ from the volume's");
    if (method == Method::RegionGrowing || method == Method::FuzzyConnectedness) {
        if (r.seeds.empty()) throw std::invalid_argument("at least one --seed i,j,k is needed");
        for (const auto& s : r.seeds)
            if (!g.contains(s.i, s.j, s.k))
                throw std::invalid_argument("seed " + str(s) + " is outside the volume (" + std::to_string(g.dims[0]) +
                                            " x " + std::to_string(g.dims[1]) + " x " + std::to_string(g.dims[2]) + ")");
    }
    if (method == Method::Snake) {
        const auto& p = r.snake;
        if (p.slice < 0 || p.slice >= g.dims[2])
            throw std::invalid_argument("slice " + std::to_string(p.slice) + " is outside 0.." + std::to_string(g.dims[2] - 1));
        auto insideSlice = [&](const std::array<int, 4>& q) {
            return q[0] >= 0 && q[1] >= 0 && q[2] < g.dims[0] && q[3] < g.dims[1] && q[2] - q[0] >= 2 &&
                   q[3] - q[1] >= 2;
        };
        if (p.domain && !insideSlice(*p.domain))
            throw std::invalid_argument("domain " + str(*p.domain) +
                                        " must lie inside the slice and be at least 3 pixels wide and high");
        if (!p.domain && !insideSlice(p.rect))
            throw std::invalid_argument("rectangle must lie inside the slice and be at least 3 pixels wide and high");
        // With a domain the rectangle is clipped to it (snakeStartRect, what both engines start from).
        const auto c = snakeStartRect(r);
        if (p.domain && (c[0] > c[2] || c[1] > c[3]))
            throw std::invalid_argument("the starting rectangle " + str(p.rect) + " and the domain " + str(*p.domain) +
                                        " do not overlap");
        if (p.domain && (c[2] - c[0] < 2 || c[3] - c[1] < 2))
            throw std::invalid_argument("the starting rectangle " + str(p.rect) + " clipped to the domain " +
                                        str(*p.domain) + " is less than 3 pixels wide or high");
    }
    if (method == Method::GrowCut) {
        const LabelMap* seeds = r.growCut.seeds;
        if (!seeds) throw std::invalid_argument("grow from seeds needs a seeds label volume");
        if (seeds->geometry().dims != g.dims)
            throw std::invalid_argument("seeds label volume dimensions differ from the volume's");
        const stages::Scope stage("grow from seeds: the seeds checked for one");
        if (!holdsSeed(*seeds, r.threads))
            throw std::invalid_argument("the seeds label volume holds no seed (every voxel is 0)");
    }
    validateParameters(method, r);
    if (method == Method::Snake3d) validateSnake3dStart(r);  // its radii and margin checked first
}

UpdateOutcome Segmenter::update(const SegmentationRequest& request) {
    start(request);
    return UpdateOutcome::Restarted;
}

void Segmenter::result(LabelMap& out) const {
    const Geometry& g = grid();
    if (out.voxelCount() != g.voxelCount() || !out.geometry().sameGrid(g)) {
        const stages::Scope stage("engine result: label map made");
        out = LabelMap(g);
    }
    writeLabels(LabelSink::host(out));
}

void writeFigures(JsonWriter& json, const MethodFigures& f) {
    if (f.affinity) {
        json.key("object_mean").value(f.affinity->mean);
        json.key("object_sigma").value(f.affinity->objectSigma);
        json.key("diff_sigma").value(f.affinity->diffSigma);
    }
    if (f.threshold) json.key("threshold").value(*f.threshold);
    if (!f.centres.empty()) json.key("centres").array(f.centres);
    if (!f.clusterVoxels.empty()) {
        json.key("cluster_voxels").beginArray();
        for (std::size_t n : f.clusterVoxels) json.value(n);
        json.endArray();
    }
    if (f.samples) json.key("samples").value(*f.samples);
    if (!f.path.empty()) json.key("path").value(f.path);
    if (f.gl) json.key("gl").value(*f.gl);
    if (f.slices) json.key("slices").value(*f.slices);
    if (f.nodes) json.key("nodes").value(*f.nodes);
    if (f.meanInside) json.key("mean_inside").value(*f.meanInside);
    if (f.meanOutside) json.key("mean_outside").value(*f.meanOutside);
    if (f.converged) json.key("converged").value(*f.converged);
    if (f.msDevice) json.key("ms_device").value(*f.msDevice);
    if (f.msUpload) json.key("ms_upload").value(*f.msUpload);
    if (f.rounds) json.key("rounds").value(*f.rounds);
    if (f.tileVisits) json.key("tile_visits").value(*f.tileVisits);
    if (!f.labelVoxels.empty()) {
        json.key("label_voxels").beginObject();
        for (const auto& [label, voxels] : f.labelVoxels) json.key(std::to_string(label)).value(voxels);
        json.endObject();
    }
}

bool sameScope(const SegmentationRequest& a, const SegmentationRequest& b) {
    auto sameRoi = [](const std::optional<VoxelBox>& x, const std::optional<VoxelBox>& y) {
        return x.has_value() == y.has_value() && (!x || (x->lo == y->lo && x->hi == y->hi));
    };
    return a.volume == b.volume && a.mask == b.mask && sameRoi(a.roi, b.roi);
}

bool growsOn(const SegmentationRequest& now, const SegmentationRequest& next) {
    const auto &a = now.regionGrowing, &b = next.regionGrowing;
    if (!(b.lower <= a.lower && b.upper >= a.upper && b.connectivity == a.connectivity) || !sameScope(now, next)) return false;
    for (const auto& s : now.seeds)
        if (std::find(next.seeds.begin(), next.seeds.end(), s) == next.seeds.end()) return false;
    return true;
}

bool keepsConnectivityMap(const SegmentationRequest& now, const SegmentationRequest& next) {
    const auto &a = now.fuzzyConnectedness, &b = next.fuzzyConnectedness;
    return sameScope(now, next) && now.seeds == next.seeds && a.objectMean == b.objectMean &&
           a.objectSigma == b.objectSigma && a.diffSigma == b.diffSigma && a.estimateRadius == b.estimateRadius;
}

std::optional<VoxelBox> addedSeeds(const std::vector<std::uint8_t>& nowSeeds, const SegmentationRequest& now,
                                   const SegmentationRequest& next) {
    const LabelMap* seeds = next.growCut.seeds;
    if (!sameScope(now, next) || !seeds || seeds->voxelCount() != nowSeeds.size()) return std::nullopt;
    const stages::Scope stage("grow from seeds: the seeds compared with the run's");
    const Geometry& g = next.volume->geometry();
    if (seeds->geometry().dims != g.dims) return std::nullopt;
    const std::uint8_t* s = seeds->data();
    const VoxelBox whole = wholeBox(g);
    const VoxelBox c = next.growCut.changedBox ? intersect(*next.growCut.changedBox, whole) : whole;
    if (c.empty()) return VoxelBox::none();
    const std::size_t slices = std::size_t(c.hi[2] - c.lo[2] + 1);
    std::vector<VoxelBox> boxes(slices, VoxelBox::none());
    std::vector<char> kept(slices, 1);
    parallelFor(slices, next.threads, [&](std::size_t n) {
        const int k = c.lo[2] + int(n);
        for (int j = c.lo[1]; j <= c.hi[1]; ++j) {
            const std::size_t row = g.index(0, j, k);
            for (int i = c.lo[0]; i <= c.hi[0]; ++i) {
                const std::uint8_t was = nowSeeds[row + i], is = s[row + i];
                if (was == is) continue;
                if (was != 0) kept[n] = 0;
                boxes[n].add(i, j, k);
            }
        }
    });
    if (std::find(kept.begin(), kept.end(), 0) != kept.end()) return std::nullopt;
    VoxelBox box = VoxelBox::none();
    for (const VoxelBox& b : boxes)
        if (const auto m = merge(box.empty() ? std::nullopt : std::optional(box), b)) box = *m;
    return box;
}

StepReport Segmenter::run(int iterationsPerStep) {
    StepReport report;
    do {
        report = step(iterationsPerStep);
    } while (!report.finished);
    return report;
}

}  // namespace lucent
