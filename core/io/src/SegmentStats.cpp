/// @brief Writing `lucent segment --stats`.
#include "lucent/io/SegmentStats.h"

#include "lucent/core/JsonWriter.h"
#include "lucent/core/LabelStatistics.h"
#include "lucent/core/ParallelFor.h"
#include "lucent/core/Version.h"
#include "lucent/core/seg/MethodParameters.h"
#include "lucent/core/seg/Snake3dStart.h"
#include "lucent/io/FileUtil.h"

#include <sstream>

namespace lucent::io {

namespace {

std::vector<double> numbers(std::initializer_list<double> v) { return v; }

/// "seeds" as voxel indices, and beside them each seed as given: "seeds_lps_mm" keeps the point of a
/// seed given in millimetres (LPS; null for a --seed voxel), "seeds_given" the option or file line.
void writeSeeds(JsonWriter& json, const SegmentRun& run) {
    const std::vector<VoxelIndex>& seeds = run.request->seeds;
    json.key("seeds").beginArray();
    for (const auto& s : seeds) json.array(numbers({double(s.i), double(s.j), double(s.k)}));
    json.endArray();
    const auto origin = [&](std::size_t i) { return i < run.seedOrigins.size() ? run.seedOrigins[i] : SeedOrigin{}; };
    json.key("seeds_lps_mm").beginArray();
    for (std::size_t i = 0; i < seeds.size(); ++i) {
        if (const auto lps = origin(i).lps)
            json.array(numbers({lps->x, lps->y, lps->z}));
        else
            json.null();
    }
    json.endArray();
    json.key("seeds_given").beginArray();
    for (std::size_t i = 0; i < seeds.size(); ++i) json.value(origin(i).given);
    json.endArray();
}

/// The method's rows of the parameter table (MethodParameters.h) as the engine ran them: given or
/// defaulted, and an optional number left out as the engine estimated it (fc's M, S, D, from its
/// figures), those listed under "estimated"; null when the engine applied a rule instead.
void writeRows(JsonWriter& json, const SegmentRun& run) {
    SegmentationRequest ran = *run.request;
    if (const auto& a = run.figures.affinity) {
        auto& fc = ran.fuzzyConnectedness;
        fc.objectMean = a->mean;
        fc.objectSigma = a->objectSigma;
        fc.diffSigma = a->diffSigma;
    }
    std::vector<std::string> estimated;
    for (const Parameter* p : parametersOf(run.method)) {
        json.key(std::string(p->key));
        if (p->kind == ParameterKind::OptionalRange) {  // [lower, upper], or null: none given
            if (const auto range = p->getRange(ran))
                json.array(numbers({range->lower, range->upper}));
            else
                json.null();
            continue;
        }
        const auto v = p->get(ran);
        if (!v) json.null();
        else if (p->kind == ParameterKind::Flag) json.value(*v != 0);
        else if (p->kind == ParameterKind::Integer) json.value(static_cast<long long>(*v));
        else json.value(*v);
        const bool interval = run.intervalEstimated && p->kind == ParameterKind::Number;  // srg's lower and upper
        if (v && (interval || !p->get(*run.request))) estimated.emplace_back(p->key);
    }
    if (run.method == Method::RegionGrowing || run.method == Method::FuzzyConnectedness)
        json.key("estimated").array(estimated);
}

/// The method's own parameters: its rows, and its structural inputs (seeds, boxes, rectangles).
void writeMethodParameters(JsonWriter& json, const SegmentRun& run) {
    const SegmentationRequest& r = *run.request;
    writeRows(json, run);
    switch (run.method) {
        case Method::RegionGrowing:
        case Method::FuzzyConnectedness:
            writeSeeds(json, run);
            break;
        case Method::FuzzyCMeans:
            break;
        case Method::Snake:
            json.key("slice").value(r.snake.slice);
            json.key("rect").array(numbers(
                {double(r.snake.rect[0]), double(r.snake.rect[1]), double(r.snake.rect[2]), double(r.snake.rect[3])}));
            json.key("domain");  // the image the snake sees on every slice; null: the whole slice
            if (const auto& d = r.snake.domain)
                json.array(numbers({double((*d)[0]), double((*d)[1]), double((*d)[2]), double((*d)[3])}));
            else
                json.null();
            break;
        case Method::Snake3d: {
            const auto& p = r.snake3d;
            writeSeeds(json, run);
            json.key("box");  // the start box, corners included; null: bubbles only
            if (p.box)
                json.array(numbers({double(p.box->lo[0]), double(p.box->lo[1]), double(p.box->lo[2]),
                                    double(p.box->hi[0]), double(p.box->hi[1]), double(p.box->hi[2])}));
            else
                json.null();
            std::vector<double> radii;
            for (std::size_t i = 0; i < r.seeds.size(); ++i) radii.push_back(snake3dRadius(p, i));
            json.key("radii_mm").array(radii);
            const VoxelBox d = snake3dDomain(r);  // the voxels whose means drive the surface
            json.key("domain").array(numbers({double(d.lo[0]), double(d.lo[1]), double(d.lo[2]), double(d.hi[0]),
                                              double(d.hi[1]), double(d.hi[2])}));
            break;
        }
        case Method::GrowCut:
            json.key("seeds_mask").value(run.seedsMaskPath);
            json.key("seed_voxels").beginObject();  // seeds of each label in the file (ROI and mask aside)
            for (const auto& [label, voxels] : run.seedVoxels) json.key(std::to_string(label)).value(voxels);
            json.endObject();
            break;
    }
}

void writeParameters(JsonWriter& json, const SegmentRun& run) {
    json.key("parameters").beginObject();
    writeMethodParameters(json, run);
    const auto& roi = run.request->roi;
    json.key("roi");
    if (roi)
        json.array(numbers({double(roi->lo[0]), double(roi->lo[1]), double(roi->lo[2]), double(roi->hi[0]),
                            double(roi->hi[1]), double(roi->hi[2])}));
    else
        json.null();
    json.key("mask");
    if (run.maskPath.empty())
        json.null();
    else
        json.value(run.maskPath);
    json.endObject();
}

}  // namespace

void writeLabelFigures(JsonWriter& json, const std::vector<LabelStatistics>& statistics,
                       const std::vector<int>& filledSlices) {
    json.key("filled_slices").array(std::vector<double>(filledSlices.begin(), filledSlices.end()));
    json.key("labels").beginArray();
    for (const LabelStatistics& s : statistics) {
        json.beginObject();
        json.key("label").value(int(s.value));
        json.key("voxels").value(s.voxels);
        json.key("volume_ml").value(s.millilitres);
        for (const auto& [key, figure] : {std::pair{"mean", s.mean}, {"sd", s.stddev}, {"min", s.min}, {"max", s.max}}) {
            json.key(key);
            if (s.voxels)
                json.value(figure);
            else
                json.null();  // only filler under the label: nothing was measured
        }
        json.key("filled_voxels").value(s.filledVoxels);
        json.endObject();
    }
    json.endArray();
}

void writeLabelFigures(JsonWriter& json, const Volume& volume, const LabelMap& labels, unsigned threads) {
    writeLabelFigures(json, computeLabelStatistics(volume, labels, threads), volume.metadata().filledSlices());
}

void writeProvenance(JsonWriter& json, const VolumeIdentity& identity, const Volume& volume) {
    const Geometry& g = volume.geometry();
    const std::vector<double> dims{double(g.dims[0]), double(g.dims[1]), double(g.dims[2])};
    json.key("input").value(identity.input);
    json.key("series").value(identity.series);
    json.key("series_uid");
    if (volume.metadata().seriesUid.empty())
        json.null();
    else
        json.value(volume.metadata().seriesUid);
    json.key("lucent_version").value(kVersion);
    json.key("dimensions").array(dims);
    json.key("spacing_mm").array(std::vector<double>{g.spacing.x, g.spacing.y, g.spacing.z});
}

std::string segmentStatsJson(const SegmentRun& run) {
    std::ostringstream s;
    JsonWriter json(s);
    json.beginObject();
    json.key("method").value(methodName(run.method));
    json.key("backend").value(run.backend);
    json.key("voxels").value(run.voxels);
    json.key("volume_ml").value(double(run.voxels) * run.volume->geometry().voxelVolumeMl());
    json.key("iterations").value(run.steps.iterations);
    json.key("convergence").value(run.steps.convergence);
    json.key("ms_compute").value(run.msCompute);
    json.key("ms_total").value(run.msTotal);
    json.key("ms_load").value(run.msLoad);
    json.key("threads").value(int(run.request->threads ? run.request->threads : defaultThreadCount()));
    writeProvenance(json, run.identity, *run.volume);
    const std::vector<LabelStatistics> computed =
        run.statistics ? std::vector<LabelStatistics>{} : computeLabelStatistics(*run.volume, *run.labels, run.request->threads);
    const std::vector<LabelStatistics>& statistics = run.statistics ? *run.statistics : computed;
    if (run.method == Method::FuzzyCMeans) {
        // Every voxel of the mask, filled slices included: the clusters as the engine made them.
        std::vector<double> counts(std::size_t(run.request->fuzzyCMeans.clusters), 0.0);
        for (const LabelStatistics& s : statistics)
            if (s.value >= 1 && s.value <= counts.size()) counts[s.value - 1u] = double(s.voxels + s.filledVoxels);
        json.key("cluster_voxels").array(counts);
    }
    if (!run.fallback.empty()) json.key("fallback").value(run.fallback);
    writeFigures(json, run.figures);
    writeParameters(json, run);
    writeLabelFigures(json, statistics, run.volume->metadata().filledSlices());
    json.endObject();
    return s.str();
}

std::string segmentStatsText(const SegmentRun& run, const std::string& path) {
    if (toLower(path).ends_with(".csv"))
        return labelStatisticsCsv(run.statistics ? *run.statistics
                                                 : computeLabelStatistics(*run.volume, *run.labels, run.request->threads),
                                  LabelTable{});
    return segmentStatsJson(run);
}

}  // namespace lucent::io
