/// @brief The viewer window: menus, view grid, status bar, loading with progress, masks, settings.
#pragma once

#include "lucent/core/SeriesInfo.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include <vector>

class QLabel;
class QMenu;
class QProgressDialog;
class QSlider;

namespace lucent::ui {

class CinePlayer;
class LabelFiles;
class LabelPanel;
class MeasurementPanel;
class SegmentPanel;
class VolumeLoader;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    ViewerModel& model() { return m_model; }
    ViewGrid& grid() { return *m_grid; }
    SegmentPanel& segment() { return *m_segment; }
    LabelPanel& labelPanel() { return *m_labels; }
    /// File > Import / Export labels.
    LabelFiles& labelFiles() { return *m_labelFiles; }
    MeasurementPanel& measurementPanel() { return *m_measure; }
    /// Plays through the active view's slices (View > Cine, P; rate in the toolbar).
    CinePlayer& cine() { return *m_cine; }
    /// Writes the active view (the axial one when none is active) as drawn, annotations included,
    /// at full device-pixel resolution as PNG, atomically; false with `error`.
    bool saveViewPng(const QString& path, QString* error = nullptr);
    /// Opens paths in the background; this window shows its progress, chooser and errors.
    VolumeLoader& loader() { return *m_loader; }

    /// Opens a DICOM folder/file or a volume file. Interactive: in the background with a progress
    /// dialog, a series chooser when there are several, errors in a dialog. Synchronous (CLI
    /// screenshots, tests): no dialogs; with several series and no id, the largest is taken.
    /// Either way an open still running is stopped and dropped: the latest path wins.
    /// Returns false with `error` (file and problem) on failure; the current volume is kept then.
    bool openPath(const QString& path, const QString& seriesId = {}, bool synchronous = false, QString* error = nullptr);
    /// Loads a label file (NIfTI, NRRD, MetaImage, DICOM SEG) over the volume with its names and
    /// colours; false with `error` on a read error or another grid (LabelFiles::importFile).
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
    /// Connects the loader to this window's dialogs: progress, series chooser, errors, cancel.
    void wireLoader();
    /// A window-modal progress dialog whose Cancel cancels the loader (replaces one still open).
    void showProgress(const QString& text, int value = 0);
    void closeProgress();
    void showTags();
    void showAbout();
    void buildCineMenu(QMenu* view);
    /// Edit > Copy view (Ctrl+C), Copy window (Ctrl+Shift+C).
    void addCopyActions();
    /// The scan's own windows at the top of the Window/Level menu ("BRAIN  W 80 L 40").
    void rebuildScanWindows();
    void checkCurrentWindow();

    ViewerModel m_model;
    ViewGrid* m_grid = nullptr;
    QLabel* m_status = nullptr;
    QSlider* m_opacity = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_helpMenu = nullptr;
    QMenu* m_windowMenu = nullptr;
    QAction* m_scanWindowsEnd = nullptr;  // separator between the scan's windows and the presets
    std::vector<QAction*> m_scanWindows;
    CinePlayer* m_cine = nullptr;
    std::vector<std::shared_ptr<const Volume>> m_pendingFrames;  // a 4D file's volumes, until it is shown
    SegmentPanel* m_segment = nullptr;
    LabelPanel* m_labels = nullptr;
    MeasurementPanel* m_measure = nullptr;
    QString m_currentPath;
    VolumeLoader* m_loader = nullptr;
    LabelFiles* m_labelFiles = nullptr;
    QPointer<QProgressDialog> m_progress;
};

}  // namespace lucent::ui
