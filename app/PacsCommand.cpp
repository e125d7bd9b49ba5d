/// @brief `lucent pacs echo|find|get|send --pacs AET@HOST:PORT|URL ...` (DIMSE: C-GET, or C-MOVE with --move-port;
/// DICOMweb: QIDO-RS, WADO-RS, STOW-RS): argument parsing over PacsTarget.
#include "CommandLine.h"
#include "Commands.h"
#include "PacsTarget.h"
#include "lucent/pacs/StudyDateRange.h"
#include "lucent/pacs/StudyDatabase.h"

#include <iostream>
#include "lucent/core/JsonWriter.h"

namespace lucent::app {

namespace {

std::set<std::string> with(std::set<std::string> options) {
    options.insert(PacsTarget::options().begin(), PacsTarget::options().end());
    return options;
}

std::set<std::string> withFlags(std::set<std::string> flags) {
    flags.insert(PacsTarget::flags().begin(), PacsTarget::flags().end());
    return flags;
}

/// A DICOM date or range: YYYYMMDD, YYYYMMDD-, -YYYYMMDD or YYYYMMDD-YYYYMMDD.
std::string dateRange(const std::string& text) {
    if (!pacs::isStudyDateRange(text)) throw UsageError("--study-date needs YYYYMMDD or a range YYYYMMDD-YYYYMMDD, got '" + text + "'");
    return text;
}

void writeJson(const std::vector<net::FindRecord>& records, const std::string& pacs, bool series) {
    JsonWriter json(std::cout);
    json.beginObject().key("pacs").value(pacs).key("level").value(series ? "series" : "study");
    json.key("results").beginArray();
    for (const net::FindRecord& r : records) {
        json.beginObject().key("patientName").value(r.patientName).key("patientId").value(r.patientId);
        json.key("studyInstanceUid").value(r.studyUid).key("studyDate").value(r.studyDate);
        json.key("studyDescription").value(r.studyDescription).key("accessionNumber").value(r.accessionNumber);
        json.key(series ? "modality" : "modalities").value(r.modalities);
        if (series)
            json.key("seriesInstanceUid")
                .value(r.seriesUid)
                .key("seriesNumber")
                .value(r.seriesNumber)
                .key("seriesDescription")
                .value(r.seriesDescription);
        json.key("instances").value(r.instances).endObject();
    }
    json.endArray().endObject();
    std::cout << "\n";
}

int runFind(const std::vector<std::string>& args) {
    const CommandLine cl(
        args,
        with({"--patient-name", "--patient-id", "--study-date", "--modality", "--level", "--accession", "--study"}),
        withFlags({"--json"}));
    if (!cl.positionals().empty()) throw UsageError("pacs find takes no positional argument");
    const std::string level = cl.value("--level", "study");
    if (level != "study" && level != "series") throw UsageError("--level needs study or series, got '" + level + "'");
    net::FindQuery q;
    q.level = level == "series" ? net::QueryLevel::Series : net::QueryLevel::Study;
    q.patientName = cl.value("--patient-name");
    q.patientId = cl.value("--patient-id");
    q.studyDate = cl.has("--study-date") ? dateRange(cl.value("--study-date")) : "";
    q.modality = cl.value("--modality");
    q.accessionNumber = cl.value("--accession");
    q.studyUid = cl.value("--study");
    PacsTarget target(cl);
    const std::vector<net::FindRecord> records = target.find(q);
    if (cl.has("--json")) {
        writeJson(records, target.label(), q.level == net::QueryLevel::Series);
        return 0;
    }
    for (const net::FindRecord& r : records)
        std::cout << (r.seriesUid.empty() ? r.studyUid : r.seriesUid) << "  " << r.studyDate << "  " << r.patientName
                  << "  " << r.patientId << "  " << r.modalities << "  " << r.instances << " instances  "
                  << (r.seriesUid.empty() ? r.studyDescription : r.seriesDescription) << "\n";
    const char* noun = records.size() == 1 ? level.c_str() : (level == "study" ? "studies" : "series");
    std::cerr << records.size() << " " << noun << " found on " << target.label() << "\n";
    return 0;
}

int runGet(const std::vector<std::string>& args) {
    const CommandLine cl(args, with({"--study", "--series", "-o", "--move-port"}), PacsTarget::flags());
    if (!cl.positionals().empty()) throw UsageError("pacs get takes no positional argument");
    if (!cl.has("--study")) throw UsageError("pacs get needs --study UID");
    PacsTarget target(cl);
    net::RetrieveRequest request{cl.value("--study"), cl.value("--series"), cl.value("-o"),
                                 cl.integer("--move-port", 0)};
    if (cl.has("--move-port") && (request.movePort < 1 || request.movePort > 65535))
        throw UsageError("--move-port needs a port from 1 to 65535");
    std::vector<net::RetrievedSeries> series;
    try {
        series = target.retrieve(request);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    for (const net::RetrievedSeries& s : series) std::cout << s.folder << "\n";
    // Into the cache: the study database indexes what arrived (only complete series arrive).
    if (request.destination.empty() && pacs::StudyDatabase::available()) {
        const std::unique_ptr<pacs::StudyDatabase> db = openStudyDatabase();
        for (const net::RetrievedSeries& s : series) db->importPath(s.folder);
    }
    return 0;
}

int runSend(const std::vector<std::string>& args) {
    const CommandLine cl(args, PacsTarget::options(), PacsTarget::flags());
    if (cl.positionals().empty()) throw UsageError("pacs send needs FILE...");
    PacsTarget target(cl);
    target.store(cl.positionals());
    std::cout << "sent " << cl.positionals().size() << " file(s) to " << target.label() << "\n";
    return 0;
}

}  // namespace

int runPacs(const std::vector<std::string>& args) {
    if (args.empty()) throw UsageError("pacs needs echo, find, get or send");
    const std::string verb = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (verb == "find") return runFind(rest);
    if (verb == "get") return runGet(rest);
    if (verb == "send") return runSend(rest);
    if (verb != "echo") throw UsageError("unknown pacs command '" + verb + "' (echo, find, get, send)");
    const CommandLine cl(rest, PacsTarget::options(), PacsTarget::flags());
    if (!cl.positionals().empty()) throw UsageError("pacs echo takes no positional argument");
    PacsTarget target(cl);
    target.echo();
    std::cout << target.label() << (target.web() ? " answered QIDO-RS\n" : " answered C-ECHO\n");
    return 0;
}

}  // namespace lucent::app
