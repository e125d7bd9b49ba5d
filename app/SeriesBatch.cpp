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
