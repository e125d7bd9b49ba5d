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
#include <optional>
#include <set>

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

/// The volume files of a folder, their headers read for their description (load() reads the voxels).
struct FolderVolumes {
    std::vector<SeriesInfo> series;
    std::vector<std::string> paths;     ///< parallel to series
    std::vector<std::string> warnings;  ///< files that have a volume file's name but cannot be read
    std::set<std::string> claimed;      ///< the files and their detached data files: not DICOM candidates
};

std::string normal(const std::string& path) { return std::filesystem::path(path).lexically_normal().string(); }

FolderVolumes readFolderVolumes(const std::string& folder, const std::vector<std::string>& files) {
    FolderVolumes found;
    for (const std::string& file : files) {
        if (!isVolumeFileName(file)) continue;
        found.claimed.insert(normal(file));
        try {
            const RawImage raw = readRawImageHeader(file);
            for (const std::string& data : raw.dataFiles) found.claimed.insert(normal(data));
            SeriesInfo s = describeVolumeFile(file, raw);
            // The id `--series` takes: the file's path under the folder, short and unique.
            s.id = std::filesystem::path(file).lexically_relative(folder).string();
            found.series.push_back(std::move(s));
            found.paths.push_back(file);
        } catch (const std::exception& e) {
            found.warnings.push_back(std::string("skipped ") + e.what());
        }
    }
    return found;
}

/// Nothing loadable under `path`: the error says why (the one skipped file's reason, when that is all).
[[noreturn]] void throwNothingFound(const std::string& path, const std::vector<std::string>& scanWarnings) {
    if (scanWarnings.size() == 1 && scanWarnings.front().rfind("skipped ", 0) == 0)
        throw IoError(scanWarnings.front().substr(8));
    std::string why = path + ": no image volume found (no DICOM series, no volume file)";
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

namespace {

/// A folder (or one DICOM file): its DICOM series first, then its volume files, each one volume.
SourceScan scanFolder(const std::string& path, const DicomOptions& options) {
    SourceScan result;
    result.path = path;
    const std::vector<std::string> files = filesUnder(path);
    FolderVolumes volumes = readFolderVolumes(path, files);
    std::vector<std::string> others;
    for (const std::string& file : files)
        if (!volumes.claimed.count(normal(file))) others.push_back(file);
    DicomScanResult scan = DicomReader::scanFiles(path, others, options);
    result.filesScanned = scan.filesScanned;
    result.listing.warnings = std::move(scan.warnings);
    for (const auto& s : scan.series) result.listing.series.push_back(s.info);
    result.dicom = std::move(scan.series);
    for (auto& w : volumes.warnings) result.listing.warnings.push_back(std::move(w));
    for (auto& s : volumes.series) result.listing.series.push_back(std::move(s));
    result.volumeFiles = std::move(volumes.paths);
    return result;
}

}  // namespace

SourceListing ImageSource::list(const std::string& path, const DicomOptions& options) {
    if (isVolumeFile(path)) {
        SourceListing listing;
        listing.series.push_back(describeVolumeFile(path, readRawImageHeader(path)));
        return listing;
    }
    return scanFolder(path, options).listing;
}

SourceScan ImageSource::scan(const std::string& path, const DicomOptions& options) {
    if (isVolumeFile(path)) {
        SourceScan result;
        result.path = path;
        result.volumeFile = readRawImageHeader(path);
        result.listing.series.push_back(describeVolumeFile(path, *result.volumeFile));
        return result;
    }
    // The header pass is a quarter of an open: decoding the pixels is the larger share of the work.
    DicomOptions scanOptions = options;
    if (options.progress)
        scanOptions.progress = [report = options.progress](std::size_t done, std::size_t total) {
            return report(done, 4 * total);
        };
    return scanFolder(path, scanOptions);
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

/// The file holding volume `index` when it is a volume file (the scanned file, or one of a
/// folder's); empty for a DICOM series.
std::string volumeFileOf(const SourceScan& scan, std::size_t index) {
    if (scan.volumeFile) return scan.path;
    return index < scan.dicom.size() ? std::string() : scan.volumeFiles.at(index - scan.dicom.size());
}

/// That file's header: kept by the scan of one file, read now for a folder's.
RawImage headerOf(const SourceScan& scan, const std::string& file) {
    return scan.volumeFile ? *scan.volumeFile : readRawImageHeader(file);
}

}  // namespace

Volume ImageSource::load(const SourceScan& scan, std::size_t index, const DicomOptions& options,
                         std::vector<std::string>* warnings) {
    if (index >= scan.listing.series.size())
        throw IoError(scan.path + ": no volume " + std::to_string(index + 1) + " in the listing");
    const SeriesInfo& info = scan.listing.series[index];
    if (warnings) warnings->insert(warnings->end(), info.warnings.begin(), info.warnings.end());
    if (const std::string file = volumeFileOf(scan, index); !file.empty()) {
        return readVolumeFile(headerOf(scan, file), file);
    }
    return DicomReader::load(scan.dicom.at(index), afterHeaderPass(options, scan.filesScanned));
}

int ImageSource::frameCount(const SourceScan& scan, std::size_t index) {
    if (index >= scan.listing.series.size()) return 0;
    if (!volumeFileOf(scan, index).empty()) return std::max(1, scan.listing.series[index].timeFrames);
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
    const std::string file = volumeFileOf(scan, index);
    if (file.empty()) {
        // Every file read once for all frames.
        return DicomReader::loadFrames(scan.dicom.at(index), afterHeaderPass(options, scan.filesScanned));
    }
    const auto& d = info.geometry.dims;
    imageBytes({d[0], d[1], d[2], count}, sizeof(std::int16_t), file);  // all frames are held at once
    const RawImage raw = readRawImage(file);
    std::vector<Volume> frames;
    for (int f = 0; f < count; ++f) {
        if (options.progress && !options.progress(std::size_t(f), std::size_t(count))) throw Cancelled();
        frames.push_back(toVolumeFrame(raw, f, file));
        frames.back().metadata().description = std::filesystem::path(file).filename().string();
    }
    // One pixel type for all: a frame whose values left int16 made float32, so do all.
    if (std::any_of(frames.begin(), frames.end(),
                    [](const Volume& v) { return v.pixelType() == PixelType::Float32; })) {
        imageBytes({d[0], d[1], d[2], count}, sizeof(float), file);
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
        if (s.seriesNumber >= 0)
            json.key("series_number").value(s.seriesNumber);
        else
            json.key("series_number").null();
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
            << (s.seriesNumber >= 0 ? "  series       " + std::to_string(s.seriesNumber) + "\n" : "")
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
