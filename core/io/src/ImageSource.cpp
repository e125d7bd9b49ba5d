/// @brief Dispatch between volume files and DICOM, series selection, and listing reports.
#include "lucent/io/ImageSource.h"

#include "lucent/core/Errors.h"
#include "lucent/core/JsonWriter.h"
#include "lucent/io/FileUtil.h"
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

const DicomSeries& choose(const DicomScanResult& scan, const std::string& path, const std::string& id,
                          std::vector<std::string>* warnings) {
    const std::vector<DicomSeries>& all = scan.series;
    if (all.empty()) throwNothingFound(path, scan.warnings);
    if (id.empty()) {
        if (all.size() == 1) return all.front();
        std::string ids;
        for (const auto& s : all) ids += (ids.empty() ? "" : ", ") + s.info.id;
        throw IoError(path + " holds " + std::to_string(all.size()) +
                      " volumes; choose one with --series ID (see `lucent info`): " + ids);
    }
    for (const auto& s : all)
        if (s.info.id == id) return s;
    // A split series asked for by its SeriesInstanceUID: its largest part (listed first).
    for (const auto& s : all) {
        if (s.info.uid == id) {
            if (warnings && s.info.id != id)
                warnings->push_back("series " + id + " is split into several volumes; loading " + s.info.id);
            return s;
        }
    }
    throw IoError(path + ": no series with id " + id + " (see `lucent info " + path + "`)");
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

Volume ImageSource::load(const std::string& path, const std::string& seriesId, const DicomOptions& options,
                         std::vector<std::string>* warnings) {
    if (isVolumeFile(path)) {
        const RawImage raw = readRawImage(path);
        if (warnings) {
            const auto info = describeVolumeFile(path, raw);
            warnings->insert(warnings->end(), info.warnings.begin(), info.warnings.end());
        }
        Volume v = toVolume(raw, path);
        v.metadata().description = std::filesystem::path(path).filename().string();
        return v;
    }
    // The header pass reports progress too; the pixel pass is the larger share of the work.
    DicomOptions scanOptions = options;
    if (options.progress)
        scanOptions.progress = [&](std::size_t done, std::size_t total) { return options.progress(done, 4 * total); };
    const DicomScanResult scan = DicomReader::scan(path, scanOptions);
    const DicomSeries& series = choose(scan, path, seriesId, warnings);
    if (warnings) warnings->insert(warnings->end(), series.info.warnings.begin(), series.info.warnings.end());
    DicomOptions loadOptions = options;
    if (options.progress) {
        const std::size_t files = scan.filesScanned;
        loadOptions.progress = [&, files](std::size_t done, std::size_t total) {
            return options.progress(files + (3 * files * done) / std::max<std::size_t>(1, total), 4 * files);
        };
    }
    return DicomReader::load(series, loadOptions);
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
        json.key("transfer_syntax").value(s.transferSyntax);
        json.key("transfer_syntax_uid").value(s.transferSyntaxUid);
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
            << " images in " << s.files.size() << " file(s))\n"
            << std::setprecision(6) << "  spacing      " << g.spacing.x << " x " << g.spacing.y << " x " << g.spacing.z
            << " mm\n"
            << "  origin       " << g.origin.x << ", " << g.origin.y << ", " << g.origin.z << " mm (LPS)\n"
            << "  transfer     " << p(s.transferSyntax) << "\n";
        for (const auto& w : s.warnings) out << "  warning: " << p(w) << "\n";
    }
    for (const auto& w : listing.warnings) out << "warning: " << p(w) << "\n";
}

}  // namespace lucent::io
