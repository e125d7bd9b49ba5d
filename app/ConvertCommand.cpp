/// @brief `lucent convert PATH -o OUT [--series ID]`: writes the loaded volume in the format OUT names.
#include "CommandLine.h"
#include "Commands.h"
#include "Reporter.h"

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
    if (out.empty()) throw UsageError("convert needs -o OUT.{nii,nii.gz,mha,nrrd}");
    if (!io::isVolumeFileName(out) || out.ends_with(".nhdr"))
        throw UsageError("output " + out + " must end in .nii, .nii.gz, .mha, .mhd or .nrrd");
    const Reporter report("convert", cl.positionals()[0], cl);
    return report.run([&] {
        refuseClobber(cl, {out});
        io::DicomOptions options;
        options.threads = cl.threads();
        options.progress = report.progress();
        std::vector<std::string> warnings;
        const Volume volume = io::ImageSource::load(cl.positionals()[0], cl.value("--series"), options, &warnings);
        report.warn(warnings);
        // .mhd is two files (header and .raw): staged, both appear or neither does. The layout is the
        // one of every output of this input (io::OutputLayout): its masks overlay it voxel for voxel.
        io::StagedOutputs staged;
        io::writeVolumeFile(volume, out, io::OutputLayout::of(volume));
        staged.commit();
        const auto& g = volume.geometry();
        report.summary("wrote " + out + ": " + std::to_string(g.dims[0]) + " x " + std::to_string(g.dims[1]) + " x " +
                       std::to_string(g.dims[2]) + " " + pixelTypeName(volume.pixelType()));
        return 0;
    });
}

}  // namespace lucent::app
