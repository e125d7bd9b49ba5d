/// @brief What --pacs names (a DIMSE node or a DICOMweb URL) with its options, and each service sent to the client that
/// speaks it.
#pragma once

#include "CommandLine.h"
#include "lucent/pacs/PacsConnection.h"

#include "lucent/net/PacsClient.h"

#include <set>
#include <string>
#include <vector>

namespace lucent::app {

class PacsTarget {
public:
    /// Options every pacs sub-command takes: the node or URL, our AE title, the timeout, credentials.
    static const std::set<std::string>& options();
    /// Flags every pacs sub-command takes: --tls (DIMSE over TLS).
    static const std::set<std::string>& flags();

    /// Reads --pacs and the options that go with it; UsageError for a malformed node or URL, an
    /// option that does not fit its kind (--aet for a URL, --user for a node) or missing credentials.
    explicit PacsTarget(const CommandLine& cl);

    /// The node as written ("AET@HOST:PORT") or the URL without user information.
    std::string label() const { return m_connection.label(); }
    bool web() const { return m_connection.web(); }

    /// DIMSE C-ECHO, or a QIDO-RS query that must be answered.
    void echo();
    std::vector<net::FindRecord> find(const net::FindQuery& query);
    std::vector<net::RetrievedSeries> retrieve(const net::RetrieveRequest& request);
    void store(const std::vector<std::string>& files);

private:
    /// The connection once parsed (a DIMSE node or a DICOMweb endpoint).
    pacs::PacsConnection m_connection{net::PacsNode{}};
};

}  // namespace lucent::app
