/// @brief `lucent version`: the version and what this build can do (DICOM, surfaces, PACS, devices).
#include "Commands.h"

#include "lucent/core/Version.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/io/DicomReader.h"
#include "lucent/io/LabelSurface.h"
#include "lucent/pacs/DicomWebClient.h"
#include "lucent/pacs/StudyDatabase.h"

#include <iostream>

namespace lucent::app {

int runVersion() {
    std::cout << "lucent " << kVersion << "\nDICOM: " << (io::DicomReader::available() ? "DCMTK" : "not built (no DCMTK)") << "\n"
              << "Surfaces: " << (io::surfacesAvailable() ? "VTK" : "not built (no VTK)") << "\n"
              << "DICOMweb and study database: "
              << (pacs::DicomWebClient::available() && pacs::StudyDatabase::available() ? "Qt Network and Qt SQL"
                                                                            : "not built (no Qt 6 Network and SQL)")
              << "\n"
              << gpu::describeBackends() << "\n";
    return 0;
}

}  // namespace lucent::app
