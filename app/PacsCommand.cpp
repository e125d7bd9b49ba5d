/// @brief `lucent pacs echo|find|get|send --pacs AET@HOST:PORT ...` (get: C-GET, or C-MOVE with --move-port): argument
/// parsing over lucent_net.
#include "CommandLine.h"
#include "Commands.h"

#include "lucent/core/JsonWriter.h"
#include "lucent/net/PacsClient.h"

#include <iostream>

namespace lucent::app {

namespace {

/// Options every pacs sub-command takes: the node, our AE title and the timeout.
const std::set<std::string> kNodeOptions = {"--pacs", "--aet", "--timeout"};

std::set<std::string> with(std::set<std::string> options) {
    options.insert(kNodeOptions.begin(), kNodeOptions.end());
    return options;
}

net::PacsNode nodeOf(const CommandLine& cl) {
    if (!cl.has("--pacs")) throw UsageError("pacs needs --pacs AET@HOST:PORT");
    net::PacsAddress address;
    try {
        address = net::parsePacsAddress(cl.value("--pacs"));
        if (cl.has("--aet")) net::checkAeTitle(cl.value("--aet"), "--aet");
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--pacs: ") + e.what());
    }
    if (address.kind == net::PacsAddress::Kind::DicomWeb)
        throw UsageError("--pacs " + address.url + ": DICOMweb is not supported yet (give AET@HOST:PORT)");
    net::PacsNode node = address.node;
    node.callingAet = cl.value("--aet", node.callingAet);
    node.timeoutSeconds = cl.integer("--timeout", node.timeoutSeconds);
    if (node.timeoutSeconds < 1 || node.timeoutSeconds > 3600)
        throw UsageError("--timeout needs whole seconds from 1 to 3600");
    return node;
}

/// A DICOM date or range: YYYYMMDD, YYYYMMDD-, -YYYYMMDD or YYYYMMDD-YYYYMMDD.
std::string dateRange(const std::string& text) {
    const auto isDate = [](const std::string& d) {
        return d.size() == 8 && d.find_first_not_of("0123456789") == std::string::npos;
    };
    const std::size_t dash = text.find('-');
    const std::string from = text.substr(0, dash), to = dash == std::string::npos ? "" : text.substr(dash + 1);
    const bool ok = dash == std::string::npos
                        ? isDate(text)
                        : (from.empty() || isDate(from)) && (to.empty() || isDate(to)) && !(from.empty() && to.empty());
    if (!ok) throw UsageError("--study-date needs YYYYMMDD or a range YYYYMMDD-YYYYMMDD, got '" + text + "'");
    return text;
}

void writeJson(const std::vector<net::FindRecord>& records, const net::PacsNode& node, bool series) {
    JsonWriter json(std::cout);
    json.beginObject().key("pacs").value(node.label()).key("level").value(series ? "series" : "study");
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
        {"--json"});
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
    const net::PacsNode node = nodeOf(cl);
    const std::vector<net::FindRecord> records = net::find(node, q);
    if (cl.has("--json")) {
        writeJson(records, node, q.level == net::QueryLevel::Series);
        return 0;
    }
    for (const net::FindRecord& r : records)
        std::cout << (r.seriesUid.empty() ? r.studyUid : r.seriesUid) << "  " << r.studyDate << "  " << r.patientName
                  << "  " << r.patientId << "  " << r.modalities << "  " << r.instances << " instances  "
                  << (r.seriesUid.empty() ? r.studyDescription : r.seriesDescription) << "\n";
    const char* noun = records.size() == 1 ? level.c_str() : (level == "study" ? "studies" : "series");
    std::cerr << records.size() << " " << noun << " found on " << node.label() << "\n";
    return 0;
}

int runGet(const std::vector<std::string>& args) {
    const CommandLine cl(args, with({"--study", "--series", "-o", "--move-port"}), {});
    if (!cl.positionals().empty()) throw UsageError("pacs get takes no positional argument");
    if (!cl.has("--study")) throw UsageError("pacs get needs --study UID");
    const net::PacsNode node = nodeOf(cl);
    net::RetrieveRequest request{cl.value("--study"), cl.value("--series"), cl.value("-o"),
                                 cl.integer("--move-port", 0)};
    if (cl.has("--move-port") && (request.movePort < 1 || request.movePort > 65535))
        throw UsageError("--move-port needs a port from 1 to 65535");
    std::vector<net::RetrievedSeries> series;
    try {
        series = net::retrieve(node, request);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    for (const net::RetrievedSeries& s : series) std::cout << s.folder << "\n";
    return 0;
}

int runSend(const std::vector<std::string>& args) {
    const CommandLine cl(args, kNodeOptions, {});
    if (cl.positionals().empty()) throw UsageError("pacs send needs FILE...");
    const net::PacsNode node = nodeOf(cl);
    net::store(node, cl.positionals());
    std::cout << "sent " << cl.positionals().size() << " file(s) to " << node.label() << "\n";
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
    const CommandLine cl(rest, kNodeOptions, {});
    if (!cl.positionals().empty()) throw UsageError("pacs echo takes no positional argument");
    const net::PacsNode node = nodeOf(cl);
    net::echo(node);
    std::cout << node.label() << " answered C-ECHO\n";
    return 0;
}

}  // namespace lucent::app
