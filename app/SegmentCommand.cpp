/// @brief `lucent segment PATH --method srg|fc|fcm|snake [options] -o MASK`: runs one engine headless.
#include "CommandLine.h"
#include "Commands.h"

#include "lucent/core/JsonWriter.h"
#include "lucent/core/ParallelFor.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/StagedOutputs.h"
#include "lucent/io/VolumeFile.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

namespace lucent::app {

namespace {

std::vector<int> integers(const std::string& text, std::size_t count, const std::string& option) {
    std::vector<int> out;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ',');) {
        try {
            std::size_t used = 0;
            out.push_back(std::stoi(part, &used));
            if (used != part.size()) throw std::invalid_argument(part);
        } catch (const std::exception&) {
            throw UsageError(option + " needs " + std::to_string(count) + " comma-separated integers, got '" + text + "'");
        }
    }
    if (out.size() != count)
        throw UsageError(option + " needs " + std::to_string(count) + " comma-separated integers, got '" + text + "'");
    return out;
}

double millisecondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int runSegment(const std::vector<std::string>& args) {
    const CommandLine cl(args,
                         {"--method", "-o", "--output", "--backend", "--stats", "--series", "--threads", "--seed",
                          "--lower", "--upper", "--connectivity", "--threshold", "--object-mean", "--object-sigma",
                          "--diff-sigma", "--connectivity-map", "--clusters", "--fuzziness", "--epsilon",
                          "--max-iterations", "--mask", "--memberships", "--slice", "--rect", "--step-max",
                          "--polygon", "--roi", "--min-segment"},
                         {"--propagate", "--per-voxel"});
    if (cl.positionals().size() != 1) throw UsageError("segment takes one PATH");
    const std::string output = cl.value("-o", cl.value("--output"));
    if (output.empty() || !io::isVolumeFileName(output) || output.ends_with(".nhdr"))
        throw UsageError("segment needs -o MASK.{nii,nii.gz,mha,nrrd}");
    if (!cl.has("--method")) throw UsageError("segment needs --method srg|fc|fcm|snake");
    Method method;
    gpu::Backend backend;
    try {
        method = gpu::parseMethod(cl.value("--method"));
        backend = gpu::parseBackend(cl.value("--backend", "auto"));
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }

    SegmentationRequest request;
    request.threads = static_cast<unsigned>(cl.integer("--threads", 0));
    for (const auto& s : cl.values("--seed")) {
        const auto v = integers(s, 3, "--seed");
        request.seeds.push_back({v[0], v[1], v[2]});
    }
    if (cl.has("--roi")) {
        const auto v = integers(cl.value("--roi"), 6, "--roi");
        request.roi = VoxelBox{{v[0], v[1], v[2]}, {v[3], v[4], v[5]}};
    }
    auto& srg = request.regionGrowing;
    if (method == Method::RegionGrowing && (!cl.has("--lower") || !cl.has("--upper")))
        throw UsageError("srg needs --lower L --upper U");
    srg.lower = cl.number("--lower", 0);
    srg.upper = cl.number("--upper", 0);
    srg.connectivity = cl.integer("--connectivity", 6);
    auto& fc = request.fuzzyConnectedness;
    fc.threshold = cl.number("--threshold", 0.5);
    if (cl.has("--object-mean")) fc.objectMean = cl.number("--object-mean", 0);
    if (cl.has("--object-sigma")) fc.objectSigma = cl.number("--object-sigma", 0);
    if (cl.has("--diff-sigma")) fc.diffSigma = cl.number("--diff-sigma", 0);
    auto& fcm = request.fuzzyCMeans;
    fcm.clusters = cl.integer("--clusters", 3);
    fcm.fuzziness = cl.number("--fuzziness", 2.0);
    fcm.epsilon = cl.number("--epsilon", 0.005);
    fcm.maxIterations = cl.integer("--max-iterations", 300);
    fcm.perVoxel = cl.has("--per-voxel");
    auto& snake = request.snake;
    if (method == Method::Snake) {
        if (!cl.has("--slice") || !cl.has("--rect")) throw UsageError("snake needs --slice k --rect i0,j0,i1,j1");
        const auto r = integers(cl.value("--rect"), 4, "--rect");
        snake.rect = {r[0], r[1], r[2], r[3]};
    }
    snake.slice = cl.integer("--slice", 0);
    snake.stepMax = cl.integer("--step-max", 32);
    snake.minSegment = cl.integer("--min-segment", 8);
    snake.propagate = cl.has("--propagate");

    const auto t0 = std::chrono::steady_clock::now();
    io::DicomOptions options;
    options.threads = request.threads;
    options.progress = printProgress;
    std::vector<std::string> warnings;
    const Volume volume = io::ImageSource::load(cl.positionals()[0], cl.value("--series"), options, &warnings);
    for (const auto& w : warnings) std::cerr << "lucent segment: warning: " << w << "\n";
    const double msLoad = millisecondsSince(t0);
    request.volume = &volume;
    LabelMap mask;
    if (cl.has("--mask")) {
        mask = io::readLabelMapFile(cl.value("--mask"));
        if (!mask.geometry().sameGrid(volume.geometry(), 0.01))
            throw std::runtime_error("mask " + cl.value("--mask") + " is not on the volume's grid (dimensions, spacing, origin or orientation differ)");
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
    const StepReport report = engine->run(64);
    const MethodFigures figures = engine->figures();
    // CUDA engines time their own device work with CUDA events (the upload is ms_upload).
    const double msCompute = figures.msDevice ? *figures.msDevice : millisecondsSince(tTotal);
    const std::string notice = gpu::fallbackNotice(*engine);
    if (!notice.empty()) std::cerr << "lucent segment: warning: " << notice << "\n";
    LabelMap labels;
    engine->result(labels);
    std::vector<Volume> soft;
    if (cl.has("--connectivity-map") || cl.has("--memberships")) soft = engine->softMaps();
    const double msTotal = millisecondsSince(tTotal);

    std::size_t voxels = 0;
    for (std::size_t i = 0; i < labels.voxelCount(); ++i) voxels += labels[i] != 0;
    if (voxels == 0)
        throw std::runtime_error(std::string("empty result: ") + methodName(method) +
                                 " labelled no voxel (check the seeds, interval, threshold or rectangle); nothing written");
    // Every output goes to a temporary first and all are renamed at the end: a failure in any of
    // them (or SIGINT / SIGTERM) leaves none, not a mask without its stats.
    io::StagedOutputs staged;
    io::writeLabelMapFile(labels, output);
    if (cl.has("--connectivity-map") && method == Method::FuzzyConnectedness)
        io::writeVolumeFile(soft.at(0), cl.value("--connectivity-map"));
    if (cl.has("--memberships") && method == Method::FuzzyCMeans) io::writeVolumeFrames(soft, cl.value("--memberships"));
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
        std::ostringstream s;
        JsonWriter json(s);
        json.beginObject();
        json.key("method").value(methodName(method));
        json.key("backend").value(engine->backend());
        json.key("voxels").value(voxels);
        json.key("volume_ml").value(ml);
        json.key("iterations").value(report.iterations);
        json.key("convergence").value(report.convergence);
        json.key("ms_compute").value(msCompute);
        json.key("ms_total").value(msTotal);
        json.key("ms_load").value(msLoad);
        json.key("threads").value(int(request.threads ? request.threads : defaultThreadCount()));
        json.key("dimensions").array({double(volume.geometry().dims[0]), double(volume.geometry().dims[1]),
                                      double(volume.geometry().dims[2])});
        if (method == Method::FuzzyCMeans) {
            std::vector<double> counts;
            for (int c = 1; c <= request.fuzzyCMeans.clusters; ++c) counts.push_back(double(labels.count(std::uint8_t(c))));
            json.key("cluster_voxels").array(counts);
        }
        if (!notice.empty()) json.key("fallback").value(notice);
        writeFigures(json, figures);
        json.endObject();
        const std::string text = s.str();
        io::writeFileAtomically(cl.value("--stats"), {text});
    }
    staged.commit();
    std::cout << "wrote " << output << ": " << methodName(method) << " (" << engine->backend() << "), " << voxels
              << " voxels, " << ml << " ml, " << report.iterations << " iterations, " << msCompute << " ms\n";
    return 0;
}

}  // namespace lucent::app
