/// @brief File > Open from PACS's query keys (patient name and id, study date range, modality, accession) as a C-FIND /
/// QIDO-RS query at study or series level.
#pragma once

#include "lucent/net/PacsClient.h"

#include <QString>

namespace lucent::ui {

/// What the query form holds, as typed. Empty keys match everything.
struct PacsQueryForm {
    QString patientName;  ///< DICOM wildcards `*` and `?`
    QString patientId;
    QString studyDate;  ///< YYYYMMDD or a range YYYYMMDD-YYYYMMDD, either end open
    QString modality;
    QString accessionNumber;

    /// The study-level query; `error` says what is wrong (and the result is not to be used) when a
    /// key is malformed.
    net::FindQuery studyQuery(QString* error) const;
    /// The series of one study (the study's keys are not repeated: the UID names it).
    static net::FindQuery seriesQuery(const QString& studyUid);
};

}  // namespace lucent::ui
