/// @brief Main window wiring: the docks and models, background loading with progress and cancel, masks,
/// settings. Its menus are in MainWindowMenus.cpp, its sessions in MainWindowSessions.cpp, its unsaved
/// work in MainWindowWork.cpp.
#include "lucent/ui/MainWindow.h"

#include "lucent/ui/Autosave.h"
#include "lucent/ui/CaptureActions.h"
#include "lucent/ui/CinePlayer.h"
#include "lucent/ui/LabelFiles.h"
#include "lucent/ui/LabelPanel.h"
#include "lucent/ui/MeasurementPanel.h"
#include "lucent/ui/PacsActions.h"
#include "lucent/ui/PanelArea.h"
#include "lucent/ui/SegmentPanel.h"
#include "lucent/ui/SeriesChooser.h"
#include "lucent/ui/SessionActions.h"
#include "lucent/ui/SessionBinding.h"
#include "lucent/ui/SessionFile.h"
#include "lucent/ui/VolumeLoader.h"
#include "lucent/ui/WindowActions.h"
#if LUCENT_HAVE_VTK
#include "lucent/ui/LivePreviewWiring.h"
#include "lucent/ui/View3DWidget.h"
#endif

#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QLabel>
#include <QLockFile>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QSettings>
#include <QStatusBar>

#include <utility>

namespace lucent::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setTitle({});
    setAcceptDrops(true);
    m_grid = new ViewGrid(&m_model, this);
    setCentralWidget(m_grid);
    m_status = new QLabel(this);
    m_status->setObjectName("voxelStatus");
    m_status->setToolTip("The voxel under the mouse: column, row, slice of the loaded volume (row 0 at the top of a "
                         "DICOM image), as lucent segment --seed i,j,k takes it, and its slice numbered from 1 as the views "
                         "number slices; its position in patient mm (LPS, "
                         "as --seed-lps takes it); its value");
    statusBar()->addPermanentWidget(m_status, 1);
    connect(m_grid, &ViewGrid::hovered, m_status, &QLabel::setText);
    // The cursor's voxel when it moves (a click, a scroll to another slice, Go to) and when another
    // volume or frame arrives: never the old volume's voxel and value.
    const auto showCursor = [this] { m_status->setText(m_model.describeVoxel(m_model.cursor())); };
    for (auto changed : {&ViewerModel::cursorChanged, &ViewerModel::volumeChanged, &ViewerModel::frameChanged})
        connect(&m_model, changed, m_status, showCursor);
    connect(m_grid, &ViewGrid::renderError, this, [this](const QString& m) { showError("Display error", m); });
    m_loader = new VolumeLoader(this);
    m_labelFiles = new LabelFiles(&m_model, this);
    m_pacs = new PacsActions({this, &m_model, m_labelFiles,
                              [this](const QString& folder, const QString& uid) { return openPath(folder, uid); }});
    connect(m_labelFiles, &LabelFiles::exported, this, [this](const QString& m) { statusBar()->showMessage(m, 15000); });
    wireLoader();
    m_cine = new CinePlayer(&m_model, m_grid, this);
    buildMenus();
    // Live segmentation: its dock; shown when a method is chosen.
    m_segment = new SegmentPanel(&m_model, m_grid, this);
#if LUCENT_HAVE_VTK
    // The window wires the run to the 3D view: neither knows the other.
    if (View3DWidget* v3d = m_grid->view3D()) showLiveIn3D(&m_segment->live(), v3d);
