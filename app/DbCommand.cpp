/// @brief `lucent db list [--json]` and `lucent db import PATH`: the local study database from the command line.
#include "CommandLine.h"
#include "Commands.h"
#include "lucent/pacs/StudyDatabase.h"

#include "lucent/core/JsonWriter.h"
#include "lucent/io/FileUtil.h"
#include "lucent/net/PacsNode.h"

#include <iostream>

namespace lucent::app {

using pacs::StudyDatabase;
using pacs::StudySeries;

namespace {

void writeJson(const std::string& path, const std::vector<StudySeries>& all) {
    JsonWriter json(std::cout);
    json.beginObject().key("database").value(path).key("studies").beginArray();
    for (std::size_t i = 0; i < all.size();) {
        const StudySeries& study = all[i];
        json.beginObject().key("patientName").value(study.patientName).key("patientId").value(study.patientId);
        json.key("studyInstanceUid").value(study.studyUid).key("studyDate").value(study.studyDate);
        json.key("studyDescription").value(study.studyDescription).key("accessionNumber").value(study.accessionNumber);
        json.key("series").beginArray();
        for (; i < all.size() && all[i].studyUid == study.studyUid; ++i) {
            const StudySeries& s = all[i];
            json.beginObject().key("seriesInstanceUid").value(s.seriesUid).key("seriesNumber").value(s.seriesNumber);
            json.key("modality").value(s.modality).key("seriesDescription").value(s.seriesDescription);
            json.key("images").value(s.images).key("folder").value(s.folder).endObject();
        }
        json.endArray().endObject();
    }
    json.endArray().endObject();
    std::cout << "\n";
}

void writeText(const std::vector<StudySeries>& all) {
    std::string study;
    for (const StudySeries& s : all) {
        if (s.studyUid != study) {
            study = s.studyUid;
            std::cout << s.studyUid << "  " << s.studyDate << "  " << s.patientName << "  " << s.patientId << "  "
                      << s.studyDescription << "\n";
        }
        std::cout << "    " << s.seriesUid << "  " << s.modality << "  #" << s.seriesNumber << "  " << s.images
                  << " images  " << s.seriesDescription << "  " << s.folder << "\n";
    }
}

}  // namespace

std::unique_ptr<StudyDatabase> openStudyDatabase() {
    std::string path;
    try {
        path = net::defaultStudyDatabase();
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    auto db = std::make_unique<StudyDatabase>(path, net::defaultRetrieveCache());
    if (!db->recoveryMessage().empty()) std::cerr << "lucent: " << io::printable(db->recoveryMessage()) << "\n";
    return db;
}

int runDb(const std::vector<std::string>& args) {
    if (args.empty()) throw UsageError("db needs list or import");
    const std::string verb = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (verb == "list") {
        const CommandLine cl(rest, {}, {"--json"});
        if (!cl.positionals().empty()) throw UsageError("db list takes no positional argument");
        const std::unique_ptr<StudyDatabase> db = openStudyDatabase();
        const std::vector<StudySeries> all = db->list();
        if (cl.has("--json"))
            writeJson(net::defaultStudyDatabase(), all);
        else
            writeText(all);
        return 0;
    }
    if (verb != "import") throw UsageError("unknown db command '" + verb + "' (list, import)");
    const CommandLine cl(rest, {}, {});
    if (cl.positionals().size() != 1) throw UsageError("db import needs one PATH");
    const std::unique_ptr<StudyDatabase> db = openStudyDatabase();
    std::vector<std::string> warnings;
    const std::vector<StudySeries> series = db->importPath(cl.positionals()[0], &warnings);
    if (series.empty())
        throw std::runtime_error(cl.positionals()[0] + ": no DICOM image series found; nothing indexed");
    for (const std::string& w : warnings) std::cerr << "lucent db: warning: " << io::printable(w) << "\n";
    for (const StudySeries& s : series) std::cout << s.seriesUid << "  " << s.images << " images  " << s.folder << "\n";
    std::cerr << "indexed " << series.size() << " series from " << cl.positionals()[0] << " in "
              << net::defaultStudyDatabase() << "\n";
    return 0;
}

}  // namespace lucent::app
