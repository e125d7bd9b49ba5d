/// @brief File > Open from PACS: a node, the query keys, studies then the series of the chosen study, and Retrieve with
/// progress and Cancel; network work off the GUI thread (runInBackground, RetrieveJob).
#pragma once

#include "lucent/ui/PacsNodeList.h"
#include "lucent/ui/PacsResultsModel.h"

#include <QDialog>
#include <QPointer>

#include <string>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace lucent::ui {

class RetrieveJob;

class OpenFromPacsDialog : public QDialog {
    Q_OBJECT
public:
    /// Retrieves into `cacheFolder` and indexes in the database at `databasePath`.
    OpenFromPacsDialog(const PacsNodeList& nodes, PasswordAsker ask, std::string databasePath, std::string cacheFolder,
                       QWidget* parent = nullptr);
    ~OpenFromPacsDialog() override;

    /// The last message shown (errors name the node): what the tests read.
    QString status() const;
    PacsResultsModel& studies() { return m_studies; }
    PacsResultsModel& series() { return m_series; }
    /// From Retrieve until the job's outcome (done, failed, cancelled) is shown.
    bool retrieving() const;

signals:
    /// A series arrived whole and is indexed: open it (the first of those retrieved).
    void retrieved(const QString& folder, const QString& seriesUid);

private:
    void buildQuery();
    void search();
    void searchSeries(int studyRow);
    void retrieve();
    void stopRetrieve();
    void setBusy(bool busy);
    void setStatus(const QString& text, bool error);
    /// The chosen node's connection (asking a password when needed); nothing with a message shown.
    std::optional<pacs::PacsConnection> connection();
    QString nodeName() const;

    const PacsNodeList& m_nodes;
    PasswordAsker m_ask;
    std::string m_databasePath, m_cacheFolder;
    PacsResultsModel m_studies{net::QueryLevel::Study}, m_series{net::QueryLevel::Series};
    QComboBox* m_node = nullptr;
    QLineEdit *m_patientName = nullptr, *m_patientId = nullptr, *m_studyDate = nullptr, *m_modality = nullptr;
    QTableView *m_studyView = nullptr, *m_seriesView = nullptr;
    QPushButton *m_search = nullptr, *m_retrieve = nullptr, *m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QPointer<RetrieveJob> m_job;
    bool m_busy = false;
    int m_queries = 0;  // the query whose answer is shown: later answers win
};

}  // namespace lucent::ui
