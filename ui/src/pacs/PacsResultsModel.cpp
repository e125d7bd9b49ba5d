/// @brief PacsResultsModel: one row per record; the columns follow the level.
#include "lucent/ui/PacsResultsModel.h"

#include <QStringList>

namespace lucent::ui {

namespace {

const QStringList kStudyColumns = {"Patient name", "Patient ID", "Study date", "Description", "Modalities", "Instances"};
const QStringList kSeriesColumns = {"Number", "Modality", "Description", "Instances"};

QString q(const std::string& s) { return QString::fromStdString(s); }

/// A DICOM person name as people read it: "Doe^John" -> "Doe, John".
QString personName(const std::string& name) {
    QStringList parts = q(name).split('^');
    while (!parts.isEmpty() && parts.last().isEmpty()) parts.removeLast();
    return parts.size() < 2 ? q(name) : parts[0] + ", " + parts.mid(1).join(' ').trimmed();
}

}  // namespace

PacsResultsModel::PacsResultsModel(net::QueryLevel level, QObject* parent) : QAbstractTableModel(parent), m_level(level) {}

void PacsResultsModel::setRecords(std::vector<net::FindRecord> records) {
    beginResetModel();
    m_records = std::move(records);
    endResetModel();
}

int PacsResultsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_records.size()); }

int PacsResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int((m_level == net::QueryLevel::Study ? kStudyColumns : kSeriesColumns).size());
}

QVariant PacsResultsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    const net::FindRecord& r = m_records[std::size_t(index.row())];
    const QVariant instances = r.instances < 0 ? QVariant() : QVariant(r.instances);
    if (m_level == net::QueryLevel::Series) {
        switch (index.column()) {
            case 0: return q(r.seriesNumber);
            case 1: return q(r.modalities);
            case 2: return role == Qt::ToolTipRole ? q(r.seriesUid) : q(r.seriesDescription);
            default: return instances;
        }
    }
    switch (index.column()) {
        case 0: return personName(r.patientName);
        case 1: return q(r.patientId);
        case 2: return q(r.studyDate);
        case 3: return role == Qt::ToolTipRole ? q(r.studyUid) : q(r.studyDescription);
        case 4: return q(r.modalities).replace('\\', ", ");
        default: return instances;
    }
}

QVariant PacsResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    const QStringList& names = m_level == net::QueryLevel::Study ? kStudyColumns : kSeriesColumns;
    return section >= 0 && section < names.size() ? names[section] : QVariant();
}

}  // namespace lucent::ui
