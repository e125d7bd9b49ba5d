/// @brief Parsing "AET@HOST:PORT" (and recognising DICOMweb URLs); no DCMTK, built in every configuration.
#include "lucent/net/PacsNode.h"

#include <cstdlib>
#include <filesystem>

namespace lucent::net {

namespace {

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::uint16_t parsePort(const std::string& text, const std::string& whole) {
    if (text.empty() || text.size() > 5 || text.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument("'" + whole + "': the port must be a number from 1 to 65535");
    const long port = std::strtol(text.c_str(), nullptr, 10);
    if (port < 1 || port > 65535)
        throw std::invalid_argument("'" + whole + "': the port must be a number from 1 to 65535");
    return static_cast<std::uint16_t>(port);
}

}  // namespace

std::string PacsNode::label() const {
    const bool v6 = host.find(':') != std::string::npos;
    return calledAet + "@" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

void checkAeTitle(const std::string& aet, const std::string& what) {
    bool allSpaces = true;
    for (const char c : aet) {
        // Control characters and the backslash (the DICOM value separator) are not allowed in an AE.
        if (static_cast<unsigned char>(c) < 0x20 || c == '\\' || c == 0x7f)
            throw std::invalid_argument(what + ": an AE title must not hold control characters or '\\'");
        allSpaces = allSpaces && c == ' ';
    }
    if (aet.empty() || aet.size() > 16 || allSpaces)
        throw std::invalid_argument(what + ": an AE title has 1 to 16 characters, not only spaces");
}

PacsAddress parsePacsAddress(const std::string& text) {
    PacsAddress address;
    if (startsWith(text, "http://") || startsWith(text, "https://")) {
        address.kind = PacsAddress::Kind::DicomWeb;
        address.url = text;
        return address;
    }
    // The AE title may itself hold '@' or ':': the host is after the last '@', the port after the last ':'.
    const std::size_t at = text.rfind('@');
    const std::size_t colon = text.rfind(':');
    if (at == std::string::npos || colon == std::string::npos || colon < at)
        throw std::invalid_argument("'" + text + "': a node is written AET@HOST:PORT (or a DICOMweb http(s):// URL)");
    PacsNode& node = address.node;
    node.calledAet = text.substr(0, at);
    checkAeTitle(node.calledAet, "'" + text + "'");
    node.host = text.substr(at + 1, colon - at - 1);
    if (node.host.size() > 2 && node.host.front() == '[' && node.host.back() == ']')
        node.host = node.host.substr(1, node.host.size() - 2);
    if (node.host.empty() || node.host.find_first_of(" \t[]@/") != std::string::npos)
        throw std::invalid_argument("'" + text + "': the host is missing or malformed");
    node.port = parsePort(text.substr(colon + 1), text);
    return address;
}

std::string defaultStudyDatabase() {
    namespace fs = std::filesystem;
    const char* overridden = std::getenv(kStudyDatabaseVariable);
    if (overridden && *overridden) return fs::absolute(overridden).string();
    const char* xdg = std::getenv("XDG_DATA_HOME");
    // The XDG rule: a relative XDG_DATA_HOME is invalid and ignored.
    if (xdg && *xdg && fs::path(xdg).is_absolute()) return (fs::path(xdg) / "lucent" / "studies.sqlite").string();
    const char* home = std::getenv("HOME");
    if (!home || !*home)
        throw std::invalid_argument(std::string("neither XDG_DATA_HOME nor HOME is set: give -o DIR or set ") +
                                    kStudyDatabaseVariable);
    return (fs::path(home) / ".local" / "share" / "lucent" / "studies.sqlite").string();
}

std::string defaultRetrieveCache() {
    return (std::filesystem::path(defaultStudyDatabase()).parent_path() / "dicom").string();
}

}  // namespace lucent::net
