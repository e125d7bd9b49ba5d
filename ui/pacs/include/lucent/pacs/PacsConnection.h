/// @brief One PACS service to talk to, a DIMSE node or a DICOMweb endpoint, and each call sent to the client that speaks
/// it (the CLI's --pacs and the viewer's nodes alike).
#pragma once

#include "lucent/pacs/DicomWebClient.h"

#include "lucent/net/PacsClient.h"

#include <string>
#include <vector>

namespace lucent::pacs {

/// Every failure throws net::PacsError whose message starts with label().
class PacsConnection {
public:
    explicit PacsConnection(net::PacsNode node) : m_node(std::move(node)) {}
    explicit PacsConnection(DicomWebEndpoint endpoint) : m_web(true), m_endpoint(std::move(endpoint)) {}

    /// The node as written ("AET@HOST:PORT") or the base URL.
    std::string label() const { return m_web ? m_endpoint.url : m_node.label(); }
    bool web() const { return m_web; }
    const net::PacsNode& node() const { return m_node; }

    /// DIMSE C-ECHO, or a QIDO-RS query that must be answered.
    void echo();
    std::vector<net::FindRecord> find(const net::FindQuery& query);
    /// C-GET / C-MOVE or WADO-RS: complete series only (see net::retrieve, DicomWebClient::retrieve).
    std::vector<net::RetrievedSeries> retrieve(const net::RetrieveRequest& request);
    /// C-STORE or STOW-RS of DICOM Part 10 files.
    void store(const std::vector<std::string>& files);

private:
    bool m_web = false;
    net::PacsNode m_node;
    DicomWebEndpoint m_endpoint;
};

}  // namespace lucent::pacs
