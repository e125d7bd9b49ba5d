/// @brief PacsQueryForm: keys trimmed, the date range checked by the rule the CLI uses, an upper-case modality.
#include "lucent/ui/PacsQueryForm.h"

#include "lucent/pacs/StudyDateRange.h"

namespace lucent::ui {

net::FindQuery PacsQueryForm::studyQuery(QString* error) const {
    net::FindQuery q;
    q.level = net::QueryLevel::Study;
    q.patientName = patientName.trimmed().toStdString();
    q.patientId = patientId.trimmed().toStdString();
    q.modality = modality.trimmed().toUpper().toStdString();
    q.accessionNumber = accessionNumber.trimmed().toStdString();
    const QString date = studyDate.trimmed();
    if (!date.isEmpty() && !pacs::isStudyDateRange(date.toStdString())) {
        if (error) *error = "Study date needs YYYYMMDD or a range YYYYMMDD-YYYYMMDD, got '" + date + "'";
        return q;
    }
    q.studyDate = date.toStdString();
    if (error) error->clear();
    return q;
}

net::FindQuery PacsQueryForm::seriesQuery(const QString& studyUid) {
    net::FindQuery q;
    q.level = net::QueryLevel::Series;
    q.studyUid = studyUid.toStdString();
    return q;
}

}  // namespace lucent::ui
