/// @brief Parsing of the request options shared by `lucent segment` and `lucent PATH --live`.
#include "SegmentOptions.h"

#include "SeedPoints.h"

#include "lucent/core/seg/SeedInterval.h"

#include <cmath>
#include <cstdlib>

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

/// What the command line alone can tell about a request, checked before anything is loaded so that
/// every such mistake is a usage error (exit 2): seeds present where the method needs them, and each
/// parameter within its limits (validateParameters, the engines' own rule).
void requireUsable(const CommandLine& cl, Method method, const SegmentationRequest& request) {
    const char* key = methodName(method);
    if (method == Method::RegionGrowing || method == Method::FuzzyConnectedness) {
        bool seeded = cl.has("--seed");
        for (const std::string& option : worldSeedOptions()) seeded = seeded || cl.has(option);
        if (!seeded)
            throw UsageError(std::string(key) +
                             " needs at least one seed: --seed i,j,k, --seed-lps x,y,z, --seed-ras x,y,z or --seeds "
                             "FILE (.csv or .mrk.json)");
    }
    if (method == Method::Snake3d) {
        bool seeded = cl.has("--seed");
        for (const std::string& option : worldSeedOptions()) seeded = seeded || cl.has(option);
        if (!cl.has("--box") && !seeded)
            throw UsageError("snake3d needs a start: --box i0,j0,k0,i1,j1,k1 and / or seeds (--seed i,j,k, --seed-lps "
                             "x,y,z, --seed-ras x,y,z) with --radius MM");
        if (cl.has("--radius") && !seeded) throw UsageError("--radius needs seeds: the bubbles are around them");
        // Seeds from a --seeds file are counted once it is read (the engine's check).
        const std::size_t radii = cl.values("--radius").size(),
                          seeds = cl.values("--seed").size() + cl.values("--seed-lps").size() + cl.values("--seed-ras").size();
        if (radii > 1 && !cl.has("--seeds") && radii != seeds)
            throw UsageError(std::to_string(radii) + " --radius for " + std::to_string(seeds) +
                             " seeds: give one radius for all, or one a seed");
    }
    if (method == Method::GrowCut && !cl.has("--seeds-mask"))
        throw UsageError(std::string(key) + " needs --seeds-mask SEEDS: a label file on the image's grid (0 = no seed)");
    try {
        validateParameters(method, request);
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string(key) + ": " + e.what());
    }
}

/// The 3D snake's options: the start box (corners included, as --rect), bubble radii (one for every
/// seed, or one a seed in the seeds' order: --seed ones first, then --seed-lps / --seed-ras / --seeds),
/// the margin of the domain in mm (--roi wins), the iteration count and the smoothing.
void snake3dFromOptions(const CommandLine& cl, SegmentationRequest& request) {
    auto& p = request.snake3d;
    if (cl.has("--box")) {
        const auto b = integers(cl.value("--box"), 6, "--box");
        p.box = VoxelBox{{b[0], b[1], b[2]}, {b[3], b[4], b[5]}};
    }
    for (const std::string& text : cl.values("--radius")) {
        char* end = nullptr;
        const double r = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(r)) throw UsageError("--radius needs a number, got '" + text + "'");
        p.radiiMm.push_back(r);
    }
    if (cl.has("--margin")) p.marginMm = cl.number("--margin", 0);
    p.iterations = cl.integer("--iterations", p.iterations);
    p.smoothing = cl.integer("--smoothing", p.smoothing);
}

}  // namespace

std::set<std::string> segmentValueOptions() {
    return {"--backend", "--threads", "--seed", "--lower", "--upper", "--connectivity", "--threshold", "--object-mean",
            "--object-sigma", "--diff-sigma", "--clusters", "--fuzziness", "--epsilon", "--max-iterations", "--mask",
            "--slice", "--rect", "--step-max", "--roi", "--min-segment", "--box", "--radius", "--margin",
            "--iterations", "--smoothing", "--seeds-mask"};
}

std::set<std::string> segmentFlags() { return {"--propagate", "--per-voxel"}; }

/// An option left out keeps the request's default (ParameterLimits.h); ranges are checked by
/// validateRequest when the engine starts, so the CLI and the viewer refuse alike.
SegmentationRequest requestFromOptions(const CommandLine& cl, Method method) {
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
    // Both bounds or neither: without them the interval is estimated at the first seed (SeedInterval.h).
    if (method == Method::RegionGrowing && cl.has("--lower") != cl.has("--upper"))
        throw UsageError("srg needs both --lower L and --upper U, or neither (estimated at the first seed)");
    srg.lower = cl.number("--lower", 0);
    srg.upper = cl.number("--upper", 0);
    srg.connectivity = cl.integer("--connectivity", srg.connectivity);
    auto& fc = request.fuzzyConnectedness;
    fc.threshold = cl.number("--threshold", fc.threshold);
    if (cl.has("--object-mean")) fc.objectMean = cl.number("--object-mean", 0);
    if (cl.has("--object-sigma")) fc.objectSigma = cl.number("--object-sigma", 0);
    if (cl.has("--diff-sigma")) fc.diffSigma = cl.number("--diff-sigma", 0);
    auto& fcm = request.fuzzyCMeans;
    fcm.clusters = cl.integer("--clusters", fcm.clusters);
    fcm.fuzziness = cl.number("--fuzziness", fcm.fuzziness);
    fcm.epsilon = cl.number("--epsilon", fcm.epsilon);
    fcm.maxIterations = cl.integer("--max-iterations", fcm.maxIterations);
    fcm.perVoxel = cl.has("--per-voxel");
    auto& snake = request.snake;
    if (method == Method::Snake) {
        if (!cl.has("--slice") || !cl.has("--rect")) throw UsageError("snake needs --slice k --rect i0,j0,i1,j1");
        const auto r = integers(cl.value("--rect"), 4, "--rect");
        snake.rect = {r[0], r[1], r[2], r[3]};
    }
    snake.slice = cl.integer("--slice", snake.slice);
    snake.stepMax = cl.integer("--step-max", snake.stepMax);
    snake.minSegment = cl.integer("--min-segment", snake.minSegment);
    snake.propagate = cl.has("--propagate");
    if (method == Method::Snake) snakeDomainFromRoi(request);
    if (method == Method::Snake3d) snake3dFromOptions(cl, request);
    requireUsable(cl, method, request);
    return request;
}

bool intervalToEstimate(const CommandLine& cl, Method method) {
    return method == Method::RegionGrowing && !cl.has("--lower");
}

std::string estimateInterval(const Volume& volume, SegmentationRequest& request) {
    validateRequest(Method::RegionGrowing, request);  // seeds present and inside before they are read
    const RegionGrowingParams p = seedInterval(volume, request.seeds, volume.range());
    request.regionGrowing.lower = p.lower;
    request.regionGrowing.upper = p.upper;
    return "interval " + std::to_string(std::llround(p.lower)) + ".." + std::to_string(std::llround(p.upper)) +
           " estimated at the first seed";
}

}  // namespace lucent::app
