/// @brief ScuSession: association set-up, timeouts and error wording shared by every DIMSE service.
#include "ScuSession.h"

#include <dcmtk/dcmnet/diutil.h>
#include <dcmtk/oflog/oflog.h>

#include <cstdio>
#include <mutex>

namespace lucent::net {

namespace {

std::string oneLine(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
    return text;
}

/// Why the condition happened, in words a user can act on.
std::string describe(const OFCondition& cond, int timeoutSeconds) {
    if (cond == DUL_READTIMEOUT || cond == DIMSE_NODATAAVAILABLE)
        return "no answer within " + std::to_string(timeoutSeconds) + " s (timeout)";
    if (cond == DUL_PEERABORTEDASSOCIATION) return "the node aborted the association";
    if (cond == DUL_NETWORKCLOSED || cond == DUL_PEERREQUESTEDRELEASE) return "the node closed the connection";
    // text() without dump()'s "0006:031c" module and code: "TCP Initialization Error: Connection refused".
    return oneLine(cond.text());
}

}  // namespace

const std::vector<std::string>& offeredTransferSyntaxes() {
    static const std::vector<std::string> syntaxes = {UID_LittleEndianExplicitTransferSyntax,
                                                      UID_LittleEndianImplicitTransferSyntax,
                                                      UID_DeflatedExplicitVRLittleEndianTransferSyntax,
                                                      UID_BigEndianExplicitTransferSyntax,
                                                      UID_JPEGProcess14SV1TransferSyntax,
                                                      UID_JPEGProcess14TransferSyntax,
                                                      UID_JPEGProcess1TransferSyntax,
                                                      UID_JPEGProcess2_4TransferSyntax,
                                                      UID_JPEGLSLosslessTransferSyntax,
                                                      UID_JPEGLSLossyTransferSyntax,
                                                      UID_RLELosslessTransferSyntax};
    return syntaxes;
}

void quietDcmtkLog() {
    // dcmnet and dcmdata log every fault and oddity on stderr; our one-line message says it instead.
    static std::once_flag quiet;
    std::call_once(quiet, [] { OFLog::configure(OFLogger::FATAL_LOG_LEVEL); });
}

std::string statusText(unsigned status) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%04X", status & 0xFFFFu);
    return text;
}

ScuSession::ScuSession(const PacsNode& node) : m_node(node) {
    quietDcmtkLog();
    setAETitle(node.callingAet.c_str());
    setPeerAETitle(node.calledAet.c_str());
    setPeerHostName(node.host.c_str());
    setPeerPort(node.port);
    const int seconds = node.timeoutSeconds > 0 ? node.timeoutSeconds : 10;
    setConnectionTimeout(seconds);
    setACSETimeout(static_cast<Uint32>(seconds));
    setDIMSETimeout(static_cast<Uint32>(seconds));
    // Only non-blocking DIMSE reads honour the DIMSE timeout.
    setDIMSEBlockingMode(DIMSE_NONBLOCKING);
}

ScuSession::~ScuSession() = default;

void ScuSession::offer(const std::string& abstractSyntax, const std::vector<std::string>& transferSyntaxes,
                       T_ASC_SC_ROLE role) {
    OFList<OFString> list;
    for (const std::string& ts : transferSyntaxes) list.push_back(ts.c_str());
    addPresentationContext(abstractSyntax.c_str(), list, role);
}

void ScuSession::secure() {
    m_tls = std::make_unique<DcmTLSTransportLayer>(NET_REQUESTOR, nullptr, OFTrue);
    OFCondition cond = m_tls->setTLSProfile(TSP_Profile_BCP195_ND);
    if (cond.good()) cond = m_tls->activateCipherSuites();
    if (cond.bad()) fail("setting up TLS", cond);
    // The node must prove who it is: by an authority of --ca-file, else by one the system trusts.
    if (!m_node.caFile.empty()) {
        if (m_tls->addTrustedCertificateFile(m_node.caFile.c_str(), DCF_Filetype_PEM).bad())
            fail(m_node.caFile + ": no PEM certificate to trust in it (--ca-file)");
    } else if (m_tls->addTrustedCertificateDir("/etc/ssl/certs", DCF_Filetype_PEM).bad()) {
        fail("cannot read the system's certificate authorities in /etc/ssl/certs (give --ca-file)");
    }
    m_tls->setCertificateVerification(DCV_requireCertificate);
    cond = useSecureConnection(m_tls.get());
    if (cond.bad()) fail("setting up TLS", cond);
}

void ScuSession::connect(const std::string& service) {
    OFCondition cond = initNetwork();
    if (cond.bad()) fail("setting up the network for " + service, cond);
    if (m_node.tls) secure();
    cond = negotiateAssociation();
    if (cond == DUL_ASSOCIATIONREJECTED)
        fail("association rejected (check the called AE title '" + m_node.calledAet +
             "' and that the node accepts our AE title '" + m_node.callingAet + "')");
    if (cond == NET_EC_NoAcceptablePresentationContexts) fail("the node does not offer " + service);
    if (cond.bad()) fail("cannot open an association for " + service, cond);
}

void ScuSession::finish() {
    if (isConnected()) releaseAssociation();
}

T_ASC_PresentationContextID ScuSession::contextFor(const std::string& abstractSyntax, const std::string& service) {
    const T_ASC_PresentationContextID id = findPresentationContextID(abstractSyntax.c_str(), "");
    if (id == 0) fail("the node does not offer " + service);
    return id;
}

void ScuSession::fail(const std::string& what, const OFCondition& cond) const {
    fail(what + ": " + describe(cond, m_node.timeoutSeconds));
}

void ScuSession::fail(const std::string& what) const { throw PacsError(m_node.label() + ": " + what); }

}  // namespace lucent::net
