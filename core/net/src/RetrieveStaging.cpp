/// @brief RetrieveStaging: the temporary folder of a retrieve and the renames that complete it (no DCMTK).
#include "lucent/net/RetrieveStaging.h"

#include "lucent/net/PacsClient.h"

#include <stdlib.h>

namespace lucent::net {

namespace fs = std::filesystem;

bool isUid(const std::string& uid) {
    return !uid.empty() && uid.size() <= 64 && uid.find_first_not_of("0123456789.") == std::string::npos &&
           uid.front() != '.';
}

void checkRetrieveUids(const RetrieveRequest& request) {
    if (!isUid(request.studyUid)) throw std::invalid_argument("'" + request.studyUid + "' is not a study UID");
    if (!request.seriesUid.empty() && !isUid(request.seriesUid))
        throw std::invalid_argument("'" + request.seriesUid + "' is not a series UID");
}

fs::path retrieveDestination(const RetrieveRequest& request) {
    return request.destination.empty() ? fs::path(defaultRetrieveCache()) / request.studyUid
                                       : fs::path(request.destination);
}

void requireAllReceived(const std::string& label, const std::string& what, const std::map<std::string, int>& expected,
                        const std::map<std::string, std::size_t>& received) {
    for (const auto& [series, count] : expected) {
        const std::size_t got = received.count(series) ? received.at(series) : 0;
        if (count >= 0 && got < static_cast<std::size_t>(count))
            throw PacsError(label + ": " + what + " lost " + std::to_string(count - got) + " of " +
                            std::to_string(count) + " instance(s) of series " + series + "; nothing kept");
    }
}

RetrieveStaging::RetrieveStaging(fs::path destination, std::string label)
    : m_destination(std::move(destination)), m_label(std::move(label)) {
    std::error_code ec;
    fs::create_directories(m_destination, ec);
    std::string pattern = (m_destination / ".lucent-get-XXXXXX").string();
    if (ec || ::mkdtemp(pattern.data()) == nullptr)
        throw PacsError(m_label + ": cannot create a folder under " + m_destination.string() +
                        (ec ? ": " + ec.message() : ""));
    m_folder = pattern;
}

RetrieveStaging::~RetrieveStaging() {
    std::error_code ec;
    fs::remove_all(m_folder, ec);
}

fs::path RetrieveStaging::seriesFolder(const std::string& seriesUid) const {
    if (!isUid(seriesUid)) throw PacsError(m_label + ": '" + seriesUid + "' is not a series UID");
    return m_folder / seriesUid;
}

std::vector<RetrievedSeries> RetrieveStaging::commit(const std::map<std::string, std::size_t>& received) {
    std::vector<RetrievedSeries> result;
    for (const auto& [series, files] : received) {
        const fs::path target = m_destination / series;
        std::error_code ec;
        fs::remove_all(target, ec);
        fs::rename(seriesFolder(series), target, ec);
        if (ec)
            throw PacsError(m_label + ": cannot move the retrieved series into " + target.string() + ": " +
                            ec.message());
        result.push_back({series, target.string(), files});
    }
    return result;
}

}  // namespace lucent::net
