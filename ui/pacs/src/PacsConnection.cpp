/// @brief PacsConnection: DIMSE through lucent_net, DICOMweb through DicomWebClient.
#include "lucent/pacs/PacsConnection.h"

namespace lucent::pacs {

void PacsConnection::echo() {
    if (m_web)
        DicomWebClient(m_endpoint).echo();
    else
        net::echo(m_node);
}

std::vector<net::FindRecord> PacsConnection::find(const net::FindQuery& query) {
    return m_web ? DicomWebClient(m_endpoint).find(query) : net::find(m_node, query);
}

std::vector<net::RetrievedSeries> PacsConnection::retrieve(const net::RetrieveRequest& request) {
    return m_web ? DicomWebClient(m_endpoint).retrieve(request) : net::retrieve(m_node, request);
}

void PacsConnection::store(const std::vector<std::string>& files) {
    if (m_web)
        DicomWebClient(m_endpoint).store(files);
    else
        net::store(m_node, files);
}

}  // namespace lucent::pacs
