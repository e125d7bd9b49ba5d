/// @brief The File menu's opening, saving, Recent and Quit (SessionActions.h).
#include "lucent/ui/SessionActions.h"

#include "ActionBinding.h"

#include "lucent/io/FileSuffixes.h"
#include "lucent/ui/SessionFile.h"

#include <QFileDialog>
#include <QMenu>
#include <QSettings>
#include <QWidget>

namespace lucent::ui {

SessionActions::SessionActions(SessionHost host, QObject* parent) : QObject(parent), m_host(std::move(host)) {
    m_openFile = makeAction(this, "Open &file...", {QKeySequence(QKeySequence::Open)});
    connect(m_openFile, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_host.window, "Open DICOM or volume file", {},
                                                          QString("Images (%1);;Lucent sessions (*%2);;All files (*)")
                                                              .arg(QString::fromStdString(io::globPattern(io::kDataSuffixes)))
                                                              .arg(SessionFile::kSuffix));
        if (!path.isEmpty()) m_host.openPath(path);
    });
    m_openFolder = makeAction(this, "Open f&older...", {QKeySequence("Ctrl+Shift+O")});
    connect(m_openFolder, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getExistingDirectory(m_host.window, "Open DICOM folder");
        if (!path.isEmpty()) m_host.openPath(path);
    });
    // A session: the data, window, layout, labels, seeds, parameters and measurements in one file.
    m_openSession = makeAction(this, "Open &session...", {}, "openSession");
    connect(m_openSession, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_host.window, "Open session", {}, "Lucent sessions (*.lucent);;All files (*)");
        if (!path.isEmpty()) m_host.openSession(path);
    });
    m_save = makeAction(this, "&Save session", {QKeySequence(QKeySequence::Save)}, "saveSession");
    connect(m_save, &QAction::triggered, this, [this] { m_host.saveSession(false); });
    m_saveAs = makeAction(this, "Save session &as...", {}, "saveSessionAs");
    connect(m_saveAs, &QAction::triggered, this, [this] { m_host.saveSession(true); });
    m_quit = makeAction(this, "&Quit", {QKeySequence(QKeySequence::Quit)});
    connect(m_quit, &QAction::triggered, m_host.window, &QWidget::close);
}

void SessionActions::addOpenTo(QMenu* file) { file->addActions({m_openFile, m_openFolder, m_openSession}); }

void SessionActions::addSaveTo(QMenu* file) { file->addActions({m_save, m_saveAs}); }

void SessionActions::addRecentTo(QMenu* file) {
    m_recentMenu = file->addMenu("&Recent");
    rebuildRecentMenu();
}

void SessionActions::addQuitTo(QMenu* file) { file->addAction(m_quit); }

QStringList SessionActions::recentFiles() const { return QSettings().value("recent").toStringList(); }

void SessionActions::addRecent(const QString& path) {
    QStringList recent = recentFiles();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kRecent) recent.removeLast();
    QSettings().setValue("recent", recent);
    rebuildRecentMenu();
}

void SessionActions::rebuildRecentMenu() {
    if (!m_recentMenu) return;
    m_recentMenu->clear();
    for (const QString& path : recentFiles()) m_recentMenu->addAction(path, this, [this, path] { m_host.openPath(path); });
    m_recentMenu->setEnabled(!m_recentMenu->isEmpty());
}

}  // namespace lucent::ui
