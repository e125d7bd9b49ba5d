/// @brief `lucent segment PATH --method srg|fc|fcm|snake [options] -o MASK`: runs one engine headless,
/// on one volume or (`--series all`) on every volume under PATH.
#include "CommandLine.h"
#include "Commands.h"
#include "Reporter.h"
#include "SeedPoints.h"
#include "SegmentOptions.h"
#include "SeriesBatch.h"

#include "lucent/core/HugePages.h"
#include "lucent/core/JsonWriter.h"
#include "lucent/core/StageTimes.h"
#include "lucent/core/seg/SeedInterval.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/EngineRun.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/io/FileSuffixes.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/LabelFile.h"
#include "lucent/io/SegmentStats.h"
#include "lucent/io/StagedOutputs.h"
#include "lucent/io/VolumeFile.h"

#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <future>
#include <iostream>
#include <sstream>

namespace lucent::app {

using io::SeedOrigin;
using io::SegmentRun;

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// The output names of one run (`{series}` filled in); empty where the option is absent.
struct SegmentOutputs {
    std::string mask, stats, connectivityMap, memberships, polygon;

    SegmentOutputs(const CommandLine& cl, const SeriesRun& run)
        : mask(run.output(cl.value("-o", cl.value("--output")))),
          stats(run.output(cl.value("--stats"))),
          connectivityMap(run.output(cl.value("--connectivity-map"))),
          memberships(run.output(cl.value("--memberships"))),
          polygon(run.output(cl.value("--polygon"))) {}

