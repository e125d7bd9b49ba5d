/// @brief PacsTarget: parsing --pacs, --aet, --timeout, --user, --token-file into a pacs::PacsConnection.
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
    const int timeout = cl.integer("--timeout", net::PacsNode{}.timeoutSeconds);
    if (timeout < 1 || timeout > 3600) throw UsageError("--timeout needs whole seconds from 1 to 3600");
    if (address.kind != net::PacsAddress::Kind::DicomWeb) {
        if (cl.has("--user") || cl.has("--token-file"))
            throw UsageError("--user and --token-file are for DICOMweb URLs, not DIMSE nodes");
        if (cl.has("--ca-file") && !cl.has("--tls")) throw UsageError("--ca-file needs --tls with a DIMSE node");
        net::PacsNode node = address.node;
        node.tls = cl.has("--tls");
        node.caFile = cl.value("--ca-file");
        node.callingAet = cl.value("--aet", node.callingAet);
        node.timeoutSeconds = timeout;
        m_connection = pacs::PacsConnection(node);
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
    pacs::DicomWebEndpoint endpoint;
    endpoint.url = address.url;
    endpoint.timeoutSeconds = timeout;
    endpoint.caFile = cl.value("--ca-file");
    if (cl.has("--user")) {
        endpoint.user = cl.value("--user");
        if (endpoint.user.empty() || endpoint.user.find(':') != std::string::npos)
            throw UsageError("--user needs a name without ':'");
        endpoint.password = secretFromEnvironmentOrTerminal(
            kPasswordVariable, "Password for " + endpoint.user + " at " + address.url + ": ");
    } else if (cl.has("--token-file")) {
        endpoint.token = secretFromFile(cl.value("--token-file"), "--token-file");
    } else if (const char* token = std::getenv(kTokenVariable); token && *token) {
        endpoint.token = token;
    }
    m_connection = pacs::PacsConnection(endpoint);
}

void PacsTarget::echo() { m_connection.echo(); }

std::vector<net::FindRecord> PacsTarget::find(const net::FindQuery& query) { return m_connection.find(query); }

std::vector<net::RetrievedSeries> PacsTarget::retrieve(const net::RetrieveRequest& request) {
    if (web() && request.movePort > 0) throw UsageError("--move-port is for DIMSE nodes, not DICOMweb URLs");
    // Lucent's own storage SCP for a C-MOVE listens without TLS: over TLS, C-GET only.
    if (m_connection.node().tls && request.movePort > 0)
        throw UsageError("--move-port does not work with --tls (use C-GET)");
    return m_connection.retrieve(request);
}

void PacsTarget::store(const std::vector<std::string>& files) { m_connection.store(files); }

}  // namespace lucent::app
