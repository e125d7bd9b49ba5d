/// @brief `lucent info PATH [--json]`: one record per volume found under PATH.
#include "CommandLine.h"
#include "Commands.h"
#include "Reporter.h"

#include "lucent/io/FileUtil.h"
#include "lucent/io/ImageSource.h"

#include <iostream>

namespace lucent::app {

int runInfo(const std::vector<std::string>& args) {
    std::set<std::string> flags = quietFlags();
    flags.insert("--json");
    const CommandLine cl(args, {"--threads"}, flags);
    if (cl.positionals().size() != 1) throw UsageError("info takes one PATH");
    io::DicomOptions options;
    options.threads = cl.threads();
    const std::string& path = cl.positionals()[0];
    options.progress = Reporter("info", path, cl).progress();
    const io::SourceListing listing = io::ImageSource::list(path, options);
    if (cl.has("--json"))
        io::ImageSource::writeJson(listing, std::cout);
    else
        io::ImageSource::writeText(listing, std::cout);
    if (!listing.series.empty()) return 0;
    // Exit 1 alone does not say why: one line on stderr does, as for every other failure.
    std::string why = path + ": no image volume found";
    if (listing.warnings.size() == 1) {
        const std::string& w = listing.warnings.front();
        why = w.rfind("skipped ", 0) == 0 ? w.substr(8) : why + " (" + w + ")";
    } else if (!listing.warnings.empty()) {
        why += " (see the " + std::to_string(listing.warnings.size()) + " warnings)";
    }
    std::cerr << "lucent info: error: " << io::printable(why) << "\n";
    return 1;
}

}  // namespace lucent::app
