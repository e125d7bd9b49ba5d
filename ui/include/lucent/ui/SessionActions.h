/// @brief The File menu's opening and saving: Open file, folder or session, Save session (as), the Recent
/// menu (the last ten paths opened or saved, kept in the settings) and Quit. What they open and save goes
/// through the window (SessionHost), which keeps the unsaved-work question and the loading.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace lucent::ui {

/// What the File menu's session items need of the window.
struct SessionHost {
    QWidget* window = nullptr;  ///< parents the file dialogs; Quit closes it
    /// Opens data or a session (MainWindow::openPath).
    std::function<bool(const QString& path)> openPath;
    /// Opens a session file (MainWindow::openSession).
    std::function<bool(const QString& path)> openSession;
    /// Save session (`ask`: Save session as...); true when it was written.
    std::function<bool(bool ask)> saveSession;
};

class SessionActions : public QObject {
    Q_OBJECT
public:
    explicit SessionActions(SessionHost host, QObject* parent = nullptr);

    /// Open file..., Open folder..., Open session...
    void addOpenTo(QMenu* file);
    /// Save session, Save session as...
    void addSaveTo(QMenu* file);
    /// The Recent submenu (greyed while empty).
    void addRecentTo(QMenu* file);
    /// Quit.
    void addQuitTo(QMenu* file);

    /// The paths last opened or saved, the newest first (at most kRecent).
    QStringList recentFiles() const;
    /// Puts `path` first in the recent list (once) and in the Recent menu.
    void addRecent(const QString& path);
    static constexpr int kRecent = 10;

    QMenu* recentMenu() const { return m_recentMenu; }
    QAction* save() const { return m_save; }
    QAction* saveAs() const { return m_saveAs; }
    QAction* quit() const { return m_quit; }

private:
    void rebuildRecentMenu();

    SessionHost m_host;
    QAction *m_openFile, *m_openFolder, *m_openSession, *m_save, *m_saveAs, *m_quit;
    QMenu* m_recentMenu = nullptr;
};

}  // namespace lucent::ui
