/// @brief C-GET of a study or series into a temporary folder, renamed into place only when complete.
#include "lucent/net/PacsClient.h"

#include "ScuSession.h"

#include <dcmtk/dcmdata/dctk.h>

#include <stdlib.h>
#include <filesystem>
#include <map>
#include <memory>

namespace lucent::net {

namespace fs = std::filesystem;

namespace {

/// A UID names a folder or file: only digits and dots, as the standard allows, so that a hostile
/// answer ("../..") cannot write elsewhere.
bool isUid(const std::string& uid) {
    return !uid.empty() && uid.size() <= 64 && uid.find_first_not_of("0123456789.") == std::string::npos &&
           uid.front() != '.';
}

/// Receives the C-STOREs of a C-GET: each instance into TEMP/SERIESUID/SOPUID.dcm.
class GetScu : public ScuSession {
public:
    GetScu(const PacsNode& node, fs::path folder) : ScuSession(node), m_folder(std::move(folder)) {}

    std::map<std::string, std::size_t> received;  ///< instances per series
    std::string problem;                          ///< the first instance we could not keep

protected:
    OFCondition handleSTORERequest(const T_ASC_PresentationContextID presID, DcmDataset* incoming,
                                   OFBool& continueSession, Uint16& status) override {
        continueSession = OFTrue;
        std::unique_ptr<DcmFileFormat> file(new DcmFileFormat(incoming, OFFalse));  // owns `incoming`
        DcmDataset& ds = *file->getDataset();
        OFString series, instance, abstractSyntax, transferSyntax;
        ds.findAndGetOFString(DCM_SeriesInstanceUID, series);
        ds.findAndGetOFString(DCM_SOPInstanceUID, instance);
        if (!isUid(series.c_str()) || !isUid(instance.c_str())) {
            status = STATUS_STORE_Error_CannotUnderstand;
            if (problem.empty()) problem = "an instance with a malformed series or instance UID";
            return EC_Normal;
        }
        findPresentationContext(presID, abstractSyntax, transferSyntax);
        const fs::path dir = m_folder / series.c_str();
        std::error_code ec;
        fs::create_directories(dir, ec);
        const fs::path path = dir / (std::string(instance.c_str()) + ".dcm");
        const OFCondition saved = file->saveFile(path.c_str(), DcmXfer(transferSyntax.c_str()).getXfer());
        if (ec || saved.bad()) {
            status = STATUS_STORE_Refused_OutOfResources;
            if (problem.empty()) problem = "cannot write " + path.string() + ": " + (ec ? ec.message() : saved.text());
            return EC_Normal;
        }
        status = STATUS_Success;
        ++received[series.c_str()];
        return EC_Normal;
    }

private:
    fs::path m_folder;
};

/// Removes the temporary folder unless the retrieve completed.
struct TemporaryFolder {
    fs::path path;
    ~TemporaryFolder() {
        std::error_code ec;
        if (!path.empty()) fs::remove_all(path, ec);
    }
};

fs::path makeTemporaryFolder(const fs::path& destination, const PacsNode& node) {
    std::error_code ec;
    fs::create_directories(destination, ec);
    std::string pattern = (destination / ".lucent-get-XXXXXX").string();
    if (ec || ::mkdtemp(pattern.data()) == nullptr)
        throw PacsError(node.label() + ": cannot create a folder under " + destination.string() +
                        (ec ? ": " + ec.message() : ""));
    return pattern;
}

/// The series the node holds for the request and how many instances each has (C-FIND).
std::map<std::string, int> expectedSeries(const PacsNode& node, const RetrieveRequest& request) {
    FindQuery query;
    query.level = QueryLevel::Series;
    query.studyUid = request.studyUid;
    std::map<std::string, int> expected;
    for (const FindRecord& r : find(node, query))
        if (request.seriesUid.empty() || r.seriesUid == request.seriesUid) expected[r.seriesUid] = r.instances;
    if (expected.empty())
        throw PacsError(node.label() + ": no " +
                        (request.seriesUid.empty() ? "study " + request.studyUid
                                                   : "series " + request.seriesUid + " in study " + request.studyUid) +
                        " on the node; nothing retrieved");
    return expected;
}

/// Sends the C-GET; PacsError when the node reports failed sub-operations or ends badly.
void runGet(GetScu& scu, const RetrieveRequest& request) {
    scu.offer(UID_GETStudyRootQueryRetrieveInformationModel,
              {UID_LittleEndianExplicitTransferSyntax, UID_LittleEndianImplicitTransferSyntax});
    // We are the storage SCP of the C-STOREs a C-GET brings back (128 contexts at most in all).
    for (int i = 0; i < numberOfDcmLongSCUStorageSOPClassUIDs && i < 120; ++i)
        scu.offer(dcmLongSCUStorageSOPClassUIDs[i], offeredTransferSyntaxes(), ASC_SC_ROLE_SCP);
    scu.connect("C-GET (study root)");
    const T_ASC_PresentationContextID id = scu.contextFor(UID_GETStudyRootQueryRetrieveInformationModel, "C-GET");
    DcmDataset keys;
    keys.putAndInsertString(DCM_QueryRetrieveLevel, request.seriesUid.empty() ? "STUDY" : "SERIES");
    keys.putAndInsertString(DCM_StudyInstanceUID, request.studyUid.c_str());
    if (!request.seriesUid.empty()) keys.putAndInsertString(DCM_SeriesInstanceUID, request.seriesUid.c_str());
    OFList<RetrieveResponse*> responses;
    const OFCondition cond = scu.sendCGETRequest(id, &keys, &responses);
    unsigned status = STATUS_Success, failed = 0;
    for (RetrieveResponse* r : responses) {
        std::unique_ptr<RetrieveResponse> owned(r);
        status = r->m_status;
        failed = r->m_numberOfFailedSubops;
    }
    if (cond.bad()) scu.fail("C-GET of study " + request.studyUid + " failed", cond);
    if (!scu.problem.empty()) scu.fail("C-GET of study " + request.studyUid + ": " + scu.problem);
    if (failed > 0)
        scu.fail("C-GET of study " + request.studyUid + ": the node failed to send " + std::to_string(failed) +
                 " instance(s) (status " + statusText(status) + "); nothing kept");
    if (status != STATUS_Success)
        scu.fail("C-GET of study " + request.studyUid + " ended with status " + statusText(status) + "; nothing kept");
    scu.finish();
}

}  // namespace

std::vector<RetrievedSeries> retrieve(const PacsNode& node, const RetrieveRequest& request) {
    if (!isUid(request.studyUid)) throw std::invalid_argument("'" + request.studyUid + "' is not a study UID");
    if (!request.seriesUid.empty() && !isUid(request.seriesUid))
        throw std::invalid_argument("'" + request.seriesUid + "' is not a series UID");
    const fs::path destination = request.destination.empty() ? fs::path(defaultRetrieveCache()) / request.studyUid
                                                             : fs::path(request.destination);
    const std::map<std::string, int> expected = expectedSeries(node, request);
    TemporaryFolder temporary{makeTemporaryFolder(destination, node)};
    GetScu scu(node, temporary.path);
    runGet(scu, request);
    for (const auto& [series, count] : expected) {
        const std::size_t got = scu.received.count(series) ? scu.received.at(series) : 0;
        if (count >= 0 && got < static_cast<std::size_t>(count))
            scu.fail("C-GET of study " + request.studyUid + " lost " + std::to_string(count - got) + " of " +
                     std::to_string(count) + " instance(s) of series " + series + "; nothing kept");
    }
    std::vector<RetrievedSeries> result;
    for (const auto& [series, files] : scu.received) {
        const fs::path target = destination / series;
        std::error_code ec;
        fs::remove_all(target, ec);
        fs::rename(temporary.path / series, target, ec);
        if (ec) scu.fail("cannot move the retrieved series into " + target.string() + ": " + ec.message());
        result.push_back({series, target.string(), files});
    }
    return result;
}

}  // namespace lucent::net
