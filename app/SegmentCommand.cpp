/// @brief `lucent segment PATH --method srg|fc|fcm|snake [options] -o MASK`: runs one engine headless.
#include "CommandLine.h"
#include "Commands.h"
#include "Reporter.h"
#include "SeedPoints.h"
#include "SegmentOptions.h"
#include "SegmentStats.h"

#include "lucent/core/JsonWriter.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/LabelFile.h"
#include "lucent/io/StagedOutputs.h"
#include "lucent/io/VolumeFile.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

namespace lucent::app {

namespace {

double millisecondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

/// Everything after the options are parsed: load, run, write; failures name the input (Reporter::run).
int segmentInput(const CommandLine& cl, Method method, gpu::Backend backend, SegmentationRequest& request,
                 const Reporter& report);

int runSegment(const std::vector<std::string>& args) {
    std::set<std::string> valued = segmentValueOptions();
    valued.merge(worldSeedOptions());
    valued.insert(
        {"--method", "-o", "--output", "--stats", "--series", "--connectivity-map", "--memberships", "--polygon"});
    std::set<std::string> flags = segmentFlags();
    flags.merge(outputFlags());
    const CommandLine cl(args, valued, flags);
    if (cl.positionals().size() != 1) throw UsageError("segment takes one PATH");
    const std::string output = cl.value("-o", cl.value("--output"));
    if (output.empty() || !io::isLabelExportName(output))
        throw UsageError("segment needs -o MASK.{nii,nii.gz,mha,nrrd,dcm,stl,obj}");
    if (!cl.has("--method")) throw UsageError("segment needs --method srg|fc|fcm|snake");
    Method method;
    gpu::Backend backend;
    try {
        method = gpu::parseMethod(cl.value("--method"));
        backend = gpu::parseBackend(cl.value("--backend", "auto"));
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }

    SegmentationRequest request = requestFromOptions(cl, method);
    const Reporter report("segment", cl.positionals()[0], cl);
    return report.run([&] { return segmentInput(cl, method, backend, request, report); });
}

int segmentInput(const CommandLine& cl, Method method, gpu::Backend backend, SegmentationRequest& request,
                 const Reporter& report) {
    const std::string output = cl.value("-o", cl.value("--output"));
    // `--stats -` is stdout: no file, so nothing to keep from being overwritten.
    const std::string stats = cl.value("--stats");
    std::vector<std::string> outputs{output};
    for (const char* o : {"--connectivity-map", "--memberships", "--polygon"})
        if (cl.has(o)) outputs.push_back(cl.value(o));
    if (!stats.empty() && stats != "-") outputs.push_back(stats);
    refuseClobber(cl, outputs);
    // Seeds in millimetres are read before the volume (a bad file costs no load), placed after it.
    const std::vector<WorldSeed> worldSeeds = worldSeedsFromOptions(cl);
    const auto t0 = std::chrono::steady_clock::now();
    io::DicomOptions options;
    options.threads = request.threads;
    options.progress = report.progress();
    std::vector<std::string> warnings;
    const Volume volume = io::ImageSource::load(cl.positionals()[0], cl.value("--series"), options, &warnings);
    report.warn(warnings);
    const double msLoad = millisecondsSince(t0);
    if (output.ends_with(".dcm") && volume.metadata().sliceFiles.empty())
        throw std::runtime_error(cl.positionals()[0] +
                                 " is not a DICOM series: a DICOM SEG must reference the DICOM "
                                 "images it segments; nothing computed");
    request.volume = &volume;
    for (const WorldSeed& seed : worldSeeds) request.seeds.push_back(nearestVoxel(volume.geometry(), seed));
    LabelMap mask;
    if (cl.has("--mask")) {
        // The one placement rule of every mask: the volume's voxels, in any axis order, never resampled.
        mask = io::readLabelFile(cl.value("--mask"), volume.geometry()).labels;
        request.mask = &mask;
    }

    std::unique_ptr<Segmenter> engine;
    try {
        engine = gpu::createSegmenter(method, backend);
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(e.what());
    }
    // ms_total: from handing the volume to the engine to having the labels back; ms_compute: steps only.
    // ms_compute: the method's own work in start() and the steps (histograms, cumulated images,
    // propagation), volume already in memory; ms_total adds handing results back (labels, soft maps).
    const auto tTotal = std::chrono::steady_clock::now();
    try {
        engine->start(request);
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(e.what());
    }
    const StepReport steps = engine->run(64);
    const MethodFigures figures = engine->figures();
    // CUDA engines time their own device work with CUDA events (the upload is ms_upload).
    const double msCompute = figures.msDevice ? *figures.msDevice : millisecondsSince(tTotal);
    const std::string notice = gpu::fallbackNotice(*engine);
    if (!notice.empty()) report.warn(notice);
    LabelMap labels;
    engine->result(labels);
    std::vector<Volume> soft;
    if (cl.has("--connectivity-map") || cl.has("--memberships")) soft = engine->softMaps();
    const double msTotal = millisecondsSince(tTotal);

    std::string statsText;
    std::size_t voxels = 0;
    for (std::size_t i = 0; i < labels.voxelCount(); ++i) voxels += labels[i] != 0;
    if (voxels == 0)
        throw std::runtime_error(
            std::string("empty result: ") + methodName(method) +
            " labelled no voxel (check the seeds, interval, threshold or rectangle); nothing written");
    // Every output goes to a temporary first and all are renamed at the end: a failure in any of
    // them (or SIGINT / SIGTERM) leaves none, not a mask without its stats.
    io::StagedOutputs staged;
    io::LabelExportOptions exportOptions;
    exportOptions.sourceSliceFiles = volume.metadata().sliceFiles;
    io::writeLabelFile(labels, LabelTable{}, output, exportOptions);
    // Soft maps lie on the volume's grid: stored in its layout, as the mask and `convert` are.
    const io::OutputLayout layout = io::OutputLayout::of(volume);
    if (cl.has("--connectivity-map") && method == Method::FuzzyConnectedness)
        io::writeVolumeFile(soft.at(0), cl.value("--connectivity-map"), layout);
    if (cl.has("--memberships") && method == Method::FuzzyCMeans)
        io::writeVolumeFrames(soft, cl.value("--memberships"), layout);
    if (cl.has("--polygon")) {
        std::ostringstream s;
        JsonWriter json(s);
        if (engine->writeContours(json)) {
            const std::string text = s.str();
            io::writeFileAtomically(cl.value("--polygon"), {text});
        }
    }

    const double ml = double(voxels) * volume.geometry().voxelVolumeMl();
    if (cl.has("--stats")) {
        SegmentRun run{cl.positionals()[0],
                       cl.value("--mask"),
                       method,
                       engine->backend(),
                       notice,
                       &volume,
                       &request,
                       &labels,
                       steps,
                       figures,
                       voxels,
                       msCompute,
                       msTotal,
                       msLoad};
        statsText = segmentStatsJson(run);
        if (stats != "-") io::writeFileAtomically(stats, {statsText});
    }
    staged.commit();
    // `--stats -`: the JSON is stdout's, only once every file is in place; the summary goes to stderr.
    if (stats == "-") std::cout << statsText << std::flush;
    std::ostringstream line;
    line << "wrote " << output << ": " << methodName(method) << " (" << engine->backend() << "), " << voxels
         << " voxels, " << ml << " ml, " << steps.iterations << " iterations, " << msCompute << " ms";
    report.summary(line.str(), stats == "-");
    return 0;
}

}  // namespace lucent::app
