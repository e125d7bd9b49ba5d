/// @brief The names of a scan's volumes and which volume a document describes (VolumeNames.h).
#include "lucent/io/VolumeNames.h"

#include "lucent/io/FileUtil.h"
#include "lucent/io/VolumeFile.h"

#include <cctype>
#include <filesystem>
#include <set>

namespace lucent::io {

namespace {

/// A volume file's name without its suffix (.nii.gz counts as one).
std::string withoutSuffix(const std::string& path) {
    std::string name = std::filesystem::path(path).filename().string();
    if (toLower(name).ends_with(".gz")) name.resize(name.size() - 3);
    const std::size_t dot = name.rfind('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

std::string safeForFileName(const std::string& text) {
    std::string out;
    for (const char c : text) {
        const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-';
        if (keep)
            out += c;
        else if (!out.empty() && out.back() != '_')
            out += '_';
    }
    while (!out.empty() && (out.back() == '_' || out.back() == '.')) out.pop_back();
    // A leading dot would hide the file.
    while (!out.empty() && out.front() == '.') out.erase(out.begin());
    return out.empty() ? "series" : out;
}

}  // namespace

VolumeIdentity identify(const SourceScan& scan, std::size_t index) {
    const SeriesInfo& info = scan.listing.series.at(index);
    // The scan lists a folder's DICOM series first, then its volume files.
    const bool folderFile = !scan.volumeFile && index >= scan.dicom.size();
    return {folderFile ? scan.volumeFiles.at(index - scan.dicom.size()) : scan.path, info.id};
}

std::string seriesFileName(const SeriesInfo& s) {
    // Volume files are listed under their own path: their name says what they are.
    const bool volumeFile = s.transferSyntaxUid.empty() && isVolumeFileName(s.uid);
    if (volumeFile) return safeForFileName(withoutSuffix(s.uid));
    std::string text = s.seriesNumber >= 0 ? std::to_string(s.seriesNumber) : "";
    if (!s.description.empty()) text += (text.empty() ? "" : "_") + s.description;
    return safeForFileName(text);
}

std::vector<std::string> seriesFileNames(const std::vector<SeriesInfo>& series) {
    std::vector<std::string> names;
    std::set<std::string> taken;
    for (const SeriesInfo& s : series) {
        const std::string base = seriesFileName(s);
        std::string name = base;
        for (int n = 2; taken.count(name); ++n) name = base + "_" + std::to_string(n);
        taken.insert(name);
        names.push_back(name);
    }
    return names;
}

}  // namespace lucent::io
