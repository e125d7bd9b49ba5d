/// @brief PacsTarget: parsing --pacs, --aet, --timeout, --user, --token-file; DIMSE through lucent_net, DICOMweb
/// through DicomWebClient.
#include "PacsTarget.h"

#include "SecretInput.h"

#include <cstdlib>

namespace lucent::app {

const std::set<std::string>& PacsTarget::options() {
    static const std::set<std::string> kOptions = {"--pacs", "--aet",        "--timeout",
                                                   "--user", "--token-file", "--ca-file"};
    return kOptions;
}

const std::set<std::string>& PacsTarget::flags() {
    static const std::set<std::string> kFlags = {"--tls"};
    return kFlags;
}

PacsTarget::PacsTarget(const CommandLine& cl) {
    if (!cl.has("--pacs")) throw UsageError("pacs needs --pacs AET@HOST:PORT or a DICOMweb URL");
    net::PacsAddress address;
    try {
        address = net::parsePacsAddress(cl.value("--pacs"));
        if (cl.has("--aet")) net::checkAeTitle(cl.value("--aet"), "--aet");
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--pacs: ") + e.what());
    }
    const int timeout = cl.integer("--timeout", m_node.timeoutSeconds);
    if (timeout < 1 || timeout > 3600) throw UsageError("--timeout needs whole seconds from 1 to 3600");
    m_web = address.kind == net::PacsAddress::Kind::DicomWeb;
    if (!m_web) {
        if (cl.has("--user") || cl.has("--token-file"))
            throw UsageError("--user and --token-file are for DICOMweb URLs, not DIMSE nodes");
        if (cl.has("--ca-file") && !cl.has("--tls")) throw UsageError("--ca-file needs --tls with a DIMSE node");
        m_node = address.node;
        m_node.tls = cl.has("--tls");
        m_node.caFile = cl.value("--ca-file");
        m_node.callingAet = cl.value("--aet", m_node.callingAet);
        m_node.timeoutSeconds = timeout;
        return;
    }
    if (cl.has("--aet")) throw UsageError("--aet is for DIMSE nodes, not DICOMweb URLs");
    if (cl.has("--tls")) throw UsageError("--tls is for DIMSE nodes; a DICOMweb URL says https://");
    if (cl.has("--user") && cl.has("--token-file")) throw UsageError("give --user or --token-file, not both");
    // Credentials in the URL would land in shell histories and in every message naming the URL.
    const std::size_t authority = address.url.find("://") + 3;
    if (address.url.substr(authority, address.url.find('/', authority) - authority).find('@') != std::string::npos)
        throw UsageError("--pacs " + address.url.substr(0, authority) +
                         "...: no credentials in the URL; give --user NAME (password in " + kPasswordVariable +
                         ") or --token-file FILE");
    m_endpoint.url = address.url;
    m_endpoint.timeoutSeconds = timeout;
    m_endpoint.caFile = cl.value("--ca-file");
    if (cl.has("--user")) {
        m_endpoint.user = cl.value("--user");
        if (m_endpoint.user.empty() || m_endpoint.user.find(':') != std::string::npos)
            throw UsageError("--user needs a name without ':'");
        m_endpoint.password = secretFromEnvironmentOrTerminal(
            kPasswordVariable, "Password for " + m_endpoint.user + " at " + address.url + ": ");
    } else if (cl.has("--token-file")) {
        m_endpoint.token = secretFromFile(cl.value("--token-file"), "--token-file");
    } else if (const char* token = std::getenv(kTokenVariable); token && *token) {
        m_endpoint.token = token;
    }
}

std::string PacsTarget::label() const { return m_web ? m_endpoint.url : m_node.label(); }

void PacsTarget::echo() {
    if (m_web)
        DicomWebClient(m_endpoint).echo();
    else
        net::echo(m_node);
}

std::vector<net::FindRecord> PacsTarget::find(const net::FindQuery& query) {
    return m_web ? DicomWebClient(m_endpoint).find(query) : net::find(m_node, query);
}

std::vector<net::RetrievedSeries> PacsTarget::retrieve(const net::RetrieveRequest& request) {
    if (m_web && request.movePort > 0) throw UsageError("--move-port is for DIMSE nodes, not DICOMweb URLs");
    // Lucent's own storage SCP for a C-MOVE listens without TLS: over TLS, C-GET only.
    if (m_node.tls && request.movePort > 0) throw UsageError("--move-port does not work with --tls (use C-GET)");
    return m_web ? DicomWebClient(m_endpoint).retrieve(request) : net::retrieve(m_node, request);
}

void PacsTarget::store(const std::vector<std::string>& files) {
    if (m_web)
        DicomWebClient(m_endpoint).store(files);
    else
        net::store(m_node, files);
}

}  // namespace lucent::app
