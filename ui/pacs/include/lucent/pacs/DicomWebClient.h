/// @brief DICOMweb user agent: QIDO-RS find, WADO-RS retrieve, STOW-RS store against a base URL (the DIMSE forms'
/// types).
#pragma once

#include "lucent/net/PacsClient.h"

#include <memory>
#include <string>
#include <vector>

namespace lucent::pacs {

/// A DICOMweb service: its base URL ("http(s)://host:port/dicom-web"), credentials and timeout.
struct DicomWebEndpoint {
    std::string url;
    std::string user, password;  ///< HTTP basic when `user` is set
    std::string token;           ///< bearer token (wins over user and password)
    std::string caFile;          ///< PEM certificates trusted for HTTPS besides the system's
    int timeoutSeconds = 10;     ///< without a byte in either direction for this long, a request fails
};

/// Every failure throws net::PacsError "URL: what failed". Builds without Qt Network have a
/// client whose every call says so.
class DicomWebClient {
public:
    explicit DicomWebClient(DicomWebEndpoint endpoint);
    ~DicomWebClient();

    /// True when this build speaks DICOMweb (Qt Network).
    static bool available();

    /// A QIDO-RS study query with limit=1: the service answers (any number of studies).
    void echo();
    /// QIDO-RS at the query's level, the same keys and records as a DIMSE C-FIND.
    std::vector<net::FindRecord> find(const net::FindQuery& query);
    /// WADO-RS of each series of the study (or the one series), into the same layout as a DIMSE
    /// retrieve: a hidden temporary folder, each series renamed into place only when every
    /// instance QIDO-RS counted arrived; nothing is kept otherwise.
    std::vector<net::RetrievedSeries> retrieve(const net::RetrieveRequest& request);
    /// STOW-RS of DICOM Part 10 files in one request; every file is checked before it is sent.
    void store(const std::vector<std::string>& files);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace lucent::pacs
