/// @brief `--series all`: every volume under the input, one output each, named through `{series}`;
/// a volume that fails is reported and the batch goes on.
#pragma once

#include "CommandLine.h"
#include "Reporter.h"

#include "lucent/core/SeriesInfo.h"
#include "lucent/core/Volume.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/VolumeNames.h"

#include <functional>
#include <string>
#include <vector>

namespace lucent::app {

using io::identify;
using io::seriesFileName;
using io::seriesFileNames;
using io::VolumeIdentity;

/// The `--series` value that runs every volume of the input.
inline constexpr const char* kAllSeries = "all";
/// What an output name holds to be one file per volume.
inline constexpr const char* kSeriesField = "{series}";

/// `pattern` with every `{series}` replaced by `name`.
std::string withSeries(std::string pattern, const std::string& name);

/// A loaded volume and which one it is.
struct LoadedVolume {
    Volume volume;
    VolumeIdentity identity;
};

/// One volume's run inside a command.
struct SeriesRun {
    const Reporter& report;                                      ///< names the input (and series)
    std::function<LoadedVolume(std::vector<std::string>*)> load;  ///< loads the volume; warnings out
    std::string series;                                          ///< `{series}`'s value; empty: no batch
    /// An output name of the command line with `{series}` filled in.
    std::string output(const std::string& pattern) const { return withSeries(pattern, series); }
};

/// Runs `body` for the volume `--series` names (once), or with `--series all` for every volume under
/// the input, scanned once. In a batch each of `outputs` (the command's output names; "-" is
/// stdout) must hold `{series}` (else UsageError), and folders whose names hold it are made; a
/// volume's failure is printed naming the input and the series, the others still run, and the exit
/// code is 1 when any failed.
int runPerSeries(const std::string& command, const CommandLine& cl, const std::vector<std::string>& outputs,
                 const std::function<int(const SeriesRun&)>& body);

}  // namespace lucent::app
