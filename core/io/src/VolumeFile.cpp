/// @brief Extension dispatch over the NIfTI, MetaImage and NRRD codecs.
#include "lucent/io/VolumeFile.h"

#include "lucent/core/Errors.h"
#include "lucent/core/GridMatch.h"
#include "VoxelRead.h"
#include "lucent/io/ByteFile.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/GeometryCheck.h"
#include "lucent/io/MetaImageFormat.h"
#include "lucent/io/NiftiFormat.h"
#include "lucent/io/NrrdFormat.h"

#include <algorithm>
#include <filesystem>

namespace lucent::io {

namespace {
enum class Format { None, Nifti, MetaImage, Nrrd };

Format formatOf(const std::string& path) {
    const std::string p = toLower(path);
    if (p.ends_with(".nii") || p.ends_with(".nii.gz")) return Format::Nifti;
    if (p.ends_with(".mha") || p.ends_with(".mhd")) return Format::MetaImage;
    if (p.ends_with(".nrrd") || p.ends_with(".nhdr")) return Format::Nrrd;
    return Format::None;
}
}  // namespace

bool isVolumeFileName(const std::string& path) { return formatOf(path) != Format::None; }

std::string volumeFormatName(const std::string& path) {
    switch (formatOf(path)) {
    case Format::Nifti: return "NIfTI-1";
    case Format::MetaImage: return "MetaImage";
    case Format::Nrrd: return "NRRD";
    case Format::None: break;
    }
    return {};
}

namespace {
/// The header of the open `file`, by its extension; geometry checked.
RawImage headerByFormat(ByteFile& file) {
    const std::string& path = file.path();
    RawImage image;
    switch (formatOf(path)) {
    case Format::Nifti: image = NiftiFormat::readHeader(file); break;
    case Format::MetaImage: image = MetaImageFormat::readHeader(file); break;
    case Format::Nrrd: image = NrrdFormat::readHeader(file); break;
    case Format::None:
        throw IoError(path + ": unknown volume file type (use .nii, .nii.gz, .mha, .mhd, .nrrd or .nhdr)");
    }
    // Every format's geometry passes the same check, so no reader can hand on NaN or singular axes.
    checkGeometry(image.geometry, path, image.warnings);
    return image;
}
}  // namespace

RawImage readRawImageHeader(const std::string& path) {
    ByteFile file(path);
    return headerByFormat(file);
}

RawImage readRawImage(const std::string& path) {
    ByteFile file(path);
    RawImage image = headerByFormat(file);
    image.bytes = readAllVoxels(image, file);
    return image;
}

Volume readVolumeFile(const RawImage& header, const std::string& path) {
    ByteFile file(path);
    Volume v = readVolume(header, file);
    v.metadata().description = std::filesystem::path(path).filename().string();
    return v;
}

void writeRawImage(const RawImage& image, const std::string& path) {
    if (const std::string why = whyNotWritable(path); !why.empty()) throw IoError(why);
    switch (formatOf(path)) {
    case Format::Nifti: return NiftiFormat::write(image, path);
    case Format::MetaImage: return MetaImageFormat::write(image, path);
    case Format::Nrrd:
        if (toLower(path).ends_with(".nhdr")) break;
        // Label maps are mostly zeros: gzip makes them tiny at little cost.
        return NrrdFormat::write(image, path, image.type == ScalarType::UInt8);
    case Format::None: break;
    }
    throw IoError("cannot write " + path + ": unknown output type (use .nii, .nii.gz, .mha, .mhd or .nrrd)");
}

Volume readVolumeFile(const std::string& path) {
    ByteFile file(path);
    const RawImage header = headerByFormat(file);
    Volume v = readVolume(header, file);
    v.metadata().description = std::filesystem::path(path).filename().string();
    return v;
}

namespace {
/// `image` with the rows (j axis) of every slice of every frame stored the other way round.
RawImage reversedRows(RawImage image) {
    const auto& d = image.geometry.dims;
    const std::size_t row = std::size_t(d[0]) * scalarSize(image.type);
    const std::string_view in = image.voxelBytes();
    std::vector<char> out(in.size());
    const std::size_t slices = std::size_t(d[2]) * std::size_t(std::max(image.frames, 1));
    for (std::size_t s = 0; s < slices; ++s)
        for (int j = 0; j < d[1]; ++j)
            std::copy_n(in.data() + (s * d[1] + (d[1] - 1 - j)) * row, row, out.data() + (s * d[1] + j) * row);
    image.bytes = std::move(out);
    image.borrowed = {};
    image.geometry = reverseRows(image.geometry);
    return image;
}
}  // namespace

RawImage inOutputLayout(RawImage image, const std::string& path, OutputLayout layout) {
    // dcm2niix stores a DICOM series' rows bottom-up; every NIfTI Lucent writes for the series does
    // the same, so the image and its masks share one voxel order and one affine (and both lie on a
    // dcm2niix conversion). Other formats keep the loaded order: their readers (ITK, Slicer) do too.
    image.codes = layout.codes;
    if (layout.dicomSeries && formatOf(path) == Format::Nifti) return reversedRows(std::move(image));
    return image;
}

void writeVolumeFile(const Volume& volume, const std::string& path) {
    writeVolumeFile(volume, path, OutputLayout::of(volume));
}

void writeVolumeFile(const Volume& volume, const std::string& path, OutputLayout layout) {
    writeRawImage(inOutputLayout(fromVolume(volume), path, layout), path);
}

void writeVolumeFrames(const std::vector<Volume>& volumes, const std::string& path) {
    if (volumes.empty()) throw IoError("cannot write " + path + ": nothing to write");
    writeVolumeFrames(volumes, path, OutputLayout::of(volumes.front()));
}

void writeVolumeFrames(const std::vector<Volume>& volumes, const std::string& path, OutputLayout layout) {
    if (volumes.empty()) throw IoError("cannot write " + path + ": nothing to write");
    RawImage raw;
    raw.geometry = volumes.front().geometry();
    raw.type = ScalarType::Float32;
    raw.frames = static_cast<int>(volumes.size());
    raw.bytes.resize(raw.frameBytes() * volumes.size());
    for (std::size_t f = 0; f < volumes.size(); ++f) {
        float* out = reinterpret_cast<float*>(raw.bytes.data() + f * raw.frameBytes());
        for (std::size_t i = 0; i < raw.geometry.voxelCount(); ++i) out[i] = static_cast<float>(volumes[f].value(i));
    }
    writeRawImage(inOutputLayout(std::move(raw), path, layout), path);
}

LabelMap readLabelMapFile(const std::string& path) { return toLabelMap(readRawImage(path), path); }

void writeLabelMapFile(const LabelMap& labels, const std::string& path) { writeRawImage(fromLabelMap(labels), path); }

}  // namespace lucent::io
