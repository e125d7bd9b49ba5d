/// @brief The viewer window: the view grid, the docks, the menus assembled from the rooms' action groups,
/// the status bar, loading with progress, masks, sessions, settings.
#pragma once

#include "lucent/core/SeriesInfo.h"
#include "lucent/ui/SavedSession.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"
#include "lucent/ui/WorkState.h"

#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QLockFile;
class QMenu;
class QProgressDialog;

namespace lucent::ui {

class Autosave;
class CaptureActions;
class CinePlayer;
class InfoActions;
class LabelFiles;
class LabelPanel;
class MeasurementPanel;
class PacsActions;
class SegmentPanel;
class SessionActions;
class SessionBinding;
struct RecoveryCopy;
class VolumeLoader;
class WindowActions;

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
    /// File > DICOM browser, Open from PACS, PACS nodes, Send labels to PACS.
    PacsActions& pacs() { return *m_pacs; }
    /// Plays through the active view's slices (View > Cine, P; rate in the toolbar).
    CinePlayer& cine() { return *m_cine; }
    /// Writes the active view (the axial one when none is active) as drawn, annotations included,
    /// at full device-pixel resolution as PNG, atomically; false with `error`.
    bool saveViewPng(const QString& path, QString* error = nullptr);
    /// Opens paths in the background; this window shows its progress, chooser and errors.
    VolumeLoader& loader() { return *m_loader; }

    /// Opens a DICOM folder/file, a volume file or a session (.lucent, see openSession). Interactive:
    /// in the background with a progress dialog, a series chooser when there are several, errors in
    /// a dialog. Synchronous (CLI
    /// screenshots, tests): no dialogs; with several series and no id, the largest is taken.
    /// Either way an open still running is stopped and dropped: the latest path wins.
    /// Returns false with `error` (file and problem) on failure; the current volume is kept then.
    bool openPath(const QString& path, const QString& seriesId = {}, bool synchronous = false, QString* error = nullptr);
    /// Loads a label file (NIfTI, NRRD, MetaImage, DICOM SEG) over the volume with its names and
    /// colours; false with `error` on a read error or another grid (LabelFiles::importFile).
    bool openMask(const QString& path, QString* error = nullptr);
    /// Opens a session file (.lucent): reads it first (a damaged or newer file, or data that is
    /// gone, changes nothing), loads its data as openPath() does (progress, cancel), refuses a
    /// volume that is no longer on the session's grid (the shown volume is kept), then restores
    /// frame, window, layout, cursor, zoom, labels, segmentation settings and measurements. False
    /// with `error` naming the session file and the problem; interactive failures show a dialog.
    bool openSession(const QString& path, bool synchronous = false, QString* error = nullptr);
    /// Writes what is shown as a session to `path`, atomically (the old file stays until the new
    /// one is complete); false with `error` naming the file.
    bool saveSession(const QString& path, QString* error = nullptr);
    /// The session file last opened or saved (File > Save session writes there), empty when none.
    QString sessionPath() const { return m_sessionPath; }
    /// Where File > Save session proposes to write: the current session, else beside the data
    /// ("/data/brain" -> "/data/brain.lucent", "/data/head.nii.gz" -> "/data/head.lucent").
    QString defaultSessionPath() const;
    /// The path the shown volume was opened from (empty when it was set directly on the model).
    QString currentPath() const { return m_currentPath; }
    bool applyPreset(const QString& name);
    void setLayoutMode(Layout layout);
    QStringList recentFiles() const;

    /// Whether the work (labels, measurements, seeds, a run not yet accepted) changed since it was
    /// last saved as a session or exported; the title shows `*` while it has.
    WorkState& work() { return m_work; }
    /// The recovery copy of this window's work (Autosave.h).
    Autosave& autosave() { return *m_autosave; }
    /// With unsaved work, asks Save session / Export labels / Discard / Cancel before `action`
    /// ("closing", "opening another volume"); true when the action may go on (no unsaved work, the
    /// work saved or exported, or Discard), false on Cancel or a failed save.
    bool confirmUnsavedWork(const QString& action);
    /// At start: offers each recovery copy left by a process that is gone (what, when, which data;
    /// Restore / Discard / Later), or restores the newest without asking. True when one was restored.
    bool recoverAtStart(bool withoutAsking = false);
    /// Reopens `copy`'s data and puts its labels, measurements and view back, as unsaved work; the
    /// copy is removed once this window's own recovery copy is written.
    bool restoreRecovery(const RecoveryCopy& copy, bool synchronous = false, QString* error = nullptr);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    /// File, View (and the overlay tool bar), Window/Level and Help (MainWindowMenus.cpp).
    void buildMenus();
    void buildFileMenu(InfoActions* info);
    void buildViewMenu();
    /// Edit, Segment, Labels and Tools before Help, once their panels exist.
    void buildPanelMenus();
    /// The session binding over the model, the grid and this window's panels.
    void bindSession();
    /// openPath() for data (not a session): the loader, synchronously or in the background.
    bool openData(const QString& path, const QString& seriesId, bool synchronous, QString* error);
    /// With a session pending: whether the loaded volume is on its grid; if not, the session is
    /// dropped with `error` and the shown volume kept.
    bool sessionAdmits(const Volume& volume, QString* error);
    /// File > Save session (ask: Save session as...); true when it was written.
    bool saveSessionInteractive(bool ask);
    /// The work follows the model, the measurements, the seeds and the live run; the autosave follows it.
    void bindWork();
    /// "name (modality dims) - Lucent" with the modified mark.
    void setTitle(const QString& base);
    void showError(const QString& title, const QString& message);
    void onVolumeLoaded(std::shared_ptr<Volume> volume, const SeriesInfo& info, const QStringList& warnings,
                        const QString& path);
    /// Connects the loader to this window's dialogs: progress, series chooser, errors, cancel.
    void wireLoader();
    /// A window-modal progress dialog whose Cancel cancels the loader (replaces one still open).
    void showProgress(const QString& text, int value = 0);
    void closeProgress();

    ViewerModel m_model;
    ViewGrid* m_grid = nullptr;
    QLabel* m_status = nullptr;
    QMenu* m_helpMenu = nullptr;
    SessionActions* m_sessionActions = nullptr;  // File's opening and saving, the recent paths
    WindowActions* m_windows = nullptr;          // Window/Level
    CaptureActions* m_capture = nullptr;         // Copy view / window, Save view as PNG
    CinePlayer* m_cine = nullptr;
    std::vector<std::shared_ptr<const Volume>> m_pendingFrames;  // a 4D file's volumes, until it is shown
    SegmentPanel* m_segment = nullptr;
    LabelPanel* m_labels = nullptr;
    MeasurementPanel* m_measure = nullptr;
    QString m_currentPath;
    VolumeLoader* m_loader = nullptr;
    LabelFiles* m_labelFiles = nullptr;
    PacsActions* m_pacs = nullptr;
    QPointer<QProgressDialog> m_progress;
    struct PendingSession {
        QString file;
        SavedSession state;
        std::shared_ptr<QLockFile> recovery;  ///< set when `file` is a recovery copy being restored
    };
    std::optional<PendingSession> m_pendingSession;  // its data is loading; applied once it is in
    QString m_sessionPath;
    std::unique_ptr<SessionBinding> m_session;
    WorkState m_work;
    Autosave* m_autosave = nullptr;
    std::shared_ptr<QLockFile> m_restoring;  // the recovery copy restoreRecovery() is opening
};

}  // namespace lucent::ui
