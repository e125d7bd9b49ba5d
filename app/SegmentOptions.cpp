/// @brief Parsing of the request options shared by `lucent segment` and `lucent PATH --live`.
#include "SegmentOptions.h"

#include "SeedPoints.h"

#include "lucent/core/seg/MethodParameters.h"
#include "lucent/core/seg/SeedInterval.h"

#include <algorithm>
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
    // A row given out of its range is named by the option the user typed.
    for (const Parameter* p : parametersOf(method)) {
        if (!cl.has(std::string(p->flag))) continue;
        if (p->kind == ParameterKind::OptionalRange) {
            if (const auto range = p->getRange(request); range && !p->allowsRange(*range))
                throw UsageError(std::string(key) + ": " + std::string(p->flag) + " must be " + p->requirement() +
                                 ", got '" + cl.value(std::string(p->flag)) + "'");
            continue;
        }
        const auto v = p->get(request);
        if (v && !p->allows(*v))
            throw UsageError(std::string(key) + ": " + std::string(p->flag) + " must be " + p->requirement());
    }
    try {
        validateParameters(method, request);
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string(key) + ": " + e.what());
    }
}

/// The 3D snake's options: the start box (corners included, as --rect), bubble radii (one for every
/// seed, or one a seed in the seeds' order: --seed ones first, then --seed-lps / --seed-ras / --seeds),
/// its other parameters are rows of the table.
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
}

}  // namespace

/// The options that are no row of the parameter table (MethodParameters.h): inputs and structure.
std::set<std::string> segmentValueOptions() {
    std::set<std::string> out{"--backend", "--threads", "--seed", "--mask", "--slice", "--rect", "--roi", "--box",
                              "--radius", "--seeds-mask"};
    for (const Parameter& p : parameterTable())
        if (p.kind != ParameterKind::Flag) out.insert(std::string(p.flag));
    return out;
}

std::set<std::string> segmentFlags() {
    std::set<std::string> out;
    for (const Parameter& p : parameterTable())
        if (p.kind == ParameterKind::Flag) out.insert(std::string(p.flag));
    return out;
}

namespace {

/// Every row's option that is given sets its field; one left out keeps the request's default.
void parametersFromOptions(const CommandLine& cl, SegmentationRequest& request) {
    for (const Parameter& p : parameterTable()) {
        const std::string flag(p.flag);
        if (!cl.has(flag)) continue;
        switch (p.kind) {
            case ParameterKind::Integer: p.set(request, cl.integer(flag, 0)); break;
            case ParameterKind::Number:
            case ParameterKind::OptionalNumber: p.set(request, cl.number(flag, 0)); break;
            case ParameterKind::Flag: p.set(request, 1.0); break;
            case ParameterKind::OptionalRange: {
                const auto range = parseRange(cl.value(flag));
                if (!range)
                    throw UsageError(flag + " needs two numbers " + std::string(p.metavar) + ", got '" +
                                     cl.value(flag) + "'");
                p.setRange(request, range);
                break;
            }
        }
    }
}

}  // namespace

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
    // Both bounds or neither: without them the interval is estimated at the first seed (SeedInterval.h).
    if (method == Method::RegionGrowing && cl.has("--lower") != cl.has("--upper"))
        throw UsageError("srg needs both --lower L and --upper U, or neither (estimated at the first seed)");
    parametersFromOptions(cl, request);
    if (method == Method::Snake) {
        if (!cl.has("--slice") || !cl.has("--rect")) throw UsageError("snake needs --slice k --rect i0,j0,i1,j1");
        const auto r = integers(cl.value("--rect"), 4, "--rect");
        request.snake.rect = {r[0], r[1], r[2], r[3]};
    }
    request.snake.slice = cl.integer("--slice", request.snake.slice);
    if (method == Method::Snake) snakeDomainFromRoi(request);
    if (method == Method::Snake3d) snake3dFromOptions(cl, request);
    requireUsable(cl, method, request);
    return request;
}

std::string parameterSynopsis(Method method) {
    std::string out;
    for (const Parameter* p : parametersOf(method)) {
        out += (out.empty() ? "[" : " [") + std::string(p->flag);
        if (!p->metavar.empty()) out += " " + std::string(p->metavar);
        out += "]";
    }
    return out;
}

std::string parameterHelp(std::string_view indent) {
    std::string out;
    for (const Parameter& p : parameterTable()) {
        std::string line = std::string(indent) + std::string(p.flag);
        if (!p.metavar.empty()) line += " " + std::string(p.metavar);
        line.resize(std::max<std::size_t>(line.size() + 1, indent.size() + 22), ' ');
        line += std::string(methodName(p.method)) + ": " + std::string(p.help) + " [" + p.defaultText();
        if (p.kind != ParameterKind::Flag) line += "; " + p.rangeText();
        if (!p.unit.empty()) line += "; " + std::string(p.unit);
        out += line + "]\n";
    }
    return out;
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