#endif
    addDockWidget(Qt::RightDockWidgetArea, m_segment);
    m_segment->hide();
    connect(m_segment, &SegmentPanel::message, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    // The label layer people edit: its dock (tabbed with the segment panel).
    m_labels = new LabelPanel(&m_model, m_grid, this);
    addDockWidget(Qt::RightDockWidgetArea, m_labels);
    m_labels->hide();
    connect(m_labels, &LabelPanel::message, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    // Rulers, angles and ROIs: their list (after the panels whose tools it yields to).
    m_measure = new MeasurementPanel(&m_model, m_grid, this);
    addDockWidget(Qt::RightDockWidgetArea, m_measure);
    m_measure->hide();
    connect(m_measure, &MeasurementPanel::message, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    // One tabbed area beside the views; choosing a method widens the window rather than the views' room.
    new PanelArea(this, m_grid, {m_segment, m_labels, m_measure});
    buildPanelMenus();
    bindSession();
    bindWork();
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    if (!settings.contains("window/geometry")) resize(1280, 860);
    Layout layout = Layout::Grid2x2;
    parseLayout(settings.value("view/layout", "2x2").toString(), layout);
    setLayoutMode(layout);
}

MainWindow::~MainWindow() {
    // First of all: the loader and a live run stop and wait for their threads before anything
    // they report to (the model, the views) goes.
    delete m_loader;
    delete m_segment;
    // A normal end (not a crash): the work was saved, discarded or confirmed; no copy is left. The
    // autosave goes before the model and the work state its capture and timer use.
    m_autosave->discard();
    delete m_autosave;
    m_autosave = nullptr;
}

void MainWindow::bindSession() {
    SessionParts parts;
    parts.segmentSettings = [this] { return m_segment->settings(); };
    parts.restoreSegmentSettings = [this](const SegmentSettings& s) { m_segment->restoreSettings(s); };
    parts.measurements = [this] { return m_measure->measurements().all(); };
    parts.addMeasurement = [this](const Measurement& m) { m_measure->add(m); };
    parts.panels = [this] { return saveState(); };
    parts.restorePanels = [this](const QByteArray& state) { return restoreState(state); };
    m_session = std::make_unique<SessionBinding>(m_model, m_grid, std::move(parts));
}


bool MainWindow::saveViewPng(const QString& path, QString* error) { return m_capture->saveViewPng(path, error); }

QStringList MainWindow::recentFiles() const { return m_sessionActions->recentFiles(); }

void MainWindow::showError(const QString& title, const QString& message) {
    QMessageBox::critical(this, title, message);
}

bool MainWindow::applyPreset(const QString& name) { return m_windows->applyPreset(name); }

void MainWindow::setLayoutMode(Layout layout) {
    m_grid->setLayoutMode(layout);  // the menu and the settings follow the grid's layoutChanged()
}

bool MainWindow::openPath(const QString& path, const QString& seriesId, bool synchronous, QString* error) {
    if (SessionFile::isSessionPath(path)) return openSession(path, synchronous, error);
    if (!synchronous && !confirmUnsavedWork("opening " + QFileInfo(path).fileName())) {
        if (error) *error = "Kept the unsaved work; nothing was opened.";
        return false;
    }
    m_pendingSession.reset();  // the latest path wins, a session whose data was loading included
    return openData(path, seriesId, synchronous, error);
}

bool MainWindow::openData(const QString& path, const QString& seriesId, bool synchronous, QString* error) {
    closeProgress();
    if (synchronous) {
        try {
            const LoadedVolume loaded = m_loader->openNow(path, seriesId);
            if (!sessionAdmits(*loaded.volume, error)) return false;
            m_pendingFrames = loaded.frames;
            onVolumeLoaded(loaded.volume, loaded.info, loaded.warnings, path);
            return true;
        } catch (const std::exception& e) {
            if (error) *error = QString::fromStdString(e.what());
            return false;
        }
    }
    // Interactive: the loader reads, asks the chooser when it must, loads; the dialogs follow it.
    showProgress("Opening " + path);
    m_loader->open(path, seriesId);
    if (error) error->clear();
    return true;
}

void MainWindow::wireLoader() {
    m_loader->setChooser([this](const QString&, const std::vector<SeriesInfo>& series) {
        closeProgress();
        SeriesChooser chooser(series, this);
        return chooser.exec() == QDialog::Accepted ? chooser.chosen() : -1;
    });
    connect(m_loader, &VolumeLoader::chosen, this, [this](const SeriesInfo& info) {
        showProgress("Loading " + QString::fromStdString(info.description.empty() ? info.id : info.description), 250);
    });
    connect(m_loader, &VolumeLoader::framesLoaded, this,
            [this](const std::vector<std::shared_ptr<const Volume>>& frames) { m_pendingFrames = frames; });
    connect(m_loader, &VolumeLoader::progress, this, [this](int permille) {
        if (m_progress) m_progress->setValue(permille);
    });
    connect(m_loader, &VolumeLoader::finished, this,
            [this](std::shared_ptr<Volume> volume, const SeriesInfo& info, const QStringList& warnings,
                   const QString& path) {
                closeProgress();
                QString why;
                if (!sessionAdmits(*volume, &why)) {
                    m_pendingFrames.clear();
                    return showError("Cannot open the session", why);
                }
                onVolumeLoaded(std::move(volume), info, warnings, path);
            });
    connect(m_loader, &VolumeLoader::failed, this, [this](const QString& path, const QString& message) {
        closeProgress();
        if (m_pendingSession) {
            const QString file = m_pendingSession->file;
            m_pendingSession.reset();
            return showError("Cannot open the session", QString("%1: cannot load its data: %2").arg(file, message));
        }
        showError("Cannot open " + path, message);
    });
    connect(m_loader, &VolumeLoader::cancelled, this, [this] {
        closeProgress();
        m_pendingSession.reset();
        statusBar()->showMessage("Loading cancelled; the previous volume is kept.", 5000);
    });
}

void MainWindow::showProgress(const QString& text, int value) {
    closeProgress();
    m_progress = new QProgressDialog(text, "Cancel", 0, 1000, this);
    m_progress->setWindowModality(Qt::WindowModal);
    m_progress->setMinimumDuration(300);
    m_progress->setAttribute(Qt::WA_DeleteOnClose);
    m_progress->setValue(value);
    // Gone at once on Cancel (a cancelled QProgressDialog shows itself again on the next value);
    // the loader stops at its next file and then says cancelled().
    connect(m_progress, &QProgressDialog::canceled, this, [this] {
        closeProgress();
        m_loader->cancel();
    });
}

void MainWindow::closeProgress() {
    if (!m_progress) return;
    // Closing a QProgressDialog emits canceled(): disconnect first, so that closing never cancels.
    disconnect(m_progress, nullptr, this, nullptr);
    m_progress->close();
    m_progress = nullptr;
}

void MainWindow::onVolumeLoaded(std::shared_ptr<Volume> volume, const SeriesInfo& info, const QStringList& warnings,
                                const QString& path) {
    m_currentPath = path;
    m_model.setVolume(std::move(volume), info, QSettings().value("view/preset", "auto").toString());
    m_model.setFrames(std::move(m_pendingFrames));
    m_pendingFrames.clear();
    const auto& d = m_model.volume()->geometry().dims;
    const QString name = QString::fromStdString(info.description.empty() ? QFileInfo(path).fileName().toStdString() : info.description);
    const QString title = QString("%1 (%2 %3 x %4 x %5)").arg(name, QString::fromStdString(info.modality)).arg(d[0]).arg(d[1]).arg(d[2]);
    setTitle(title);
    m_sessionActions->addRecent(path);
    m_pacs->indexOpened(info);
    if (!warnings.isEmpty()) {
        statusBar()->showMessage("Loaded with warnings: " + warnings.join("; "), 15000);
        statusBar()->setToolTip(warnings.join("\n"));
    }
    m_sessionPath.clear();  // another volume: Save session proposes a file beside it
    if (!m_pendingSession) return m_work.markSaved();  // as on disk
    // The session's data is in and on its grid: everything else goes back on it.
    const PendingSession session = std::move(*m_pendingSession);
    m_pendingSession.reset();
    const QStringList problems = m_session->apply(session.state, session.file);
    if (session.recovery) {
        // Restored work is saved nowhere but in the copy: unsaved, and kept by this window's copy
        // (the old one goes once that is written). Save session proposes a file beside the data.
        m_work.markSaved();
        m_work.noteChange(WorkState::Part::Session);
        m_autosave->adopt(session.file, session.recovery);
        m_autosave->saveNow();
        statusBar()->showMessage("Restored the work from the recovery copy " + session.file + ".", 15000);
        return;
    }
    m_sessionPath = session.file;
    m_sessionActions->addRecent(session.file);
    setTitle(QFileInfo(session.file).fileName() + " - " + title);
    m_work.markSaved();
    if (!problems.isEmpty()) statusBar()->showMessage("Session opened with problems: " + problems.join("; "), 15000);
    else statusBar()->showMessage("Session " + session.file + " opened.", 5000);
}


bool MainWindow::openMask(const QString& path, QString* error) {
    if (!m_labelFiles->importFile(path, error)) return false;
    m_work.markSaved(WorkState::Part::Labels);  // the layer is that file
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) openPath(urls.front().toLocalFile());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!confirmUnsavedWork("closing")) return event->ignore();
    m_autosave->discard();  // saved or discarded: nothing to recover
    m_loader->cancel();
    QSettings().setValue("window/geometry", saveGeometry());
    QMainWindow::closeEvent(event);
}

}  // namespace lucent::ui
