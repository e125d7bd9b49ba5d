/// @brief InstanceSink: one file per received instance, one folder per series, counted.
#include "InstanceSink.h"

#include "lucent/net/RetrieveStaging.h"

#include <dcmtk/dcmnet/dimse.h>

#include <memory>

namespace lucent::net {

namespace fs = std::filesystem;

Uint16 InstanceSink::save(DcmDataset* dataset, const std::string& transferSyntax) {
    std::unique_ptr<DcmFileFormat> file(new DcmFileFormat(dataset, OFFalse));  // owns `dataset`
    OFString series, instance;
    file->getDataset()->findAndGetOFString(DCM_SeriesInstanceUID, series);
    file->getDataset()->findAndGetOFString(DCM_SOPInstanceUID, instance);
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!isUid(series.c_str()) || !isUid(instance.c_str())) {
        if (m_problem.empty()) m_problem = "an instance with a malformed series or instance UID";
        return STATUS_STORE_Error_CannotUnderstand;
    }
    const fs::path dir = m_folder / series.c_str();
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path path = dir / (std::string(instance.c_str()) + ".dcm");
    const OFCondition saved = file->saveFile(path.c_str(), DcmXfer(transferSyntax.c_str()).getXfer());
    if (ec || saved.bad()) {
        if (m_problem.empty()) m_problem = "cannot write " + path.string() + ": " + (ec ? ec.message() : saved.text());
        return STATUS_STORE_Refused_OutOfResources;
    }
    ++m_received[series.c_str()];
    return STATUS_Success;
}

std::map<std::string, std::size_t> InstanceSink::received() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_received;
}

std::string InstanceSink::problem() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_problem;
}

}  // namespace lucent::net
