/// @brief MainWindow's sessions: opening one (its data, then its state), saving, the default path.
#include "lucent/ui/MainWindow.h"

#include "lucent/io/FileSuffixes.h"
#include "lucent/ui/SessionActions.h"
#include "lucent/ui/SessionBinding.h"
#include "lucent/ui/SessionFile.h"
#include "lucent/ui/ViewerModel.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>

#include <utility>

namespace lucent::ui {

bool MainWindow::sessionAdmits(const Volume& volume, QString* error) {
    if (!m_pendingSession) return true;
    const QString why = SessionBinding::gridProblem(m_pendingSession->state, volume.geometry(), m_pendingSession->file);
    if (why.isEmpty()) return true;
    m_pendingSession.reset();
    if (error) *error = why;
    return false;
}

bool MainWindow::openSession(const QString& path, bool synchronous, QString* error) {
    const auto fail = [&](const QString& why) {
        if (error) *error = why;
        if (!synchronous) showError("Cannot open the session", why);
        return false;
    };
    if (!synchronous && !confirmUnsavedWork("opening " + QFileInfo(path).fileName())) {
        if (error) *error = "Kept the unsaved work; nothing was opened.";
        return false;
    }
    SavedSession state;
    QString why;
    if (!SessionFile::read(path, state, &why)) return fail(why);
    if (!QFileInfo::exists(state.dataPath))
        return fail(QString("%1: its data %2 is missing (moved or deleted?)").arg(path, state.dataPath));
    const QString data = state.dataPath, series = state.seriesId;
    m_pendingSession = PendingSession{QFileInfo(path).absoluteFilePath(), std::move(state), std::exchange(m_restoring, nullptr)};
    if (openData(data, series, synchronous, &why)) return true;
    // A grid refusal names the session already (and dropped it); a load failure does not.
    const bool loadFailed = m_pendingSession.has_value();
    m_pendingSession.reset();
    return fail(loadFailed ? QString("%1: cannot load its data: %2").arg(path, why) : why);
}

bool MainWindow::saveSession(const QString& path, QString* error) {
    if (!m_model.hasVolume() || m_currentPath.isEmpty()) {
        if (error) *error = m_model.hasVolume() ? "The volume was not opened from a file: a session needs its data's path."
                                                : ViewerModel::noVolumeMessage;
        return false;
    }
    if (!SessionFile::write(path, m_session->capture(m_currentPath), error)) return false;
    m_sessionPath = QFileInfo(path).absoluteFilePath();
    m_sessionActions->addRecent(m_sessionPath);
    m_work.markSaved();
    statusBar()->showMessage("Session saved to " + path, 5000);
    return true;
}

QString MainWindow::defaultSessionPath() const {
    if (!m_sessionPath.isEmpty()) return m_sessionPath;
    const QFileInfo data(QDir::cleanPath(QFileInfo(m_currentPath).absoluteFilePath()));
    QString name = data.fileName();
    if (!data.isDir()) {
        const std::string_view suffix = io::longestSuffix(name.toStdString(), io::kDataSuffixes);
        if (!suffix.empty())
            name.chop(int(suffix.size()));
        else
            name = data.completeBaseName();
    }
    return QDir(data.absolutePath()).filePath((name.isEmpty() ? QString("session") : name) + SessionFile::kSuffix);
}

bool MainWindow::saveSessionInteractive(bool ask) {
    if (!m_model.hasVolume()) {
        showError("Save session", ViewerModel::noVolumeMessage);
        return false;
    }
    QString path = m_sessionPath;
    if (ask || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(this, "Save session", defaultSessionPath(), "Lucent sessions (*.lucent)");
        if (path.isEmpty()) return false;
        if (!SessionFile::isSessionPath(path)) path += SessionFile::kSuffix;
    }
    QString error;
    if (saveSession(path, &error)) return true;
    showError("Cannot save the session", error);
    return false;
}

}  // namespace lucent::ui
