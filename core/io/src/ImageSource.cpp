/// @brief Dispatch between volume files and DICOM, series selection, and listing reports.
#include "lucent/io/ImageSource.h"

#include "lucent/core/Errors.h"
#include "lucent/core/JsonWriter.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/ReadLimits.h"
#include "lucent/io/VolumeFile.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>

namespace lucent::io {

namespace {

bool isVolumeFile(const std::string& path) {
    return isVolumeFileName(path) && std::filesystem::is_regular_file(path);
}

SeriesInfo describeVolumeFile(const std::string& path, const RawImage& raw) {
    SeriesInfo s;
    s.id = path;
    s.uid = path;
    s.description = std::filesystem::path(path).filename().string();
    s.geometry = raw.geometry;
    s.transferSyntax = volumeFormatName(path);
    s.files = {path};
    s.frames = raw.geometry.dims[2];
    s.timeFrames = std::max(1, raw.frames);
    s.warnings = raw.warnings;
    if (raw.frames > 1)
        s.warnings.push_back("4D file with " + std::to_string(raw.frames) + " volumes: the first is used");
    return s;
}

/// Nothing loadable under `path`: the error says why (the one skipped file's reason, when that is all).
[[noreturn]] void throwNothingFound(const std::string& path, const std::vector<std::string>& scanWarnings) {
    if (scanWarnings.size() == 1 && scanWarnings.front().rfind("skipped ", 0) == 0)
        throw IoError(scanWarnings.front().substr(8));
    std::string why = path + ": no DICOM image series found";
    if (!scanWarnings.empty())
        why += " (" + scanWarnings.front() + (scanWarnings.size() > 1 ? "; and more, see `lucent info`)" : ")");
    throw IoError(why);
}

/// Index of the volume with the most voxels; the first of equals.
std::size_t largest(const std::vector<SeriesInfo>& series) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < series.size(); ++i)
        if (series[i].geometry.voxelCount() > series[best].geometry.voxelCount()) best = i;
    return best;
}

}  // namespace

SourceListing ImageSource::list(const std::string& path, const DicomOptions& options) {
    SourceListing listing;
    if (isVolumeFile(path)) {
        listing.series.push_back(describeVolumeFile(path, readRawImage(path)));
        return listing;
    }
    DicomScanResult scan = DicomReader::scan(path, options);
    listing.warnings = std::move(scan.warnings);
    for (auto& s : scan.series) listing.series.push_back(std::move(s.info));
    return listing;
}

SourceScan ImageSource::scan(const std::string& path, const DicomOptions& options) {
    SourceScan result;
    result.path = path;
    if (isVolumeFile(path)) {
        result.volumeFile = readRawImage(path);
        result.listing.series.push_back(describeVolumeFile(path, *result.volumeFile));
        return result;
    }
    // The header pass is a quarter of an open: decoding the pixels is the larger share of the work.
    DicomOptions scanOptions = options;
    if (options.progress)
        scanOptions.progress = [report = options.progress](std::size_t done, std::size_t total) {
            return report(done, 4 * total);
        };
    DicomScanResult scan = DicomReader::scan(path, scanOptions);
    result.filesScanned = scan.filesScanned;
    result.listing.warnings = std::move(scan.warnings);
    for (const auto& s : scan.series) result.listing.series.push_back(s.info);
    result.dicom = std::move(scan.series);
    return result;
}

