/// @brief File > DICOM browser: the local study database searched, sorted, a series opened, a study removed (asking
/// first).
#pragma once

#include "lucent/ui/StudyBrowserModel.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace lucent::ui {

class StudyBrowserDialog : public QDialog {
    Q_OBJECT
public:
    /// Shows `db` (which outlives the dialog), read on this thread.
    explicit StudyBrowserDialog(pacs::StudyDatabase& db, QWidget* parent = nullptr);

    StudyBrowserModel& model() { return m_model; }
    QTableView& table() { return *m_table; }
    /// Opens the series of the current row (emits openSeries).
    void openCurrent();
    /// Asks, then removes the study of the current row with its cached files.
    void removeCurrent();

signals:
    /// Open the series `seriesUid` whose files are in `folder`.
    void openSeries(const QString& folder, const QString& seriesUid);

private:
    void updateCount();

    pacs::StudyDatabase& m_db;
    StudyBrowserModel m_model;
    QLineEdit* m_search = nullptr;
    QTableView* m_table = nullptr;
    QPushButton *m_open = nullptr, *m_remove = nullptr;
    QLabel* m_count = nullptr;
};

}  // namespace lucent::ui
