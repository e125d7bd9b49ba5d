/// @brief A DICOM node (AE title, host, port, our AE title) and the parser of its "AET@HOST:PORT" form.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lucent::net {

/// A DIMSE peer and how we talk to it.
struct PacsNode {
    std::string calledAet;  ///< the node's AE title
    std::string host;       ///< name or address (an IPv6 address without brackets)
    std::uint16_t port = 104;
    std::string callingAet = "LUCENT";  ///< our AE title
    int timeoutSeconds = 10;            ///< connection, ACSE and DIMSE timeouts
    /// DICOM over TLS (dcmtls, BCP 195 profile): the node's certificate must be signed by an
    /// authority of `caFile` (PEM) or, when it is empty, of the system (/etc/ssl/certs).
    bool tls = false;
    std::string caFile;

    /// "AET@HOST:PORT", as the user wrote it: every message about the node names it so.
    std::string label() const;
};

/// A network or protocol failure; what() starts with the node's label and says what failed.
class PacsError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What a --pacs argument names: a DIMSE node, or a DICOMweb base URL (http:// or https://).
struct PacsAddress {
    enum class Kind { Dimse, DicomWeb };
    Kind kind = Kind::Dimse;
    PacsNode node;    ///< Kind::Dimse
    std::string url;  ///< Kind::DicomWeb
};

/// Parses "AET@HOST:PORT" ("AET@[::1]:PORT" for IPv6) or a DICOMweb URL. Throws
/// std::invalid_argument saying what is wrong: an AE title must have 1 to 16 characters, none of
/// them a backslash or a control character, and not only spaces; a port is 1 to 65535.
PacsAddress parsePacsAddress(const std::string& text);

/// Checks an AE title by the rule above (for our own, --aet); std::invalid_argument when bad.
void checkAeTitle(const std::string& aet, const std::string& what);

/// The environment variable naming the local study database file (tests, several databases).
inline constexpr const char* kStudyDatabaseVariable = "LUCENT_DB";

/// The local study database: $LUCENT_DB, else $XDG_DATA_HOME/lucent/studies.sqlite, else
/// ~/.local/share/lucent/studies.sqlite (std::invalid_argument when neither variable is set).
std::string defaultStudyDatabase();

/// The retrieve cache, beside the database: the folder "dicom" in the database's folder
/// ($XDG_DATA_HOME/lucent/dicom by default), one folder per study, one per series in it.
std::string defaultRetrieveCache();

}  // namespace lucent::net
