/// @brief QIDO-RS answers (the DICOM JSON model, PS3.18 F.2) read into the C-FIND records of lucent_net.
#pragma once

#include "lucent/net/PacsClient.h"

#include <QByteArray>

#include <vector>

namespace lucent::pacs {

/// The records of a QIDO-RS answer at `level`; std::runtime_error saying what is wrong when the
/// body is not a JSON array of objects.
std::vector<net::FindRecord> findRecordsFromJson(const QByteArray& body, net::QueryLevel level);

/// The attributes a QIDO-RS query asks for (includefield) at `level`, by keyword.
QList<QByteArray> qidoIncludeFields(net::QueryLevel level);

}  // namespace lucent::pacs
