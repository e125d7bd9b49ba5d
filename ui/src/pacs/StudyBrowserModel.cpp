/// @brief StudyBrowserModel: one SELECT over series, studies and patients; QSqlQueryModel fetches it in pages.
#include "lucent/ui/StudyBrowserModel.h"

#include "lucent/pacs/StudyDatabase.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>

namespace lucent::ui {

namespace {

/// SQL of each visible column, then the hidden ones (series UID, study UID, folder).
const char* const kColumns[] = {"p.name", "p.patient_id", "st.date", "st.description",
                                "se.modality", "se.description", "se.images"};
const char* const kHeaders[] = {"Patient name", "Patient ID", "Study date", "Study description",
                                "Modality", "Series description", "Images"};
constexpr int kSeriesUid = StudyBrowserModel::ColumnCount, kStudyUid = kSeriesUid + 1, kFolder = kStudyUid + 1;

}  // namespace

StudyBrowserModel::StudyBrowserModel(const pacs::StudyDatabase& db, QObject* parent) : QSqlQueryModel(parent), m_db(db) {
    refresh();
}

void StudyBrowserModel::setSearch(const QString& text) {
    m_search = text.trimmed();
    refresh();
}

void StudyBrowserModel::sort(int column, Qt::SortOrder order) {
    if (column < 0 || column >= ColumnCount) return;
    m_sortColumn = column;
    m_order = order;
    refresh();
}

void StudyBrowserModel::refresh() {
    QString sql = "SELECT ";
    for (const char* c : kColumns) sql += QString(c) + ", ";
    sql += "se.uid, st.uid, se.folder FROM series se JOIN studies st ON se.study = st.uid "
           "JOIN patients p ON st.patient = p.id";
    if (!m_search.isEmpty())
        sql += " WHERE p.name LIKE ? ESCAPE '\\' OR p.patient_id LIKE ? ESCAPE '\\' OR st.description LIKE ? ESCAPE "
               "'\\' OR se.description LIKE ? ESCAPE '\\' OR se.modality LIKE ? ESCAPE '\\'";
    sql += QString(" ORDER BY %1 %2, st.uid, se.number, se.uid")
               .arg(kColumns[m_sortColumn], m_order == Qt::AscendingOrder ? "ASC" : "DESC");
    // The open query holds its read snapshot: let it go first, or what others wrote since stays unseen.
    clear();
    QSqlQuery query(QSqlDatabase::database(QString::fromStdString(m_db.connectionName()), false));
    query.setForwardOnly(false);
    query.prepare(sql);
    if (!m_search.isEmpty()) {
        QString pattern = m_search;
        pattern.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
        for (int i = 0; i < 5; ++i) query.addBindValue("%" + pattern + "%");
    }
    query.exec();
    // setQuery fetches the first page only; the view asks for more (fetchMore) as it scrolls.
    setQuery(std::move(query));
    for (int c = 0; c < ColumnCount; ++c) setHeaderData(c, Qt::Horizontal, kHeaders[c]);
}

int StudyBrowserModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString StudyBrowserModel::seriesUid(int row) const { return record(row).value(kSeriesUid).toString(); }

QString StudyBrowserModel::studyUid(int row) const { return record(row).value(kStudyUid).toString(); }

QString StudyBrowserModel::folder(int row) const { return record(row).value(kFolder).toString(); }

}  // namespace lucent::ui
