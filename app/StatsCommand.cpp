/// @brief `lucent stats MASK --reference PATH [--series ID] [--json|--csv]`: per-label figures of any
/// mask on its image, the same as `segment --stats` gives for its own result.
#include "CommandLine.h"
#include "Commands.h"
#include "Reporter.h"

#include "lucent/core/JsonWriter.h"
#include "lucent/core/LabelStatistics.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/LabelFile.h"
#include "lucent/io/SegmentStats.h"

#include <iostream>

namespace lucent::app {

using io::writeLabelFigures;
using io::writeProvenance;

namespace {

int printStats(const CommandLine& cl, const Reporter& report) {
    const std::string maskPath = cl.positionals()[0];
    const std::string reference = cl.value("--reference");
    io::DicomOptions dicom;
    dicom.threads = cl.threads();
    dicom.progress = report.progress();
    std::vector<std::string> warnings;
    const io::SourceScan scan = io::ImageSource::scan(reference, dicom);
    const std::size_t index = io::ImageSource::choose(scan, cl.value("--series"), io::WhenUnnamed::Refuse, &warnings);
    const Volume volume = io::ImageSource::load(scan, index, dicom, &warnings);
    Reporter("stats", reference, cl).warn(warnings);
    // The mask placed on the reference's grid as the viewer and `export` place it.
    const io::LabelFileContents mask = io::readLabelFile(maskPath, volume.geometry());
    report.warn(mask.warnings);
    if (cl.has("--csv")) {
        std::cout << labelStatisticsCsv(computeLabelStatistics(volume, mask.labels, cl.threads()), mask.table);
        return 0;
    }
    JsonWriter json(std::cout);
    json.beginObject();
    json.key("mask").value(maskPath);
    writeProvenance(json, identify(scan, index), volume);
    writeLabelFigures(json, volume, mask.labels, cl.threads());
    json.endObject();
    std::cout << "\n";
    return 0;
}

}  // namespace

int runStats(const std::vector<std::string>& args) {
    std::set<std::string> flags = quietFlags();
    flags.insert({"--json", "--csv"});
    const CommandLine cl(args, {"--reference", "--series", "--threads"}, flags);
    if (cl.positionals().size() != 1) throw UsageError("stats takes one MASK");
    if (cl.value("--reference").empty())
        throw UsageError("stats needs --reference PATH (the volume or DICOM series the mask labels)");
    if (cl.has("--json") && cl.has("--csv")) throw UsageError("stats takes --json or --csv, not both");
    const Reporter report("stats", cl.positionals()[0], cl);
    return report.run([&] { return printStats(cl, report); });
}

}  // namespace lucent::app
