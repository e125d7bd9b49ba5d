/// @brief The parameter table's rows (MethodParameters.h): one a parameter, its limits from ParameterLimits.h.
#include "lucent/core/seg/MethodParameters.h"

#include "lucent/core/seg/SegmentationRequest.h"

#include <array>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace lucent {

namespace {

constexpr Limit<double> wide(const Limit<int>& l) { return {double(l.byDefault), double(l.min), double(l.max), l.minOpen}; }
constexpr Limit<double> kAnyNumber{0.0, -kNoLimit, kNoLimit};
constexpr Limit<double> kPositive{0.0, 0.0, kNoLimit, true};
constexpr Limit<double> kSwitch{0.0, 0.0, 1.0};
constexpr std::array<int, 2> kConnectivities{6, 26};

using K = ParameterKind;
using R = SegmentationRequest;
using V = std::optional<double>;

// Each accessor pair names its field once; the macros keep a row on a few lines.
#define LUCENT_FIELD(path) [](const R& r) -> V { return double(r.path); }, [](R& r, V v) { r.path = decltype(r.path)(*v); }
#define LUCENT_OPTIONAL(path) [](const R& r) -> V { return r.path; }, [](R& r, V v) { r.path = v; }

std::vector<Parameter> makeTable() {
    const auto& fc = kFuzzyConnectednessLimits;
    const auto& fcm = kFuzzyCMeansLimits;
    const auto& s3 = kSnake3dLimits;
    return {
        {Method::RegionGrowing, "lower", "--lower", "lower", K::Number, kAnyNumber, {}, "L", "stored units",
         "lowest value taken (none: estimated at the seed)", LUCENT_FIELD(regionGrowing.lower)},
        {Method::RegionGrowing, "upper", "--upper", "upper", K::Number, kAnyNumber, {}, "U", "stored units",
         "highest value taken (with --lower)", LUCENT_FIELD(regionGrowing.upper)},
        {Method::RegionGrowing, "connectivity", "--connectivity", "connectivity", K::Integer,
         {double(kRegionGrowingLimits.connectivity), 6, 26}, kConnectivities, "6|26", "",
         "neighbours: faces (6), or faces, edges and corners (26)", LUCENT_FIELD(regionGrowing.connectivity)},
        {Method::FuzzyConnectedness, "threshold", "--threshold", "threshold", K::Number, fc.threshold, {}, "T", "",
         "the object: connectivity to a seed >= T", LUCENT_FIELD(fuzzyConnectedness.threshold)},
        {Method::FuzzyConnectedness, "object_mean", "--object-mean", "objectMean", K::OptionalNumber, kAnyNumber, {}, "M",
         "stored units", "the object's mean",
         LUCENT_OPTIONAL(fuzzyConnectedness.objectMean)},
        {Method::FuzzyConnectedness, "object_sigma", "--object-sigma", "objectSigma", K::OptionalNumber, kPositive, {}, "S",
         "stored units", "the object's standard deviation",
         LUCENT_OPTIONAL(fuzzyConnectedness.objectSigma)},
        {Method::FuzzyConnectedness, "diff_sigma", "--diff-sigma", "diffSigma", K::OptionalNumber, kPositive, {}, "D",
         "stored units", "the spread of neighbours' differences",
         LUCENT_OPTIONAL(fuzzyConnectedness.diffSigma)},
        {Method::FuzzyConnectedness, "estimate_radius", "--estimate-radius", "estimateRadius", K::Integer,
         wide(fc.estimateRadius), {}, "R", "voxels", "half-size of the cube around each seed for estimates",
         LUCENT_FIELD(fuzzyConnectedness.estimateRadius)},
        {Method::FuzzyCMeans, "clusters", "--clusters", "clusters", K::Integer, wide(fcm.clusters), {}, "C", "",
         "number of classes", LUCENT_FIELD(fuzzyCMeans.clusters)},
        {Method::FuzzyCMeans, "fuzziness", "--fuzziness", "fuzziness", K::Number, fcm.fuzziness, {}, "M", "",
         "the exponent m of the memberships", LUCENT_FIELD(fuzzyCMeans.fuzziness)},
        {Method::FuzzyCMeans, "epsilon", "--epsilon", "epsilon", K::Number, fcm.epsilon, {}, "E", "",
         "stop when no membership changes by more than E", LUCENT_FIELD(fuzzyCMeans.epsilon)},
        {Method::FuzzyCMeans, "max_iterations", "--max-iterations", "maxIterations", K::Integer, wide(fcm.maxIterations),
         {}, "N", "", "stop after N iterations", LUCENT_FIELD(fuzzyCMeans.maxIterations)},
        {Method::FuzzyCMeans, "per_voxel", "--per-voxel", "perVoxel", K::Flag, kSwitch, {}, "", "",
         "iterate over voxels, not the histogram (same result)", LUCENT_FIELD(fuzzyCMeans.perVoxel)},
        {Method::Snake, "step_max", "--step-max", "stepMax", K::Integer, wide(kSnakeLimits.stepMax), {}, "D", "px",
         "the nodes' first move, halved down to 1", LUCENT_FIELD(snake.stepMax)},
        {Method::Snake, "min_segment", "--min-segment", "minSegment", K::Integer, wide(kSnakeLimits.minSegment), {}, "L",
         "px", "a node is added in segments at least L long", LUCENT_FIELD(snake.minSegment)},
        {Method::Snake, "propagate", "--propagate", "propagate", K::Flag, kSwitch, {}, "", "",
         "go on to the next slices: a 3D mask", LUCENT_FIELD(snake.propagate)},
        {Method::Snake3d, "margin_mm", "--margin", "marginMm", K::OptionalNumber, s3.marginMm, {}, "MM", "mm",
         "the domain: the start grown by MM (--roi wins)",
         LUCENT_OPTIONAL(snake3d.marginMm)},
        {Method::Snake3d, "iterations", "--iterations", "iterations", K::Integer, wide(s3.iterations), {}, "N", "",
         "iterations (0: until the surface stops changing)", LUCENT_FIELD(snake3d.iterations)},
        {Method::Snake3d, "smoothing", "--smoothing", "smoothing", K::Integer, wide(s3.smoothing), {}, "N", "",
         "curvature passes an iteration", LUCENT_FIELD(snake3d.smoothing)},
        {Method::Snake3d, "clip", "--clip", "clip", K::OptionalRange, kAnyNumber, {}, "LO,HI", "stored units",
         "its values clamped to LO..HI (a window)",
         nullptr, nullptr, [](const R& r) { return r.snake3d.clip; },
         [](R& r, std::optional<ValueRange> v) { r.snake3d.clip = v; }},
    };
}

#undef LUCENT_FIELD
#undef LUCENT_OPTIONAL

std::string number(double v) {
    if (v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    std::ostringstream out;
    out << v;  // 0.5, 1, 255: as a user types them
    return out.str();
}

}  // namespace

std::string Parameter::label() const {
    std::string out(key);
    for (char& c : out)
        if (c == '_') c = ' ';
    return out;
}

bool Parameter::allows(double value) const {
    if (std::isnan(value)) return false;
    if (kind == ParameterKind::Integer && value != std::floor(value)) return false;
    if (!choices.empty()) {
        for (int c : choices)
            if (value == c) return true;
        return false;
    }
    return limit.allows(value);
}

bool Parameter::allowsRange(const ValueRange& range) const {
    return std::isfinite(range.lower) && std::isfinite(range.upper) && range.lower < range.upper &&
           limit.allows(range.lower) && limit.allows(range.upper);
}

std::string Parameter::rangeText() const {
    if (kind == ParameterKind::OptionalRange) return "LO < HI";
    if (!choices.empty()) {
        std::string out;
        for (std::size_t i = 0; i < choices.size(); ++i)
            out += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + std::to_string(choices[i]);
        return out;
    }
    const bool noMax = limit.max >= double(kNoIntLimit);
    const bool noMin = limit.min == -kNoLimit;
    if (noMin && noMax) return "any number";
    if (limit.minOpen) return "greater than " + number(limit.min) + (noMax ? "" : " and at most " + number(limit.max));
    if (noMax) return "at least " + number(limit.min);
    return "within " + number(limit.min) + ".." + number(limit.max);
}

std::string Parameter::requirement() const {
    if (kind == ParameterKind::OptionalRange) return "two numbers LO,HI, LO below HI";
    const bool whole = kind == ParameterKind::Integer && choices.empty();
    return (whole ? "a whole number, " : "") + rangeText();
}

std::string Parameter::defaultText() const {
    if (kind == ParameterKind::Flag) return "off";
    if (kind == ParameterKind::OptionalNumber) return method == Method::FuzzyConnectedness ? "estimated" : "by rule";
    if (kind == ParameterKind::OptionalRange) return "none";
    return number(limit.byDefault);
}

const std::vector<Parameter>& parameterTable() {
    static const std::vector<Parameter> table = makeTable();
    return table;
}

std::vector<const Parameter*> parametersOf(Method method) {
    std::vector<const Parameter*> out;
    for (const Parameter& p : parameterTable())
        if (p.method == method) out.push_back(&p);
    return out;
}

const Parameter* parameterByFlag(std::string_view flag) {
    for (const Parameter& p : parameterTable())
        if (p.flag == flag) return &p;
    return nullptr;
}

std::string_view sessionBlock(Method method) {
    switch (method) {
        case Method::RegionGrowing: return "regionGrowing";
        case Method::FuzzyConnectedness: return "fuzzyConnectedness";
        case Method::FuzzyCMeans: return "fuzzyCMeans";
        case Method::Snake: return "snake";
        case Method::Snake3d: return "snake3d";
        case Method::GrowCut: return "growCut";
    }
    return {};
}

void checkParameter(const Parameter& p, double value) {
    if (!p.allows(value)) throw std::invalid_argument(p.label() + " must be " + p.requirement());
}

void checkRange(const Parameter& p, const ValueRange& range) {
    if (!p.allowsRange(range))
        throw std::invalid_argument(p.label() + " must be " + p.requirement() + ", got " + rangeText(range));
}

std::string rangeText(const ValueRange& range) {
    // The shortest text that reads back as the same double: the viewer's range typed on the command
    // line runs the same clamp.
    auto text = [](double v) {
        char buffer[32];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
        return std::string(buffer, end);
    };
    return text(range.lower) + "," + text(range.upper);
}

std::optional<ValueRange> parseRange(std::string_view text) {
    const std::size_t comma = text.find(',');
    if (comma == std::string_view::npos) return std::nullopt;
    auto read = [](std::string_view part) -> std::optional<double> {
        if (!part.empty() && part.front() == '+') part.remove_prefix(1);
        double v = 0;
        const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (part.empty() || error != std::errc() || end != part.data() + part.size() || !std::isfinite(v))
            return std::nullopt;
        return v;
    };
    const auto lower = read(text.substr(0, comma)), upper = read(text.substr(comma + 1));
    if (!lower || !upper) return std::nullopt;
    return ValueRange{*lower, *upper};
}

}  // namespace lucent
