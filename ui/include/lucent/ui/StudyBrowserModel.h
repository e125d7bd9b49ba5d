/// @brief File > DICOM browser's table: the study database's series with their patient and study, searched and sorted
/// in SQL and fetched lazily (QSqlQueryModel's fetchMore), so thousands of studies open at once.
#pragma once

#include <QSqlQueryModel>
#include <QString>

namespace lucent::pacs {
class StudyDatabase;
}

namespace lucent::ui {

class StudyBrowserModel : public QSqlQueryModel {
    Q_OBJECT
public:
    enum Column { PatientName, PatientId, StudyDate, StudyDescription, Modality, SeriesDescription, Images, ColumnCount };

    /// Reads `db` on this thread (its connection); `db` outlives the model.
    explicit StudyBrowserModel(const pacs::StudyDatabase& db, QObject* parent = nullptr);

    /// Keeps the series whose patient name or id, study or series description or modality
    /// contains `text` (any case); empty keeps all. Re-runs the query.
    void setSearch(const QString& text);
    QString search() const { return m_search; }
    /// Orders by a column (SQL ORDER BY; ties by study and series number). Re-runs the query.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    /// Re-runs the query (after a removal or an import).
    void refresh();
    /// The visible columns only (the UIDs and the folder are read through the accessors below).
    int columnCount(const QModelIndex& parent = {}) const override;

    QString seriesUid(int row) const;
    QString studyUid(int row) const;
    /// The folder of the series' first file: what File > Open folder would open.
    QString folder(int row) const;

private:
    const pacs::StudyDatabase& m_db;
    QString m_search;
    int m_sortColumn = PatientName;
    Qt::SortOrder m_order = Qt::AscendingOrder;
};

}  // namespace lucent::ui