    /// The files written (`--stats -` is stdout: no file to keep from being overwritten).
    std::vector<std::string> files() const {
        std::vector<std::string> out{mask};
        for (const std::string* o : {&connectivityMap, &memberships, &polygon})
            if (!o->empty()) out.push_back(*o);
        if (!stats.empty() && stats != "-") out.push_back(stats);
        return out;
    }
};

using EngineResult = gpu::EngineRun;

/// Runs the engine to the end (gpu::runEngine); progress ("segmenting") from the engine's own
/// estimate. The engine is kept only for `keepEngine` (contours to write): otherwise its working
/// memory (a connectivity map, state bytes, device buffers) is given back before the outputs are written.
EngineResult runEngine(Method method, gpu::Backend backend, const SegmentationRequest& request, bool wantSoft,
                       bool keepEngine, const Reporter& report, int maxSteps, LabelMap& labels) {
    EngineResult r;
    try {
        r = gpu::runEngine(method, backend, request,
                           {.wantSoft = wantSoft, .keepEngine = keepEngine, .maxSteps = maxSteps,
                            .progress = report.progress("segmenting"),
                            .labels = labels.voxelCount() ? &labels : nullptr});
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(e.what());
    }
    if (r.voxels == 0)
        throw std::runtime_error(
            std::string("empty result: ") + methodName(method) +
            " labelled no voxel (check the seeds, interval, threshold or rectangle); nothing written");
    return r;
}

/// Every file of the run, staged: a failure in any of them (or SIGINT / SIGTERM) leaves none, not a
/// mask without its stats. Returns the stats document when --stats asked for one.
std::string writeOutputs(const SegmentOutputs& out, Method method, const Volume& volume, const EngineResult& r,
                         SegmentRun figures, io::ExistingOutput existing) {
    // The per-label figures are computed while the mask is written: the write waits on the disk
    // (and its sync) more than on a core. A failed write waits for them in the future's destructor.
    std::future<std::vector<LabelStatistics>> statistics;
    if (!out.stats.empty())
        statistics = std::async(std::launch::async, [&volume, &r, threads = figures.request->threads] {
            const stages::Scope stage("statistics");
            return computeLabelStatistics(volume, r.labels, threads);
        });
    io::StagedOutputs staged(existing);
    io::LabelExportOptions exportOptions;
    exportOptions.sourceSliceFiles = volume.metadata().sliceFiles;
    exportOptions.codes = volume.metadata().codes;
    exportOptions.present.emplace();  // from the run's count (runEngine): no pass over the mask again
    for (int v = 1; v < 256; ++v)
        if (r.labelVoxels[std::size_t(v)]) exportOptions.present->push_back(std::uint8_t(v));
    {
        const stages::Scope stage("mask write");
        io::writeLabelFile(r.labels, LabelTable{}, out.mask, exportOptions);
    }
    // Soft maps lie on the volume's grid: stored in its layout, as the mask and `convert` are.
    const io::OutputLayout layout = io::OutputLayout::of(volume);
    if (!out.connectivityMap.empty() && method == Method::FuzzyConnectedness)
        io::writeVolumeFile(r.soft.at(0), out.connectivityMap, layout);
    if (!out.memberships.empty() && method == Method::FuzzyCMeans) io::writeVolumeFrames(r.soft, out.memberships, layout);
    if (!out.polygon.empty() && r.engine) {
        std::ostringstream s;
        JsonWriter json(s);
        if (r.engine->writeContours(json)) io::writeFileAtomically(out.polygon, {s.str()});
    }
    std::string statsText;
    if (!out.stats.empty()) {
        const std::vector<LabelStatistics> computed = [&] {
            const stages::Scope stage("statistics wait");
            return statistics.get();
        }();
        figures.statistics = &computed;
        statsText = io::segmentStatsText(figures, out.stats);
        if (out.stats != "-") io::writeFileAtomically(out.stats, {statsText});
    }
    const stages::Scope stage("commit");
    staged.commit();
    return statsText;
}

/// How each --seed voxel was given, in the order requestFromOptions() placed them (first).
std::vector<SeedOrigin> voxelSeedOrigins(const CommandLine& cl) {
    std::vector<SeedOrigin> out;
    for (const std::string& text : cl.values("--seed")) out.push_back({"--seed " + text, std::nullopt});
    return out;
}

/// growcut's --seeds-mask, read onto the volume's voxels by the one placement rule of every mask (any
/// axis order, never resampled; another grid is refused naming the file); the seed voxels of each label.
std::vector<std::pair<int, std::size_t>> loadSeedsMask(const std::string& path, const Volume& volume, LabelMap& seeds,
                                                       SegmentationRequest& request) {
    const auto out = io::readSeedLabels(path, volume.geometry(), seeds);
    if (out.empty()) throw std::runtime_error(path + " holds no seed (every voxel is 0); nothing computed");
    request.growCut.seeds = &seeds;
    return out;
}

/// The outputs this run replaces, their cached pages dropped on a thread of their own while the
/// volume is read and the device starts: the renames over them at the end then free their blocks,
/// not a cached copy as large as the new mask, on the command's path. Files that are also the input
/// stay cached. Not valid when nothing is replaced.
std::future<void> dropReplacedOutputs(const CommandLine& cl, const std::vector<std::string>& outputs) {
    if (existingOutputs(cl) != io::ExistingOutput::Replace) return {};
    std::vector<std::string> files;
    std::error_code ec;
    const std::string input = cl.positionals().front();
    for (const std::string& out : outputs) {
        const bool mhd = io::toLower(out).ends_with(".mhd");  // its .raw is replaced too
        for (const std::string& f : {out, mhd ? out.substr(0, out.size() - 4) + ".raw" : std::string()})
            if (!f.empty() && std::filesystem::is_regular_file(f, ec) && !std::filesystem::equivalent(f, input, ec))
                files.push_back(f);
    }
    if (files.empty()) return {};
    return std::async(std::launch::async, [files = std::move(files)] {
        const stages::Scope stage("replaced outputs' pages dropped (beside the read)");
        for (const std::string& f : files) io::dropCachedPages(f);
    });
}

/// The device's context being made beside the read (runSegment); not valid without one.
using GpuWarmUp = std::future<void>;

/// A label map for the engine's result, made now if the device's context is still being made: the
/// map's pages then cost no wall time (a CUDA engine writes into it). On huge pages: made without
/// a fault per 4 KiB, and freed at the end of the run (on the command's path) as fast. Empty otherwise.
LabelMap labelsWhileTheDeviceStarts(const GpuWarmUp& gpuReady, const Volume& volume) {
    if (!gpuReady.valid() || gpuReady.wait_for(std::chrono::seconds(0)) == std::future_status::ready) return {};
    const stages::Scope stage("label map made (beside the device's start)");
    return LabelMap(volume.geometry(), zeroedOnHugePages(volume.voxelCount()));
}

/// One volume: load, run, write.
int segmentVolume(const CommandLine& cl, Method method, gpu::Backend backend, SegmentationRequest request,
                  const SeriesRun& run, const GpuWarmUp& gpuReady) {
    // Made first, so ended last: with the volume's, the labels' and the engine's memory given back.
    const stages::Scope whole("segment (memory given back)");
    const SegmentOutputs out(cl, run);
    checkOutputs(cl, out.files());
    const std::future<void> replacedDropped = dropReplacedOutputs(cl, out.files());
    // Without a map to write (or a live run's first steps to show), fuzzy connectedness needs only
    // the object: no 16-bit map of the volume beside it.
    request.fuzzyConnectedness.objectOnly = out.connectivityMap.empty() && !cl.has("--steps");
    // Seeds in millimetres are read before the volume (a bad file costs no load), placed after it.
    const std::vector<WorldSeed> worldSeeds = worldSeedsFromOptions(cl);
    const auto t0 = Clock::now();
    std::vector<std::string> warnings;
    const LoadedVolume loaded = [&] {
        const stages::Scope stage("load");
        return run.load(&warnings);
    }();
    const Volume& volume = loaded.volume;
    run.report.warn(warnings);
    const double msLoad = millisecondsSince(t0);
    if (out.mask.ends_with(".dcm") && volume.metadata().sliceFiles.empty())
        throw std::runtime_error(loaded.identity.input +
                                 " is not a DICOM series: a DICOM SEG must reference the DICOM "
                                 "images it segments; nothing computed");
    request.volume = &volume;
    std::vector<SeedOrigin> seedOrigins = voxelSeedOrigins(cl);
    for (const WorldSeed& seed : worldSeeds) {
        request.seeds.push_back(nearestVoxel(volume.geometry(), seed));
        seedOrigins.push_back({seed.source, seed.lps});
    }
    LabelMap mask;
    if (cl.has("--mask")) {
        // The one placement rule of every mask: the volume's voxels, in any axis order, never resampled.
        mask = io::readLabelFile(cl.value("--mask"), volume.geometry()).labels;
        request.mask = &mask;
    }
    LabelMap seeds;
    std::vector<std::pair<int, std::size_t>> seedVoxels;
    if (method == Method::GrowCut) seedVoxels = loadSeedsMask(cl.value("--seeds-mask"), volume, seeds, request);
    const bool estimate = intervalToEstimate(cl, method);
    if (estimate) run.report.note(estimateInterval(volume, request));
    if (method == Method::RegionGrowing)
        if (const std::string outside = seedsOutsideInterval(volume, request.seeds, request.regionGrowing); !outside.empty())
            run.report.warn(outside);
    LabelMap labels = labelsWhileTheDeviceStarts(gpuReady, volume);
    const EngineResult r = runEngine(method, backend, request, !out.connectivityMap.empty() || !out.memberships.empty(),
                                     !out.polygon.empty(), run.report, cl.has("--steps") ? cl.integer("--steps", 0) : 0,
                                     labels);
    if (!r.notice.empty()) run.report.warn(r.notice);
    // One volume, its labels on the host, no engine kept: the device's teardown runs beside the
    // writing of the outputs rather than at exit. A batch keeps it for the next volume.
    std::future<void> deviceReleased;
    if (run.series.empty() && !r.engine && r.backend == backendKey(Backend::Cuda))
        deviceReleased = std::async(std::launch::async, [] {
            const stages::Scope stage("device released (beside the write)");
            gpu::releaseDevice();
        });
    const SegmentRun figures{.identity = loaded.identity, .maskPath = cl.value("--mask"),
                             .seedsMaskPath = cl.value("--seeds-mask"), .seedVoxels = seedVoxels, .method = method,
                             .backend = r.backend, .fallback = r.notice, .volume = &volume, .request = &request,
                             .seedOrigins = seedOrigins, .labels = &r.labels, .steps = r.steps, .figures = r.figures,
                             .voxels = r.voxels, .msCompute = r.msCompute, .msTotal = r.msTotal, .msLoad = msLoad,
                             .intervalEstimated = estimate};
    const std::string statsText = writeOutputs(out, method, volume, r, figures, existingOutputs(cl));
    // `--stats -`: the JSON is stdout's, only once every file is in place; the summary goes to stderr.
    if (out.stats == "-") std::cout << statsText << std::flush;
    std::ostringstream line;
    line << "wrote " << out.mask << ": " << methodName(method) << " (" << r.backend << "), " << r.voxels
         << " voxels, " << double(r.voxels) * volume.geometry().voxelVolumeMl() << " ml, " << r.steps.iterations
         << " iterations, " << r.msCompute << " ms";
    run.report.summary(line.str(), out.stats == "-");
    stages::record("segment (memory held)", millisecondsSince(t0));
    return 0;
}

}  // namespace

