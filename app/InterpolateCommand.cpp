/// @brief `lucent interpolate MASK [--axis i|j|k] [--labels 1,2] -o OUT`: fill between slices
/// (core/SliceFill.h) on a mask file, written on the mask's own grid.
#include "CommandLine.h"
#include "Commands.h"
#include "Reporter.h"

#include "lucent/core/SliceFill.h"
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

int interpolate(const CommandLine& cl, int axis, const Reporter& report) {
    const std::string maskPath = cl.positionals()[0];
    const std::string output = cl.value("-o", cl.value("--output"));
    checkOutputs(cl, {output});
    io::LabelFileContents mask = io::readLabelVolumeFile(maskPath);
    report.warn(mask.warnings);
    SliceFillOptions options;
    options.axis = axis;
    if (cl.has("--labels")) {
        options.labels = parseLabelList(cl.value("--labels"));
        requireLabels(maskPath, mask.labels, options.labels);
    } else if (io::presentLabels(mask.labels).empty()) {
        throw std::runtime_error("holds no labelled voxel: nothing to fill between");
    }
    const SliceFillReport filled = fillBetweenSlices(mask.labels, options, report.progress("interpolating"));
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
    report.summary("wrote " + output + " (" + describe(filled) + ")");
    return 0;
}

}  // namespace

int runInterpolate(const std::vector<std::string>& args) {
    const CommandLine cl(args, {"-o", "--output", "--labels", "--axis"}, outputFlags());
    if (cl.positionals().size() != 1) throw UsageError("interpolate takes one MASK");
    const std::string mask = cl.positionals()[0];
    if (!io::hasSuffix(mask, io::kVolumeReadSuffixes))
        throw UsageError("interpolate reads a label volume MASK." + io::suffixPattern(io::kVolumeReadSuffixes) +
                         ", not '" + mask + "'");
    const std::string output = cl.value("-o", cl.value("--output"));
    if (output.empty() || !io::hasSuffix(output, io::kVolumeWriteSuffixes))
        throw UsageError("interpolate needs -o OUT." + io::suffixPattern(io::kVolumeWriteSuffixes));
    const int axis = parseAxis(cl);
    if (cl.has("--labels")) parseLabelList(cl.value("--labels"));  // a malformed list is a usage error, before reading
    const Reporter report("interpolate", mask, cl);
    return report.run([&] { return interpolate(cl, axis, report); });
}

}  // namespace lucent::app
