/// @brief The File menu's PACS items: DICOM browser, Open from PACS, PACS nodes, Send labels to PACS; each opens its
/// dialog and hands what it fetched to the window.
#pragma once

#include <QMainWindow>
#include <QString>

#include <functional>

#include "lucent/core/SeriesInfo.h"
#include "lucent/ui/PacsNodeList.h"

#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <memory>

class QDialog;
class QMenu;

namespace lucent::pacs {
class StudyDatabase;
}

namespace lucent::ui {

class LabelFiles;
class ViewerModel;

/// What the PACS actions need of the window: a parent for their dialogs and messages (and its status
/// bar), the model, the label files a sent DICOM SEG is written by, and a way to open a retrieved series.
struct PacsHost {
    QMainWindow* window = nullptr;
    ViewerModel* model = nullptr;
    LabelFiles* labelFiles = nullptr;
    std::function<bool(const QString& folder, const QString& seriesUid)> openSeries;
};

class PacsActions : public QObject {
    Q_OBJECT
public:
    /// Reads the nodes from QSettings.
    explicit PacsActions(PacsHost host);
    ~PacsActions() override;

    /// File > DICOM browser, Open from PACS, PACS nodes (greyed with the reason in a build without
    /// Qt Network and SQL).
    void addOpenActions(QMenu* file);
    /// File > Send labels to PACS, greyed with its reason as Export labels as DICOM SEG is.
    void addSendAction(QMenu* file);

    PacsNodeList& nodes() { return m_nodes; }
    /// A DICOM series opened from files joins the study database, as `lucent db import` would add
    /// it, on a worker thread; then indexed() (or a status message saying why not). Volume files
    /// and builds without the database are left out.
    void indexOpened(const SeriesInfo& info);
    /// Opens (or raises) each dialog; nullptr when it cannot open (a message says why).
    QDialog* showBrowser();
    QDialog* showOpenFromPacs();
    QDialog* showNodes();
    QDialog* showSend();

signals:
    /// indexOpened() wrote `series` series (the browser, if open, shows them).
    void indexed(int series);

private:
    /// The study database at LUCENT_DB or the user's data folder, opened once; nullptr with a message.
    pacs::StudyDatabase* database();
    /// The password of a DICOMweb user: an input dialog over the window.
    PasswordAsker asker();

    PacsHost m_host;
    PacsNodeList m_nodes;
    std::unique_ptr<pacs::StudyDatabase> m_db;
    QPointer<QDialog> m_browser, m_open, m_nodesDialog, m_send;
    /// indexOpened()'s writes, one at a time, in the order opened; the destructor waits for them,
    /// so no task outlives the object it reports to.
    QThreadPool m_indexing;
};

}  // namespace lucent::ui
