/// @brief Private: where the instances of one retrieve land (C-GET or C-MOVE): TEMP/SERIESUID/SOPUID.dcm.
#pragma once

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dctk.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <string>

namespace lucent::net {

class InstanceSink {
public:
    explicit InstanceSink(std::filesystem::path folder) : m_folder(std::move(folder)) {}

    /// Writes a received instance (taking ownership of `dataset`) in the transfer syntax it came
    /// in; returns the C-STORE status to answer with. Safe to call from the C-MOVE SCP's thread.
    Uint16 save(DcmDataset* dataset, const std::string& transferSyntax);
    /// Instances kept per series.
    std::map<std::string, std::size_t> received() const;
    /// The first instance that could not be kept, or empty.
    std::string problem() const;

private:
    std::filesystem::path m_folder;
    mutable std::mutex m_mutex;
    std::map<std::string, std::size_t> m_received;
    std::string m_problem;
};

}  // namespace lucent::net
