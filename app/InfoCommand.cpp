/// @brief `lucent info PATH [--json]`: one record per volume found under PATH.
#include "CommandLine.h"
#include "Commands.h"

#include "lucent/io/ImageSource.h"

#include <iostream>

namespace lucent::app {

int runInfo(const std::vector<std::string>& args) {
    const CommandLine cl(args, {"--threads"}, {"--json"});
    if (cl.positionals().size() != 1) throw UsageError("info takes one PATH");
    io::DicomOptions options;
    options.threads = static_cast<unsigned>(cl.integer("--threads", 0));
    options.progress = printProgress;
    const io::SourceListing listing = io::ImageSource::list(cl.positionals()[0], options);
    if (cl.has("--json"))
        io::ImageSource::writeJson(listing, std::cout);
    else
        io::ImageSource::writeText(listing, std::cout);
    return listing.series.empty() ? 1 : 0;
}

}  // namespace lucent::app
