/// @brief `lucent islands MASK -o OUT [--remove-smaller-than ML] [--keep-largest] [--fill-holes] [--labels 1,2,...]`:
/// the viewer's island tools on a mask file, written on the mask's own grid.
#include "CommandLine.h"
#include "Commands.h"
#include "Reporter.h"

#include "lucent/core/LabelIslands.h"
#include "lucent/io/FileSuffixes.h"
#include "lucent/io/LabelFile.h"
#include "lucent/io/StagedOutputs.h"
#include "lucent/io/VolumeFile.h"

#include <cmath>
#include <map>

namespace lucent::app {

namespace {

struct IslandOperations {
    bool removeSmall = false;
    double minMl = 0;  ///< --remove-smaller-than: components below this volume go
    bool keepLargest = false;
    bool fillHoles = false;
};

struct LabelChange {
    std::size_t removed = 0;
    std::size_t filled = 0;
};

/// The fewest voxels whose volume (voxels x voxel mm^3 / 1000) is not below `ml`: components with fewer
/// voxels are smaller than `ml` and removed. At most voxelCount + 1 (every component goes).
std::size_t minVoxelsFor(double ml, double voxelMl, std::size_t voxelCount) {
    if (ml <= 0) return 0;
    if (ml / voxelMl > double(voxelCount)) return voxelCount + 1;
    auto n = static_cast<std::size_t>(std::ceil(ml / voxelMl));
    // The rounded quotient may be one off: settle on the definition itself.
    while (n > 0 && double(n - 1) * voxelMl >= ml) --n;
    while (double(n) * voxelMl < ml) ++n;
    return n;
}

/// The operations in their fixed order (remove-smaller-than, keep-largest, fill-holes), each over
/// every chosen label before the next; the voxels each label lost and gained.
std::map<std::uint8_t, LabelChange> applyIslands(LabelMap& labels, const IslandOperations& ops,
                                                 const std::vector<std::uint8_t>& chosen) {
    std::map<std::uint8_t, LabelChange> changes;
    for (auto v : chosen) changes[v];
    if (ops.removeSmall) {
        const std::size_t n = minVoxelsFor(ops.minMl, labels.geometry().voxelVolumeMl(), labels.voxelCount());
        for (auto v : chosen) changes[v].removed += removeSmallIslands(labels, v, n);
    }
    if (ops.keepLargest)
        for (auto v : chosen) changes[v].removed += keepLargestIsland(labels, v);
    if (ops.fillHoles)
        for (auto v : chosen) changes[v].filled += fillHoles(labels, v);
    return changes;
}

std::string voxels(std::size_t n) { return std::to_string(n) + (n == 1 ? " voxel" : " voxels"); }

/// "label 1: 12 voxels removed, 27 filled; label 3: 1 voxel removed, 0 filled".
std::string describeChanges(const std::map<std::uint8_t, LabelChange>& changes, const IslandOperations& ops) {
    std::string out;
    for (const auto& [v, c] : changes) {
        std::string parts;
        if (ops.removeSmall || ops.keepLargest) parts = voxels(c.removed) + " removed";
        if (ops.fillHoles)
            parts += parts.empty() ? voxels(c.filled) + " filled" : ", " + std::to_string(c.filled) + " filled";
        out += (out.empty() ? "label " : "; label ") + std::to_string(v) + ": " + parts;
    }
    return out.empty() ? "no label in the mask" : out;
}

int islands(const CommandLine& cl, const IslandOperations& ops, const Reporter& report) {
    const std::string maskPath = cl.positionals()[0];
    const std::string output = cl.value("-o", cl.value("--output"));
    checkOutputs(cl, {output});
    io::LabelFileContents mask = io::readLabelVolumeFile(maskPath);
    report.warn(mask.warnings);
    std::vector<std::uint8_t> chosen = io::presentLabels(mask.labels);
    if (cl.has("--labels")) {
        chosen = parseLabelList(cl.value("--labels"));
        requireLabels(maskPath, mask.labels, chosen);
    }
    const auto changes = applyIslands(mask.labels, ops, chosen);
    // Written as read: same grid, voxel order and affine (no layout rule applies to a file's own grid).
    io::StagedOutputs staged(existingOutputs(cl));
    if (io::presentLabels(mask.labels).empty()) {
        // Every voxel removed: an empty mask is the answer.
        io::RawImage empty = io::fromLabelMap(mask.labels);
        empty.codes = mask.codes;
        io::writeRawImage(empty, output);
    } else {
        io::LabelExportOptions options;
        options.codes = mask.codes;  // the mask's space stays named (NIfTI qform / sform codes)
        io::writeLabelFile(mask.labels, mask.table, output, options);
    }
    staged.commit();
    report.summary("wrote " + output + " (" + describeChanges(changes, ops) + ")");
    return 0;
}

}  // namespace

int runIslands(const std::vector<std::string>& args) {
    std::set<std::string> flags = outputFlags();
    flags.insert({"--keep-largest", "--fill-holes"});
    const CommandLine cl(args, {"-o", "--output", "--labels", "--remove-smaller-than"}, flags);
    if (cl.positionals().size() != 1) throw UsageError("islands takes one MASK");
    const std::string mask = cl.positionals()[0];
    if (!io::hasSuffix(mask, io::kVolumeReadSuffixes))
        throw UsageError("islands reads a label volume MASK." + io::suffixPattern(io::kVolumeReadSuffixes) + ", not '" +
                         mask + "'");
    const std::string output = cl.value("-o", cl.value("--output"));
    if (output.empty() || !io::hasSuffix(output, io::kVolumeWriteSuffixes))
        throw UsageError("islands needs -o OUT." + io::suffixPattern(io::kVolumeWriteSuffixes));
    IslandOperations ops;
    ops.removeSmall = cl.has("--remove-smaller-than");
    ops.minMl = cl.number("--remove-smaller-than", 0);
    if (ops.minMl < 0) throw UsageError("--remove-smaller-than needs a volume in mL of 0 or more");
    ops.keepLargest = cl.has("--keep-largest");
    ops.fillHoles = cl.has("--fill-holes");
    if (!ops.removeSmall && !ops.keepLargest && !ops.fillHoles)
        throw UsageError("islands needs at least one of --keep-largest, --fill-holes, --remove-smaller-than ML");
    if (cl.has("--labels")) parseLabelList(cl.value("--labels"));  // a malformed list is a usage error, before reading
    const Reporter report("islands", mask, cl);
    return report.run([&] { return islands(cl, ops, report); });
}

}  // namespace lucent::app
