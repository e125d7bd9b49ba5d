/// @brief PacsActions: the menu items, the study database opened on first use, the dialogs wired to the window.
#include "lucent/ui/PacsActions.h"

#include "CrossThread.h"

#include "lucent/net/PacsNode.h"
#include "lucent/pacs/StudyDatabase.h"
#include "lucent/ui/LabelFileActions.h"
#include "lucent/ui/LabelFiles.h"
#include "lucent/ui/ViewerModel.h"

#include <QStatusBar>
#include "lucent/ui/OpenFromPacsDialog.h"
#include "lucent/ui/PacsNodesDialog.h"
#include "lucent/ui/SendLabelsDialog.h"
#include "lucent/ui/StudyBrowserDialog.h"

#include "lucent/io/LabelFile.h"

#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QSettings>
#include <QStatusBar>
#include <QThreadPool>

namespace lucent::ui {

namespace {

/// Shows a dialog made once and kept while open (a second click raises it).
QDialog* raise(QPointer<QDialog>& kept, const std::function<QDialog*()>& make) {
    if (!kept) {
        kept = make();
        if (!kept) return nullptr;
        kept->setAttribute(Qt::WA_DeleteOnClose);
    }
    kept->show();
    kept->raise();
    kept->activateWindow();
    return kept;
}

}  // namespace

PacsActions::PacsActions(PacsHost host) : QObject(host.window), m_host(std::move(host)) {
    m_indexing.setMaxThreadCount(1);
    QSettings settings;
    m_nodes.load(settings);
}

PacsActions::~PacsActions() { m_indexing.waitForDone(); }

void PacsActions::addOpenActions(QMenu* file) {
    file->addAction("DICOM &browser...", QKeySequence("Ctrl+B"), this, &PacsActions::showBrowser)
        ->setObjectName("dicomBrowser");
    file->addAction("Open from &PACS...", this, &PacsActions::showOpenFromPacs)->setObjectName("openFromPacs");
    file->addAction("PACS &nodes...", this, &PacsActions::showNodes)->setObjectName("pacsNodes");
}

void PacsActions::addSendAction(QMenu* file) {
    auto* send = file->addAction("Send labels to PACS...", this, &PacsActions::showSend);
    send->setObjectName("sendLabelsToPacs");
    followDicomSource(send, *m_host.model, "Send labels to PACS...", "Send labels to PACS",
                      "The labels as a DICOM SEG of the open series, to a PACS node");
}

pacs::StudyDatabase* PacsActions::database() {
    if (m_db) return m_db.get();
    try {
        m_db = std::make_unique<pacs::StudyDatabase>(net::defaultStudyDatabase(), net::defaultRetrieveCache());
        if (!m_db->recoveryMessage().empty())
            QMessageBox::warning(m_host.window, "Study database", QString::fromStdString(m_db->recoveryMessage()));
    } catch (const std::exception& e) {
        QMessageBox::warning(m_host.window, "Cannot open the study database", QString::fromUtf8(e.what()));
    }
    return m_db.get();
}

void PacsActions::indexOpened(const SeriesInfo& info) {
    if (info.transferSyntaxUid.empty() || info.files.empty()) return;  // not DICOM
    std::string dbPath, cache;
    try {
        dbPath = net::defaultStudyDatabase();
        cache = net::defaultRetrieveCache();
    } catch (const std::exception&) {
        return;  // no place for a database: opening the series is all the user asked for
    }
    // Its own connection on a pool thread (SQLite connections stay on their thread); the outcome comes
    // back through the event loop (dropped if the window went meanwhile). CrossThread.h's hand-overs
    // make Qt's ordering visible to ThreadSanitizer.
    startOnPool(m_indexing, [this, dbPath, cache, info] {
        QString error;
        try {
            pacs::StudyDatabase db(dbPath, cache);
            db.addOpened(info);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        callQueued(this, [this, error] {
            if (!error.isEmpty()) {
                m_host.window->statusBar()->showMessage("Not added to the study database: " + error, 10000);
                return;
            }
            if (m_browser) static_cast<StudyBrowserDialog*>(m_browser.data())->model().refresh();
            emit indexed(1);
        });
    });
}

PasswordAsker PacsActions::asker() {
    return [this](const QString& prompt) -> std::optional<QString> {
        bool ok = false;
        const QString password = QInputDialog::getText(m_host.window, "PACS password", prompt, QLineEdit::Password, {}, &ok);
        return ok ? std::optional<QString>(password) : std::nullopt;
    };
}

QDialog* PacsActions::showBrowser() {
    return raise(m_browser, [this]() -> QDialog* {
        pacs::StudyDatabase* db = database();
        if (!db) return nullptr;
        auto* dialog = new StudyBrowserDialog(*db, m_host.window);
        connect(dialog, &StudyBrowserDialog::openSeries, m_host.window,
                [this](const QString& folder, const QString& uid) { m_host.openSeries(folder, uid); });
        return dialog;
    });
}

QDialog* PacsActions::showOpenFromPacs() {
    return raise(m_open, [this]() -> QDialog* {
        std::string dbPath, cache;
        try {
            dbPath = net::defaultStudyDatabase();
            cache = net::defaultRetrieveCache();
        } catch (const std::exception& e) {
            QMessageBox::warning(m_host.window, "Open from PACS", QString::fromUtf8(e.what()));
            return nullptr;
        }
        auto* dialog = new OpenFromPacsDialog(m_nodes, asker(), dbPath, cache, m_host.window);
        connect(dialog, &OpenFromPacsDialog::retrieved, m_host.window, [this, dialog](const QString& folder, const QString& uid) {
            if (m_browser) static_cast<StudyBrowserDialog*>(m_browser.data())->model().refresh();
            // The series opens from the window's own event loop with the dialog out of the way: the
            // unsaved-work question, asked from inside the retrieve's signal over the dialog, was a
            // black, unpainted box (issue 43 item 1). Opened, the dialog has done its work and closes;
            // kept work (the question cancelled) brings it back, its series retrieved.
            QMetaObject::invokeMethod(
                m_host.window,
                [this, dialog = QPointer<QDialog>(dialog), folder, uid] {
                    if (dialog) dialog->hide();
                    const bool opened = m_host.openSeries(folder, uid);
                    if (!dialog) return;
                    if (opened) dialog->close();
                    else dialog->show();
                },
                Qt::QueuedConnection);
        });
        return dialog;
    });
}

QDialog* PacsActions::showNodes() {
    return raise(m_nodesDialog, [this] { return new PacsNodesDialog(m_nodes, asker(), m_host.window); });
}

QDialog* PacsActions::showSend() {
    const QString why = LabelFiles::dicomSegUnavailable((*m_host.model));
    if (!why.isEmpty()) {
        QMessageBox::information(m_host.window, "Send labels to PACS", "A DICOM SEG " + why + ".");
        return nullptr;
    }
    if (!(*m_host.model).labels() || io::presentLabels(*(*m_host.model).labels()).empty()) {
        QMessageBox::information(m_host.window, "Send labels to PACS", "The label layer is empty.");
        return nullptr;
    }
    return raise(m_send, [this] {
        auto write = [this](const QString& path, QString* error) {
            return (*m_host.labelFiles).exportFile(path, {}, false, false, error);
        };
        return new SendLabelsDialog(m_nodes, asker(), write, m_host.window);
    });
}

}  // namespace lucent::ui
