/// @brief `lucent export MASK --reference PATH -o OUT`: a label file to NIfTI, NRRD, MetaImage, DICOM SEG, STL or OBJ.
#include "CommandLine.h"
#include "Commands.h"
#include "Reporter.h"

#include "lucent/io/FileSuffixes.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/LabelFile.h"
#include "lucent/io/StagedOutputs.h"

#include <algorithm>
#include <iostream>

namespace lucent::app {

void requireLabels(const std::string& maskPath, const LabelMap& labels, const std::vector<std::uint8_t>& wanted) {
    const auto present = io::presentLabels(labels);
    for (auto v : wanted)
        if (!std::binary_search(present.begin(), present.end(), v)) {
            std::string list;
            for (auto p : present) list += (list.empty() ? "" : ", ") + std::to_string(p);
            throw std::runtime_error(maskPath + ": label " + std::to_string(v) + " is empty (labels present: " +
                                     (list.empty() ? "none" : list) + "); nothing written");
        }
}

namespace {

/// The output name holding this field is a pattern: one surface file per label, the field replaced by
/// the label's value.
const std::string kLabelField = "{label}";

std::vector<std::string> perLabelNames(const std::string& pattern, const std::vector<std::uint8_t>& values) {
    std::vector<std::string> names;
    for (auto v : values) {
        std::string name = pattern;
        for (auto at = name.find(kLabelField); at != std::string::npos; at = name.find(kLabelField, at))
            name.replace(at, kLabelField.size(), std::to_string(v));
        names.push_back(name);
    }
    return names;
}

/// One surface file per label of `values`, each holding that label alone; staged, so that a failure
/// (an empty surface, a full disk) leaves none of them. Returns the names written.
std::vector<std::string> writePerLabel(const io::LabelFileContents& mask, const std::string& pattern,
                                       std::vector<std::uint8_t> values, const io::LabelExportOptions& options,
                                       io::ExistingOutput existing) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    const auto names = perLabelNames(pattern, values);
    io::StagedOutputs staged(existing);
    for (std::size_t i = 0; i < values.size(); ++i) {
        io::LabelExportOptions one = options;
        one.labels = {values[i]};
        io::writeLabelFile(mask.labels, mask.table, names[i], one);
    }
    staged.commit();
    return names;
}

}  // namespace

/// Everything after the options are parsed: load the reference, place the mask, write; failures name
/// the mask (Reporter::run).
int exportMask(const CommandLine& cl, io::LabelExportOptions& options, const Reporter& report);

int runExport(const std::vector<std::string>& args) {
    const CommandLine cl(args, {"--reference", "-o", "--output", "--series", "--labels", "--name", "--space", "--threads"},
                         outputFlags());
    if (cl.positionals().size() != 1) throw UsageError("export takes one MASK");
    const std::string maskPath = cl.positionals()[0];
    const std::string reference = cl.value("--reference");
    if (reference.empty()) throw UsageError("export needs --reference PATH (the volume or DICOM series of the mask)");
    const std::string output = cl.value("-o", cl.value("--output"));
    if (output.empty() || !io::isLabelExportName(output))
        throw UsageError("export needs -o OUT." + io::suffixPattern(io::kLabelWriteSuffixes));
    if (output.find(kLabelField) != std::string::npos && !io::hasSuffix(output, io::kSurfaceSuffixes))
        throw UsageError("{label} in the output name writes one surface per label: OUT_{label}.stl or .obj, not '" +
                         output + "'");
    const std::string space = cl.value("--space", "lps");
    if (space != "lps" && space != "ras") throw UsageError("--space takes lps or ras, not '" + space + "'");
    io::LabelExportOptions options;
    if (cl.has("--labels")) options.labels = parseLabelList(cl.value("--labels"));
    options.ras = space == "ras";
    const Reporter report("export", maskPath, cl);
    return report.run([&] { return exportMask(cl, options, report); });
}

int exportMask(const CommandLine& cl, io::LabelExportOptions& options, const Reporter& report) {
    const std::string maskPath = cl.positionals()[0];
    const std::string reference = cl.value("--reference");
    const std::string output = cl.value("-o", cl.value("--output"));
    const bool perLabel = output.find(kLabelField) != std::string::npos;
    // Every name is checked before anything is computed when the labels are known (--labels), else
    // once the mask is read; in both cases before anything is written.
    checkOutputs(cl, perLabel ? perLabelNames(output, options.labels) : std::vector<std::string>{output});
    const Reporter referenceReport("export", reference, cl);
    io::DicomOptions dicom;
    dicom.threads = cl.threads();
    dicom.progress = report.progress();
    std::vector<std::string> warnings;
    const Volume volume = io::ImageSource::load(reference, cl.value("--series"), dicom, &warnings);
    referenceReport.warn(warnings);
    const auto& files = volume.metadata().sliceFiles;
    options.sourceSliceFiles = files;
    options.codes = volume.metadata().codes;  // a NIfTI reference's space (MNI-152, ...) stays named
    const bool fromDicom = !files.empty();
    if (output.ends_with(".dcm") && !fromDicom)
        throw std::runtime_error(reference + " is not a DICOM series: a DICOM SEG must reference the DICOM images it "
                                 "segments");

    io::LabelFileContents mask = io::readLabelFile(maskPath, volume.geometry());
    report.warn(mask.warnings);
    if (io::presentLabels(mask.labels).empty())
        throw std::runtime_error(maskPath + ": the mask has no labelled voxel; nothing written");
    requireLabels(maskPath, mask.labels, options.labels);
    if (cl.has("--name")) {
        // One name for the exported labels: the label itself when there is one, numbered when several.
        const auto chosen = options.labels.empty() ? io::presentLabels(mask.labels) : options.labels;
        for (auto v : chosen)
            mask.table.ensure(v).name =
                chosen.size() == 1 ? cl.value("--name") : cl.value("--name") + " " + std::to_string(v);
    }
    const auto written = options.labels.empty() ? io::presentLabels(mask.labels) : options.labels;
    if (perLabel) {
        checkOutputs(cl, perLabelNames(output, written));
        std::string list;
        for (const auto& name : writePerLabel(mask, output, written, options, existingOutputs(cl)))
            list += (list.empty() ? "" : ", ") + name;
        report.summary("wrote " + list);
        return 0;
    }
    io::StagedOutputs staged(existingOutputs(cl));
    io::writeLabelFile(mask.labels, mask.table, output, options);
    staged.commit();
    report.summary("wrote " + output + " (" + std::to_string(written.size()) +
                   (written.size() == 1 ? " label" : " labels") + ")");
    return 0;
}

}  // namespace lucent::app
