/// @brief `--series all` (SeriesBatch.h).
#include "SeriesBatch.h"

#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/VolumeFile.h"

#include <cctype>
#include <filesystem>
#include <iostream>
#include <set>

namespace lucent::app {

namespace {

/// A volume file's name without its suffix (.nii.gz counts as one).
std::string withoutSuffix(const std::string& path) {
    std::string name = std::filesystem::path(path).filename().string();
    if (io::toLower(name).ends_with(".gz")) name.resize(name.size() - 3);
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

io::DicomOptions loadOptions(const CommandLine& cl, const Reporter& report) {
    io::DicomOptions options;
    options.threads = cl.threads();
    options.progress = report.progress();
    return options;
}

void requireSeriesField(const std::vector<std::string>& outputs) {
    for (const std::string& out : outputs) {
        if (out == "-")
            throw UsageError("--series all: standard output cannot take one result per volume; name a file holding " +
                             std::string(kSeriesField));
        if (out.find(kSeriesField) == std::string::npos)
            throw UsageError("--series all writes one output per volume: " + out + " must hold " + kSeriesField);
    }
}

}  // namespace

VolumeIdentity identify(const io::SourceScan& scan, std::size_t index) {
    const SeriesInfo& info = scan.listing.series.at(index);
    // The scan lists a folder's DICOM series first, then its volume files.
    const bool folderFile = !scan.volumeFile && index >= scan.dicom.size();
    return {folderFile ? scan.volumeFiles.at(index - scan.dicom.size()) : scan.path, info.id};
}

std::string seriesFileName(const SeriesInfo& s) {
    // Volume files are listed under their own path: their name says what they are.
    const bool volumeFile = s.transferSyntaxUid.empty() && io::isVolumeFileName(s.uid);
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

std::string withSeries(std::string pattern, const std::string& name) {
    const std::string field = kSeriesField;
    for (std::size_t at = pattern.find(field); at != std::string::npos; at = pattern.find(field, at + name.size()))
        pattern.replace(at, field.size(), name);
    return pattern;
}

int runPerSeries(const std::string& command, const CommandLine& cl, const std::vector<std::string>& outputs,
                 const std::function<int(const SeriesRun&)>& body) {
    const std::string input = cl.positionals().at(0);
    if (cl.value("--series") != kAllSeries) {
        const Reporter report(command, input, cl);
        const SeriesRun run{report, [&](std::vector<std::string>* warnings) {
                                const io::DicomOptions options = loadOptions(cl, report);
                                const io::SourceScan scan = io::ImageSource::scan(input, options);
                                const std::size_t index =
                                    io::ImageSource::choose(scan, cl.value("--series"), io::WhenUnnamed::Refuse, warnings);
                                return LoadedVolume{io::ImageSource::load(scan, index, options, warnings),
                                                    identify(scan, index)};
                            }};
        return report.run([&] { return body(run); });
    }
    requireSeriesField(outputs);
    const Reporter whole(command, input, cl);
    io::SourceScan scan;
    whole.run([&] {
        scan = io::ImageSource::scan(input, loadOptions(cl, whole));
        io::ImageSource::choose(scan, "", io::WhenUnnamed::Largest);  // nothing found: the reason, exit 1
        return 0;
    });
    whole.warn(scan.listing.warnings);
    const std::vector<std::string> names = seriesFileNames(scan.listing.series);
    const auto makeFolders = [&](const std::string& name) {
        // The batch makes its output folders: OUT in OUT/{series}.nii.gz, OUT/{series} in
        // OUT/{series}/mask.nii.gz.
        for (const std::string& out : outputs) {
            const std::filesystem::path parent = std::filesystem::path(withSeries(out, name)).parent_path();
            std::error_code ec;
            if (!parent.empty() && !std::filesystem::create_directories(parent, ec) && ec)
                throw std::runtime_error("cannot make the output folder " + parent.string() + ": " + ec.message());
        }
    };
    std::size_t failed = 0;
    for (std::size_t i = 0; i < names.size(); ++i) {
        // Errors and warnings name the series beside the input: "DIR (series 3_T1): ...".
        const Reporter report(command, input + " (series " + names[i] + ")", cl);
        const SeriesRun run{report,
                            [&](std::vector<std::string>* warnings) {
                                return LoadedVolume{io::ImageSource::load(scan, i, loadOptions(cl, report), warnings),
                                                    identify(scan, i)};
                            },
                            names[i]};
        try {
            failed += report.run([&] {
                makeFolders(names[i]);
                return body(run);
            }) != 0;
        } catch (const UsageError&) {
            throw;
        } catch (const Cancelled&) {
            throw;
        } catch (const std::exception& e) {
            std::cerr << "lucent " << command << ": error: " << io::printable(e.what()) << "\n";
            ++failed;
        }
    }
    if (failed > 0)
        std::cerr << "lucent " << command << ": " << failed << " of " << names.size() << " volume(s) under " << input
                  << " failed\n";
    return failed > 0 ? 1 : 0;
}

}  // namespace lucent::app
