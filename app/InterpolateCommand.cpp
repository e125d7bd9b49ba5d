/// @brief `lucent interpolate MASK [--axis i|j|k] [--labels 1,2] [--method morphological|signed-distance]
/// [--backend auto|cpu|cuda] -o OUT`: fill between slices (core/SliceFill.h; CUDA where it has the
/// method, gpu/SliceFillBackend.h) on a mask file, written on the mask's own grid.
#include "CommandLine.h"
#include "Commands.h"
#include "Reporter.h"

#include "lucent/core/SliceFill.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/gpu/SliceFillBackend.h"
#include "lucent/io/FileSuffixes.h"
#include "lucent/io/LabelFile.h"
#include "lucent/io/StagedOutputs.h"
#include "lucent/io/VolumeFile.h"

namespace lucent::app {

namespace {

/// --axis's letters; -1 (the sparse axis) without it.
int parseAxis(const CommandLine& cl) {
    if (!cl.has("--axis")) return -1;
    const std::string a = cl.value("--axis");
    for (int axis = 0; axis < 3; ++axis)
        if (a == axisName(axis)) return axis;
    throw UsageError("--axis takes i, j or k, not '" + a + "'");
}

std::string plural(std::size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

/// "axis k; label 1: 9 labelled slices, 40 slices filled (31,024 voxels)".
std::string describe(const SliceFillReport& report) {
    std::string out = std::string("axis ") + axisName(report.axis);
    for (const LabelFillFigures& f : report.labels) {
        out += "; label " + std::to_string(f.label) + ": " + plural(std::size_t(f.labelledSlices), "labelled slice") +
               ", " + plural(std::size_t(f.filledSlices), "slice") + " filled (" + plural(f.voxelsAdded, "voxel") + ")";
    }
    return out;
}

struct FillChoice {
    int axis = -1;
    FillMethod method = FillMethod::Morphological;
    Backend backend = Backend::Auto;
};

int interpolate(const CommandLine& cl, const FillChoice& choice, const Reporter& report) {
    const std::string maskPath = cl.positionals()[0];
    const std::string output = cl.value("-o", cl.value("--output"));
    checkOutputs(cl, {output});
    io::LabelFileContents mask = io::readLabelVolumeFile(maskPath);
    report.warn(mask.warnings);
    SliceFillOptions options;
    options.axis = choice.axis;
    options.method = choice.method;
    if (cl.has("--labels")) {
        options.labels = parseLabelList(cl.value("--labels"));
        requireLabels(maskPath, mask.labels, options.labels);
    } else if (io::presentLabels(mask.labels).empty()) {
        throw std::runtime_error("holds no labelled voxel: nothing to fill between");
    }
    const gpu::SliceFillRun run =
        gpu::fillBetweenSlices(mask.labels, options, choice.backend, report.progress("interpolating"));
    if (!run.notice.empty()) report.warn(run.notice);
    const SliceFillReport& filled = run.report;
    for (const LabelFillFigures& f : filled.labels)
        if (f.labelledSlices < 2)
            report.warn("label " + std::to_string(f.label) + " lies on one slice of axis " + axisName(filled.axis) +
                        ": nothing to fill between");
    // Written as read: same grid, voxel order and affine (the mask's own grid).
    io::StagedOutputs staged(existingOutputs(cl));
    io::LabelExportOptions exportOptions;
    exportOptions.codes = mask.codes;  // the mask's space stays named (NIfTI qform / sform codes)
    io::writeLabelFile(mask.labels, mask.table, output, exportOptions);
    staged.commit();
    report.summary("wrote " + output + " (" + run.backend + "; " + describe(filled) + ")");
    return 0;
}

}  // namespace

int runInterpolate(const std::vector<std::string>& args) {
    const CommandLine cl(args, {"-o", "--output", "--labels", "--axis", "--method", "--backend"}, outputFlags());
    if (cl.positionals().size() != 1) throw UsageError("interpolate takes one MASK");
    const std::string mask = cl.positionals()[0];
    if (!io::hasSuffix(mask, io::kVolumeReadSuffixes))
        throw UsageError("interpolate reads a label volume MASK." + io::suffixPattern(io::kVolumeReadSuffixes) +
                         ", not '" + mask + "'");
    const std::string output = cl.value("-o", cl.value("--output"));
    if (output.empty() || !io::hasSuffix(output, io::kVolumeWriteSuffixes))
        throw UsageError("interpolate needs -o OUT." + io::suffixPattern(io::kVolumeWriteSuffixes));
    FillChoice choice;
    choice.axis = parseAxis(cl);
    try {
        choice.method = fillMethodFromKey(cl.value("--method", fillMethodKey(FillMethod::Morphological)));
        choice.backend = gpu::parseBackend(cl.value("--backend", backendKey(Backend::Auto)));
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if (cl.has("--labels")) parseLabelList(cl.value("--labels"));  // a malformed list is a usage error, before reading
    const Reporter report("interpolate", mask, cl);
    return report.run([&] { return interpolate(cl, choice, report); });
}

}  // namespace lucent::app
