/// @brief DICOMweb for builds without Qt Network: every call says so, naming the URL.
#include "lucent/pacs/DicomWebClient.h"

namespace lucent::pacs {

struct DicomWebClient::Impl {
    DicomWebEndpoint endpoint;
    [[noreturn]] void unavailable() const {
        throw net::PacsError(endpoint.url +
                             ": this build of Lucent has no DICOMweb (built without Qt 6 Network); "
                             "give a DIMSE node AET@HOST:PORT");
    }
};

DicomWebClient::DicomWebClient(DicomWebEndpoint endpoint) : m_impl(std::make_unique<Impl>(Impl{std::move(endpoint)})) {}
DicomWebClient::~DicomWebClient() = default;
bool DicomWebClient::available() { return false; }
void DicomWebClient::echo() { m_impl->unavailable(); }
std::vector<net::FindRecord> DicomWebClient::find(const net::FindQuery&) { m_impl->unavailable(); }
std::vector<net::RetrievedSeries> DicomWebClient::retrieve(const net::RetrieveRequest&) { m_impl->unavailable(); }
void DicomWebClient::store(const std::vector<std::string>&) { m_impl->unavailable(); }

}  // namespace lucent::pacs