int runSegment(const std::vector<std::string>& args) {
    std::set<std::string> valued = segmentValueOptions();
    valued.merge(worldSeedOptions());
    valued.insert(
        {"--method", "-o", "--output", "--stats", "--series", "--connectivity-map", "--memberships", "--polygon", "--steps"});
    std::set<std::string> flags = segmentFlags();
    flags.merge(outputFlags());
    const CommandLine cl(args, valued, flags);
    if (cl.positionals().size() != 1) throw UsageError("segment takes one PATH");
    const std::string output = cl.value("-o", cl.value("--output"));
    if (output.empty() || !io::isLabelExportName(output))
        throw UsageError("segment needs -o MASK." + io::suffixPattern(io::kLabelWriteSuffixes));
    if (!cl.has("--method")) throw UsageError("segment needs --method " + methodKeyList("|", "|"));
    Method method;
    gpu::Backend backend;
    try {
        method = gpu::parseMethod(cl.value("--method"));
        backend = gpu::parseBackend(cl.value("--backend", backendKey(Backend::Auto)));
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if (cl.has("--steps") && cl.integer("--steps", 0) < 1) throw UsageError("--steps must be at least 1");
    const SegmentationRequest request = requestFromOptions(cl, method);
    std::vector<std::string> outputs{output};
    for (const char* o : {"--stats", "--connectivity-map", "--memberships", "--polygon"})
        if (cl.has(o)) outputs.push_back(cl.value(o));
    // The CUDA context and the pinned upload buffers are made while the (first) volume is read, not
    // after it: the engine then finds them ready. warmUp() never throws and changes no outcome: a
    // missing device or driver is still reported by the engine's creation, as before.
    GpuWarmUp gpuReady;
    if (backend != gpu::Backend::Cpu)
        gpuReady = std::async(std::launch::async, [] {
            const stages::Scope stage("gpu warm-up (beside the read)");
            gpu::warmUp();
        });
    return runPerSeries("segment", cl, outputs,
                        [&](const SeriesRun& run) { return segmentVolume(cl, method, backend, request, run, gpuReady); });
}

}  // namespace lucent::app
