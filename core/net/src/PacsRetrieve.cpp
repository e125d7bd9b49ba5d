/// @brief Retrieves (C-GET or C-MOVE) into a temporary folder, renamed into place only when complete.
#include "lucent/net/PacsClient.h"

#include "Retrieval.h"

#include "lucent/net/RetrieveStaging.h"

#include <filesystem>
#include <memory>

namespace lucent::net {

namespace {

/// Receives the C-STOREs of a C-GET on its own association.
class GetScu : public ScuSession {
public:
    GetScu(const PacsNode& node, InstanceSink& sink) : ScuSession(node), m_sink(sink) {}

protected:
    OFCondition handleSTORERequest(const T_ASC_PresentationContextID presID, DcmDataset* incoming,
                                   OFBool& continueSession, Uint16& status) override {
        continueSession = OFTrue;
        OFString abstractSyntax, transferSyntax;
        findPresentationContext(presID, abstractSyntax, transferSyntax);
        status = m_sink.save(incoming, transferSyntax.c_str());
        return EC_Normal;
    }

private:
    InstanceSink& m_sink;
};

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

}  // namespace

void retrieveKeys(const RetrieveRequest& request, DcmDataset& keys) {
    keys.putAndInsertString(DCM_QueryRetrieveLevel, request.seriesUid.empty() ? "STUDY" : "SERIES");
    keys.putAndInsertString(DCM_StudyInstanceUID, request.studyUid.c_str());
    if (!request.seriesUid.empty()) keys.putAndInsertString(DCM_SeriesInstanceUID, request.seriesUid.c_str());
}

void checkRetrieve(const ScuSession& scu, const std::string& what, const OFCondition& cond,
                   OFList<RetrieveResponse*>& responses, const InstanceSink& sink) {
    unsigned status = STATUS_Success, failed = 0;
    for (RetrieveResponse* r : responses) {
        std::unique_ptr<RetrieveResponse> owned(r);
        status = r->m_status;
        failed = r->m_numberOfFailedSubops;
    }
    responses.clear();
    if (cond.bad()) scu.fail(what + " failed", cond);
    if (!sink.problem().empty()) scu.fail(what + ": " + sink.problem() + "; nothing kept");
    if (failed > 0)
        scu.fail(what + ": the node failed to send " + std::to_string(failed) + " instance(s) (status " +
                 statusText(status) + "); nothing kept");
    if (status != STATUS_Success) scu.fail(what + " ended with status " + statusText(status) + "; nothing kept");
}

void runGet(const PacsNode& node, const RetrieveRequest& request, InstanceSink& sink) {
    GetScu scu(node, sink);
    scu.offer(UID_GETStudyRootQueryRetrieveInformationModel,
              {UID_LittleEndianExplicitTransferSyntax, UID_LittleEndianImplicitTransferSyntax});
    // We are the storage SCP of the C-STOREs a C-GET brings back (128 contexts at most in all).
    for (int i = 0; i < numberOfDcmLongSCUStorageSOPClassUIDs && i < 120; ++i)
        scu.offer(dcmLongSCUStorageSOPClassUIDs[i], offeredTransferSyntaxes(), ASC_SC_ROLE_SCP);
    scu.connect("C-GET (study root)");
    const T_ASC_PresentationContextID id = scu.contextFor(UID_GETStudyRootQueryRetrieveInformationModel, "C-GET");
    DcmDataset keys;
    retrieveKeys(request, keys);
    OFList<RetrieveResponse*> responses;
    const OFCondition cond = scu.sendCGETRequest(id, &keys, &responses);
    checkRetrieve(scu, "C-GET of study " + request.studyUid, cond, responses, sink);
    scu.finish();
}

std::vector<RetrievedSeries> retrieve(const PacsNode& node, const RetrieveRequest& request) {
    checkRetrieveUids(request);
    const std::map<std::string, int> expected = expectedSeries(node, request);
    RetrieveStaging staging(retrieveDestination(request), node.label());
    InstanceSink sink(staging.folder());
    if (request.movePort > 0)
        runMove(node, request, sink);
    else
        runGet(node, request, sink);
    const std::map<std::string, std::size_t> received = sink.received();
    const std::string what = std::string(request.movePort > 0 ? "C-MOVE" : "C-GET") + " of study " + request.studyUid;
    requireAllReceived(node.label(), what, expected, received);
    return staging.commit(received);
}

}  // namespace lucent::net
