/// @brief DICOM JSON to FindRecord: tags by their hex keys, multi-valued text joined with '\' as C-FIND answers it.
#include "DicomJsonRecords.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <stdexcept>

namespace lucent::pacs {

namespace {

/// A value as C-FIND gives it: text, numbers in decimal, person names by their alphabetic form,
/// several values joined by a backslash.
std::string text(const QJsonObject& record, const char* tag) {
    QStringList values;
    for (const QJsonValue& v : record.value(tag).toObject().value("Value").toArray()) {
        if (v.isString())
            values << v.toString();
        else if (v.isDouble())
            values << QString::number(v.toDouble(), 'g', 17);
        else if (v.isObject())
            values << v.toObject().value("Alphabetic").toString();
    }
    return values.join('\\').toStdString();
}

int integer(const QJsonObject& record, const char* tag) {
    const QJsonArray values = record.value(tag).toObject().value("Value").toArray();
    if (values.isEmpty()) return -1;
    if (values[0].isDouble()) return values[0].toInt(-1);
    bool ok = false;
    const int v = values[0].toString().trimmed().toInt(&ok);
    return ok ? v : -1;
}

}  // namespace

QList<QByteArray> qidoIncludeFields(net::QueryLevel level) {
    QList<QByteArray> fields = {
        "PatientName",      "PatientID",       "StudyInstanceUID",  "StudyDate",
        "StudyDescription", "AccessionNumber", "ModalitiesInStudy", "NumberOfStudyRelatedInstances"};
    if (level == net::QueryLevel::Series)
        fields << "SeriesInstanceUID"
               << "Modality"
               << "SeriesNumber"
               << "SeriesDescription"
               << "NumberOfSeriesRelatedInstances";
    return fields;
}

std::vector<net::FindRecord> findRecordsFromJson(const QByteArray& body, net::QueryLevel level) {
    // A QIDO-RS answer with no match may be "204 No Content": an empty body.
    if (body.trimmed().isEmpty()) return {};
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (doc.isNull()) throw std::runtime_error("the QIDO-RS answer is not JSON: " + error.errorString().toStdString());
    if (!doc.isArray()) throw std::runtime_error("the QIDO-RS answer is not a JSON array");
    const bool series = level == net::QueryLevel::Series;
    std::vector<net::FindRecord> records;
    for (const QJsonValue& item : doc.array()) {
        if (!item.isObject()) throw std::runtime_error("the QIDO-RS answer holds a value that is not an object");
        const QJsonObject r = item.toObject();
        net::FindRecord f;
        f.patientName = text(r, "00100010");
        f.patientId = text(r, "00100020");
        f.studyUid = text(r, "0020000D");
        f.studyDate = text(r, "00080020");
        f.studyDescription = text(r, "00081030");
        f.accessionNumber = text(r, "00080050");
        f.modalities = text(r, series ? "00080060" : "00080061");
        if (series) {
            f.seriesUid = text(r, "0020000E");
            f.seriesNumber = text(r, "00200011");
            f.seriesDescription = text(r, "0008103E");
        }
        f.instances = integer(r, series ? "00201209" : "00201208");
        records.push_back(std::move(f));
    }
    return records;
}

}  // namespace lucent::pacs
