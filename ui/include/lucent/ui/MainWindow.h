/// @brief The viewer window: menus, view grid, status bar, loading with progress, masks, settings.
#pragma once

#include "lucent/core/Progress.h"
#include "lucent/core/SeriesInfo.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <QMainWindow>
#include <QStringList>

#include <atomic>

class QLabel;
class QMenu;
class QProgressDialog;
class QSlider;

namespace lucent::ui {

class SegmentPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    ViewerModel& model() { return m_model; }
    ViewGrid& grid() { return *m_grid; }
    SegmentPanel& segment() { return *m_segment; }

    /// Opens a DICOM folder/file or a volume file. Interactive: in the background with a progress
    /// dialog, a series chooser when there are several, errors in a dialog. Synchronous (CLI
    /// screenshots, tests): no dialogs; with several series and no id, the largest is taken.
    /// Returns false with `error` (file and problem) on failure; the current volume is kept then.
    bool openPath(const QString& path, const QString& seriesId = {}, bool synchronous = false, QString* error = nullptr);
    /// Loads a label map over the volume; false with `error` on a read error or another grid.
    bool openMask(const QString& path, QString* error = nullptr);
    bool applyPreset(const QString& name);
    void setLayoutMode(Layout layout);
    QStringList recentFiles() const;

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void rebuildRecentMenu();
    void addRecent(const QString& path);
    void showError(const QString& title, const QString& message);
    void onVolumeLoaded(std::shared_ptr<Volume> volume, const SeriesInfo& info, const QStringList& warnings,
                        const QString& path);
    void loadInBackground(const QString& path, const SeriesInfo& info, const QString& seriesId);
    /// A progress dialog fed by the returned callback (callable from worker threads).
    ProgressCallback startProgress(const QString& text, int delayMs, QProgressDialog*& dialog);
    /// Closes it; true when the user pressed Cancel.
    bool finishProgress(QProgressDialog* dialog);
    void showTags();
    void showAbout();

    ViewerModel m_model;
    ViewGrid* m_grid = nullptr;
    QLabel* m_status = nullptr;
    QSlider* m_opacity = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_helpMenu = nullptr;
    SegmentPanel* m_segment = nullptr;
    QString m_currentPath;
    std::atomic<bool> m_cancel{false};
};

}  // namespace lucent::ui