std::size_t ImageSource::choose(const SourceScan& scan, const std::string& seriesId, WhenUnnamed whenUnnamed,
                                std::vector<std::string>* warnings) {
    const std::vector<SeriesInfo>& all = scan.listing.series;
    const std::string& path = scan.path;
    if (all.empty()) throwNothingFound(path, scan.listing.warnings);
    if (scan.volumeFile) return 0;
    if (seriesId.empty()) {
        if (all.size() == 1) return 0;
        if (whenUnnamed == WhenUnnamed::Largest) return largest(all);
        std::string ids;
        for (const auto& s : all) ids += (ids.empty() ? "" : ", ") + s.id;
        throw IoError(path + " holds " + std::to_string(all.size()) +
                      " volumes; choose one with --series ID (see `lucent info`): " + ids);
    }
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all[i].id == seriesId) return i;
    // A split series asked for by its SeriesInstanceUID: its largest part (listed first).
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (all[i].uid == seriesId) {
            if (warnings && all[i].id != seriesId)
                warnings->push_back("series " + seriesId + " is split into several volumes; loading " + all[i].id);
            return i;
        }
    }
    throw IoError(path + ": no series with id " + seriesId + " (see `lucent info " + path + "`)");
}

namespace {

/// The pixel pass's progress goes on from the header pass: the headers of `files` files were the
/// first quarter of the bar, the pixels are the rest.
DicomOptions afterHeaderPass(const DicomOptions& options, std::size_t files) {
    DicomOptions out = options;
    if (options.progress)
        out.progress = [report = options.progress, files](std::size_t done, std::size_t total) {
            return report(files + (3 * files * done) / std::max<std::size_t>(1, total), 4 * files);
        };
    return out;
}

}  // namespace

Volume ImageSource::load(const SourceScan& scan, std::size_t index, const DicomOptions& options,
                         std::vector<std::string>* warnings) {
    if (index >= scan.listing.series.size())
        throw IoError(scan.path + ": no volume " + std::to_string(index + 1) + " in the listing");
    const SeriesInfo& info = scan.listing.series[index];
    if (warnings) warnings->insert(warnings->end(), info.warnings.begin(), info.warnings.end());
    if (scan.volumeFile) {
        Volume v = toVolume(*scan.volumeFile, scan.path);
        v.metadata().description = std::filesystem::path(scan.path).filename().string();
        return v;
    }
    return DicomReader::load(scan.dicom.at(index), afterHeaderPass(options, scan.filesScanned));
}

int ImageSource::frameCount(const SourceScan& scan, std::size_t index) {
    if (index >= scan.listing.series.size()) return 0;
    if (scan.volumeFile) return std::max(1, scan.volumeFile->frames);
    return std::max<int>(1, int(scan.dicom.at(index).timeFrames.size()));
}

std::vector<Volume> ImageSource::loadFrames(const SourceScan& scan, std::size_t index, const DicomOptions& options,
                                            std::vector<std::string>* warnings) {
    const int count = frameCount(scan, index);
    if (count <= 1) {
        std::vector<Volume> one;
        one.push_back(load(scan, index, options, warnings));
        return one;
    }
    const SeriesInfo& info = scan.listing.series[index];
    if (warnings) warnings->insert(warnings->end(), info.warnings.begin(), info.warnings.end());
    if (!scan.volumeFile) {
        // Every file read once for all frames.
        return DicomReader::loadFrames(scan.dicom.at(index), afterHeaderPass(options, scan.filesScanned));
    }
    const auto& d = info.geometry.dims;
    imageBytes({d[0], d[1], d[2], count}, sizeof(std::int16_t), scan.path);  // all frames are held at once
    std::vector<Volume> frames;
    for (int f = 0; f < count; ++f) {
        if (options.progress && !options.progress(std::size_t(f), std::size_t(count))) throw Cancelled();
        frames.push_back(toVolumeFrame(*scan.volumeFile, f, scan.path));
        frames.back().metadata().description = std::filesystem::path(scan.path).filename().string();
    }
    // One pixel type for all: a frame whose values left int16 made float32, so do all.
    if (std::any_of(frames.begin(), frames.end(),
                    [](const Volume& v) { return v.pixelType() == PixelType::Float32; })) {
        imageBytes({d[0], d[1], d[2], count}, sizeof(float), scan.path);
        for (Volume& v : frames) {
            if (v.pixelType() == PixelType::Float32) continue;
            Volume wide(v.geometry(), PixelType::Float32);
            for (std::size_t i = 0; i < v.voxelCount(); ++i) wide.setValue(i, v.value(i));
            wide.metadata() = v.metadata();
            v = std::move(wide);
        }
    }
    return frames;
}

