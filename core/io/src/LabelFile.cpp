/// @brief Label export by extension and label import onto the reference grid.
#include "lucent/io/FileSuffixes.h"
#include "lucent/io/LabelFile.h"

#include "LabelFileFormats.h"
#include "SlicerSegmentFields.h"
#include "lucent/core/Errors.h"
#include "lucent/core/GridMatch.h"
#include "lucent/core/LabelStatistics.h"
#include "lucent/core/StageTimes.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/VolumeFile.h"

#include <algorithm>
#include <array>
#include <filesystem>

namespace lucent::io {

namespace {

enum class LabelFormat { Volume, Nrrd, Nifti, DicomSeg, Stl, Obj, None };

LabelFormat labelFormatOf(const std::string& path) {
    const std::string p = toLower(path);
    if (p.ends_with(".dcm")) return LabelFormat::DicomSeg;
    if (p.ends_with(".stl")) return LabelFormat::Stl;
    if (p.ends_with(".obj")) return LabelFormat::Obj;
    if (p.ends_with(".nrrd")) return LabelFormat::Nrrd;
    if (p.ends_with(".nii") || p.ends_with(".nii.gz")) return LabelFormat::Nifti;
    if (p.ends_with(".mha") || p.ends_with(".mhd")) return LabelFormat::Volume;
    return LabelFormat::None;
}

/// `labels` with every value outside `keep` set to background.
LabelMap onlyLabels(const LabelMap& labels, const std::vector<std::uint8_t>& keep) {
    std::array<bool, 256> kept{};
    for (auto v : keep) kept[v] = true;
    LabelMap out = labels;
    for (std::size_t i = 0; i < out.voxelCount(); ++i)
        if (!kept[out[i]]) out[i] = 0;
    return out;
}

/// The chosen labels, each checked to have a voxel.
std::vector<std::uint8_t> chosenLabels(const LabelMap& labels, const LabelExportOptions& options,
                                       const std::string& path) {
    const auto present = options.present ? *options.present : presentLabels(labels);
    if (options.labels.empty()) {
        if (present.empty()) throw IoError("cannot write " + path + ": the mask has no labelled voxel");
        return present;
    }
    std::vector<std::uint8_t> chosen = options.labels;
    std::sort(chosen.begin(), chosen.end());
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    for (auto v : chosen)
        if (v == 0 || !std::binary_search(present.begin(), present.end(), v))
            throw IoError("cannot write " + path + ": label " + std::to_string(v) + " is empty in the mask");
    return chosen;
}

}  // namespace

std::vector<std::uint8_t> presentLabels(const LabelMap& labels) {
    const auto counts = countLabels(labels);
    std::vector<std::uint8_t> out;
    for (int v = 1; v < 256; ++v)
        if (counts[std::size_t(v)]) out.push_back(std::uint8_t(v));
    return out;
}

std::vector<std::pair<int, std::size_t>> readSeedLabels(const std::string& path, const Geometry& reference,
                                                         LabelMap& seeds) {
    seeds = readLabelFile(path, reference).labels;
    const auto counts = countLabels(seeds);
    std::vector<std::pair<int, std::size_t>> out;
    for (int v = 1; v < 256; ++v)
        if (counts[std::size_t(v)]) out.push_back({v, counts[std::size_t(v)]});
    return out;
}

bool isLabelExportName(const std::string& path) { return labelFormatOf(path) != LabelFormat::None; }

void writeLabelFile(const LabelMap& labels, const LabelTable& table, const std::string& path,
                    const LabelExportOptions& options) {
    const LabelFormat format = labelFormatOf(path);
    if (format == LabelFormat::None)
        throw IoError("cannot write " + path + ": unknown label file type (use " + suffixSentence(kLabelWriteSuffixes) +
                      ")");
    const auto chosen = [&] {
        const stages::Scope stage("mask write: labels present");
        return chosenLabels(labels, options, path);
    }();
    // The chosen labels alone, else the layer itself (not a copy: a mask can be gigabytes).
    LabelMap only;
    if (!options.labels.empty()) only = onlyLabels(labels, chosen);
    const LabelMap& written = options.labels.empty() ? labels : only;
    switch (format) {
    case LabelFormat::Nifti:
    case LabelFormat::Nrrd:
    case LabelFormat::Volume: {
        RawImage raw = fromLabelMap(written);
        // Extents in voxels of the loaded order: the layout rule never reorders a NRRD.
        if (format == LabelFormat::Nrrd) raw.keyValues = slicerSegmentFields(written, table, chosen);
        // The layout of every output of this input (VolumeFile.h): a NIfTI mask of a DICOM series
        // stores its rows as the converted series does, so the two overlay voxel for voxel.
        const OutputLayout layout{!options.sourceSliceFiles.empty(), options.codes};
        writeRawImage(inOutputLayout(std::move(raw), path, layout), path);
        return;
    }
    case LabelFormat::DicomSeg: writeSegFile(written, table, chosen, path, options); return;
    case LabelFormat::Stl:
    case LabelFormat::Obj: writeSurfaces(written, table, chosen, path, options); return;
    case LabelFormat::None: break;
    }
}

LabelFileContents readLabelVolumeFile(const std::string& path) {
    const RawImage raw = readRawImage(path);
    LabelFileContents out;
    out.labels = toLabelMap(raw, path);
    readSlicerSegmentFields(raw.keyValues, out.table);
    for (auto v : presentLabels(out.labels)) out.table.ensure(v);
    out.warnings = raw.warnings;
    out.codes = raw.codes;
    return out;
}

LabelFileContents readLabelFile(const std::string& path, const Geometry& reference) {
    if (labelFormatOf(path) == LabelFormat::DicomSeg) {
        LabelFileContents out;
        readSegFile(path, reference, out);
        return out;
    }
    LabelFileContents out = readLabelVolumeFile(path);
    const LabelMap& labels = out.labels;
    const auto map = matchGrid(labels.geometry(), reference, sameVoxelsToleranceMm(reference));
    if (!map)
        throw IoError(path + ": the mask is on another grid than the volume (" +
                      describeGridDifference(labels.geometry(), reference) + "); it is not resampled");
    if (map->identity()) {
        // Within the tolerance the grids are one: the layer takes the volume's geometry exactly.
        LabelMap placed(reference);
        std::copy_n(labels.data(), labels.voxelCount(), placed.data());
        out.labels = std::move(placed);
    } else {
        out.labels = remapLabels(labels, reference, *map);
    }
    return out;
}

}  // namespace lucent::io
