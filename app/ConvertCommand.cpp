/// @brief `lucent convert PATH -o OUT [--series ID|all]`: writes the loaded volume (or every volume, OUT
/// holding {series}) in the format OUT names.
#include "CommandLine.h"
#include "Commands.h"
#include "Reporter.h"
#include "SeriesBatch.h"

#include "lucent/io/FileSuffixes.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/StagedOutputs.h"
#include "lucent/io/VolumeFile.h"

#include <iostream>

namespace lucent::app {

int runConvert(const std::vector<std::string>& args) {
    const CommandLine cl(args, {"-o", "--output", "--series", "--threads"}, outputFlags());
    if (cl.positionals().size() != 1) throw UsageError("convert takes one PATH");
    const std::string out = cl.value("-o", cl.value("--output"));
    if (out.empty()) throw UsageError("convert needs -o OUT." + io::suffixPattern(io::kVolumeWriteSuffixes));
    if (!io::hasSuffix(out, io::kVolumeWriteSuffixes))
        throw UsageError("output " + out + " must end in " + io::suffixSentence(io::kVolumeWriteSuffixes));
    return runPerSeries("convert", cl, {out}, [&](const SeriesRun& run) {
        const std::string file = run.output(out);
        checkOutputs(cl, {file});
        std::vector<std::string> warnings;
        const Volume volume = run.load(&warnings).volume;
        run.report.warn(warnings);
        // .mhd is two files (header and .raw): staged, both appear or neither does. The layout is the
        // one of every output of this input (io::OutputLayout): its masks overlay it voxel for voxel.
        io::StagedOutputs staged(existingOutputs(cl));
        io::writeVolumeFile(volume, file, io::OutputLayout::of(volume));
        staged.commit();
        const auto& g = volume.geometry();
        run.report.summary("wrote " + file + ": " + std::to_string(g.dims[0]) + " x " + std::to_string(g.dims[1]) +
                           " x " + std::to_string(g.dims[2]) + " " + pixelTypeName(volume.pixelType()));
        return 0;
    });
}

}  // namespace lucent::app