Volume ImageSource::load(const std::string& path, const std::string& seriesId, const DicomOptions& options,
                         std::vector<std::string>* warnings) {
    const SourceScan found = scan(path, options);
    return load(found, choose(found, seriesId, WhenUnnamed::Refuse, warnings), options, warnings);
}

void ImageSource::writeJson(const SourceListing& listing, std::ostream& out) {
    JsonWriter json(out);
    json.beginObject().key("series").beginArray();
    for (const auto& s : listing.series) {
        const Geometry& g = s.geometry;
        json.beginObject();
        json.key("id").value(s.id);
        json.key("uid").value(s.uid);
        json.key("patient_name").value(s.patientName);
        json.key("patient_id").value(s.patientId);
        json.key("study").value(s.studyDescription);
        json.key("study_uid").value(s.studyUid);
        json.key("modality").value(s.modality);
        json.key("description").value(s.description);
        json.key("dimensions").array({double(g.dims[0]), double(g.dims[1]), double(g.dims[2])});
        json.key("spacing").array({g.spacing.x, g.spacing.y, g.spacing.z});
        json.key("origin").array({g.origin.x, g.origin.y, g.origin.z});
        std::vector<double> dir;
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) dir.push_back(g.direction.col[c][r]);
        json.key("direction").array(dir);
        json.key("slices").value(g.dims[2]);
        json.key("images").value(s.frames);
        json.key("time_frames").value(s.timeFrames);
        json.key("transfer_syntax").value(s.transferSyntax);
        json.key("transfer_syntax_uid").value(s.transferSyntaxUid);
        // The scan's own display windows (DICOM Window Center / Width, in HU for CT), first = default.
        json.key("windows").beginArray();
        for (const auto& w : s.windows)
            json.beginObject().key("center").value(w.center).key("width").value(w.width).key("name").value(w.name).endObject();
        json.endArray();
        json.key("files").array(s.files);
        json.key("warnings").array(s.warnings);
        json.endObject();
    }
    json.endArray();
    json.key("warnings").array(listing.warnings);
    json.endObject();
}

void ImageSource::writeText(const SourceListing& listing, std::ostream& out) {
    // Header text goes to a terminal: escape what could break lines or drive it.
    const auto p = [](const std::string& s) { return printable(s); };
    out << listing.series.size() << " volume(s)\n";
    for (const auto& s : listing.series) {
        const Geometry& g = s.geometry;
        out << "\n"
            << p(s.id) << "\n"
            << "  patient      " << p(s.patientName) << (s.patientId.empty() ? "" : " (" + p(s.patientId) + ")") << "\n"
            << "  study        " << p(s.studyDescription) << "\n"
            << "  modality     " << p(s.modality) << "\n"
            << "  description  " << p(s.description) << "\n"
            << "  dimensions   " << g.dims[0] << " x " << g.dims[1] << " x " << g.dims[2] << " (" << s.frames
            << " images in " << s.files.size() << " file(s))\n";
        if (s.timeFrames > 1) out << "  time frames  " << s.timeFrames << " volumes on this grid (4D)\n";
        out << std::setprecision(6) << "  spacing      " << g.spacing.x << " x " << g.spacing.y << " x " << g.spacing.z
            << " mm\n"
            << "  origin       " << g.origin.x << ", " << g.origin.y << ", " << g.origin.z << " mm (LPS)\n"
            << "  transfer     " << p(s.transferSyntax) << "\n";
        for (const auto& w : s.warnings) out << "  warning: " << p(w) << "\n";
    }
    for (const auto& w : listing.warnings) out << "warning: " << p(w) << "\n";
}

}  // namespace lucent::io
