/// @brief Where a retrieve lands: a hidden temporary folder under the destination, each series renamed into place only
/// when complete.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace lucent::net {

struct RetrieveRequest;
struct RetrievedSeries;

/// A UID names a folder or file: only digits and dots, as the standard allows, 1 to 64 characters,
/// so that a hostile answer ("../..") cannot write elsewhere.
bool isUid(const std::string& uid);

/// Throws std::invalid_argument unless the request's study (and series, when given) are UIDs.
void checkRetrieveUids(const RetrieveRequest& request);

/// The folder a retrieve fills: request.destination, or the study's folder in the retrieve cache
/// (defaultRetrieveCache() / STUDYUID) when it is empty.
std::filesystem::path retrieveDestination(const RetrieveRequest& request);

/// Throws PacsError "LABEL: WHAT lost N of M instance(s) of series UID; nothing kept" when a series
/// of `expected` (instance counts the node gave; -1: unknown, not checked) received fewer.
void requireAllReceived(const std::string& label, const std::string& what, const std::map<std::string, int>& expected,
                        const std::map<std::string, std::size_t>& received);

/// The hidden temporary folder of one retrieve (DIMSE or DICOMweb), TEMP/SERIESUID/SOPUID.dcm;
/// removed with whatever is left in it when the staging ends, so a failed or cancelled retrieve
/// leaves nothing behind.
class RetrieveStaging {
public:
    /// Creates `destination` when absent and a ".lucent-get-XXXXXX" folder in it; PacsError
    /// starting with `label` (the node) when it cannot.
    RetrieveStaging(std::filesystem::path destination, std::string label);
    ~RetrieveStaging();
    RetrieveStaging(const RetrieveStaging&) = delete;
    RetrieveStaging& operator=(const RetrieveStaging&) = delete;

    /// The temporary folder.
    const std::filesystem::path& folder() const { return m_folder; }
    /// TEMP/SERIESUID (not created here); `seriesUid` must be a UID.
    std::filesystem::path seriesFolder(const std::string& seriesUid) const;
    /// Renames each received series folder into DESTINATION/SERIESUID, replacing one that is there;
    /// PacsError naming the folder when a rename fails.
    std::vector<RetrievedSeries> commit(const std::map<std::string, std::size_t>& received);

private:
    std::filesystem::path m_destination, m_folder;
    std::string m_label;
};

}  // namespace lucent::net
