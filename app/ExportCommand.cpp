/// @brief `lucent export MASK --reference PATH -o OUT`: a label file to NIfTI, NRRD, MetaImage, DICOM SEG, STL or OBJ.
#include "CommandLine.h"
#include "Commands.h"
#include "Reporter.h"

#include "lucent/io/ImageSource.h"
#include "lucent/io/LabelFile.h"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace lucent::app {

namespace {

/// "1,2,5" -> {1, 2, 5}; UsageError for anything else.
std::vector<std::uint8_t> parseLabelList(const std::string& text) {
    std::vector<std::uint8_t> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        std::size_t used = 0;
        int v = -1;
        try {
            v = std::stoi(item, &used);
        } catch (const std::exception&) {
        }
        if (used != item.size() || v < 1 || v > 255)
            throw UsageError("--labels takes label values 1..255 separated by commas, not '" + text + "'");
        out.push_back(std::uint8_t(v));
    }
    if (out.empty()) throw UsageError("--labels needs at least one label value");
    return out;
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
        throw UsageError("export needs -o OUT.{nii,nii.gz,nrrd,mha,dcm,stl,obj}");
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
    refuseClobber(cl, {output});
    const Reporter referenceReport("export", reference, cl);
    io::DicomOptions dicom;
    dicom.threads = cl.threads();
    dicom.progress = report.progress();
    std::vector<std::string> warnings;
    const Volume volume = io::ImageSource::load(reference, cl.value("--series"), dicom, &warnings);
    referenceReport.warn(warnings);
    const auto& files = volume.metadata().sliceFiles;
    options.sourceSliceFiles = files;
    const bool fromDicom = !files.empty();
    if (output.ends_with(".dcm") && !fromDicom)
        throw std::runtime_error(reference + " is not a DICOM series: a DICOM SEG must reference the DICOM images it "
                                 "segments");

    io::LabelFileContents mask = io::readLabelFile(maskPath, volume.geometry());
    report.warn(mask.warnings);
    const auto present = io::presentLabels(mask.labels);
    if (present.empty()) throw std::runtime_error(maskPath + ": the mask has no labelled voxel; nothing written");
    for (auto v : options.labels)
        if (!std::binary_search(present.begin(), present.end(), v)) {
            std::string list;
            for (auto p : present) list += (list.empty() ? "" : ", ") + std::to_string(p);
            throw std::runtime_error(maskPath + ": label " + std::to_string(v) + " is empty (labels present: " + list +
                                     "); nothing written");
        }
    if (cl.has("--name")) {
        // One name for the exported labels: the label itself when there is one, numbered when several.
        const auto chosen = options.labels.empty() ? io::presentLabels(mask.labels) : options.labels;
        for (auto v : chosen)
            mask.table.ensure(v).name =
                chosen.size() == 1 ? cl.value("--name") : cl.value("--name") + " " + std::to_string(v);
    }
    io::writeLabelFile(mask.labels, mask.table, output, options);
    const auto written = options.labels.empty() ? io::presentLabels(mask.labels) : options.labels;
    report.summary("wrote " + output + " (" + std::to_string(written.size()) +
                   (written.size() == 1 ? " label" : " labels") + ")");
    return 0;
}

}  // namespace lucent::app
