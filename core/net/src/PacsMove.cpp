/// @brief C-MOVE to ourselves: a storage SCP on our port, in a thread, for as long as the move lasts.
#include "Retrieval.h"

#include <dcmtk/dcmnet/scp.h>

#include <atomic>
#include <thread>

namespace lucent::net {

namespace {

/// The move destination: accepts C-STOREs (and C-ECHO) for our AE title and hands them to the sink.
class MoveDestination : public DcmSCP {
public:
    MoveDestination(const PacsNode& node, std::uint16_t port, InstanceSink& sink) : m_sink(sink) {
        setPort(port);
        setAETitle(node.callingAet.c_str());
        setRespondWithCalledAETitle(OFFalse);
        // Non-blocking, so that the accept loop wakes every second to see whether the move is over.
        setConnectionBlockingMode(DUL_NOBLOCK);
        setConnectionTimeout(1);
        setDIMSEBlockingMode(DIMSE_NONBLOCKING);
        setDIMSETimeout(static_cast<Uint32>(node.timeoutSeconds));
        setACSETimeout(static_cast<Uint32>(node.timeoutSeconds));
        OFList<OFString> syntaxes;
        for (const std::string& ts : offeredTransferSyntaxes()) syntaxes.push_back(ts.c_str());
        addPresentationContext(UID_VerificationSOPClass, syntaxes);
        for (int i = 0; i < numberOfDcmLongSCUStorageSOPClassUIDs; ++i)
            addPresentationContext(dcmLongSCUStorageSOPClassUIDs[i], syntaxes);
    }

    std::atomic<bool> stop{false};

protected:
    OFCondition handleIncomingCommand(T_DIMSE_Message* message, const DcmPresentationContextInfo& info) override {
        if (message->CommandField != DIMSE_C_STORE_RQ) return DcmSCP::handleIncomingCommand(message, info);
        T_DIMSE_C_StoreRQ& request = message->msg.CStoreRQ;
        DcmDataset* dataset = nullptr;
        const OFCondition cond = receiveSTORERequest(request, info.presentationContextID, dataset);
        if (cond.bad()) {
            delete dataset;
            return cond;
        }
        const Uint16 status = m_sink.save(dataset, info.acceptedTransferSyntax.c_str());
        return sendSTOREResponse(info.presentationContextID, request, status);
    }
    OFBool stopAfterConnectionTimeout() override { return stop.load(); }
    OFBool stopAfterCurrentAssociation() override { return stop.load(); }

private:
    InstanceSink& m_sink;
};

/// Stops and joins the destination's thread however the move ends.
struct Listening {
    MoveDestination& destination;
    std::thread thread;
    ~Listening() {
        destination.stop = true;
        if (thread.joinable()) thread.join();
    }
};

}  // namespace

void runMove(const PacsNode& node, const RetrieveRequest& request, InstanceSink& sink) {
    MoveDestination destination(node, request.movePort, sink);
    const OFCondition opened = destination.openListenPort();
    if (opened.bad())
        throw PacsError(node.label() + ": cannot listen on port " + std::to_string(request.movePort) +
                        " for the C-MOVE: " + opened.text());
    Listening listening{destination, std::thread([&destination] { destination.acceptAssociations(); })};
    ScuSession scu(node);
    scu.offer(UID_MOVEStudyRootQueryRetrieveInformationModel,
              {UID_LittleEndianExplicitTransferSyntax, UID_LittleEndianImplicitTransferSyntax});
    scu.connect("C-MOVE (study root)");
    const T_ASC_PresentationContextID id = scu.contextFor(UID_MOVEStudyRootQueryRetrieveInformationModel, "C-MOVE");
    DcmDataset keys;
    retrieveKeys(request, keys);
    OFList<RetrieveResponse*> responses;
    const OFCondition cond = scu.sendMOVERequest(id, node.callingAet.c_str(), &keys, &responses);
    scu.finish();
    // The node's storage association may outlive the final response by a moment: the destination
    // ends after it (or after its DIMSE timeout), and only then is the sink complete.
    destination.stop = true;
    if (listening.thread.joinable()) listening.thread.join();
    checkRetrieve(scu,
                  "C-MOVE of study " + request.studyUid + " to " + node.callingAet + " on port " +
                      std::to_string(request.movePort),
                  cond, responses, sink);
}

}  // namespace lucent::net
