/// @brief Main window wiring: menus, background loading with progress and cancel, masks, settings.
#include "lucent/io/FileSuffixes.h"
#include "lucent/ui/MainWindow.h"

#include "lucent/core/Version.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/io/DicomReader.h"
#include "lucent/io/VolumeFile.h"
#include "lucent/ui/Autosave.h"
#include "lucent/ui/CinePlayer.h"
#include "lucent/ui/DicomTagDialog.h"
#include "lucent/ui/LabelFiles.h"
#include "lucent/ui/PacsActions.h"
#include "lucent/ui/LabelPanel.h"
#include "lucent/ui/MeasurementPanel.h"
#include "lucent/ui/SegmentPanel.h"
#if LUCENT_HAVE_VTK
#include "lucent/ui/View3DWidget.h"
#endif
#include "lucent/ui/SeriesChooser.h"
#include "lucent/ui/SessionBinding.h"
#include "lucent/ui/SessionFile.h"
#include "lucent/ui/ShortcutsDialog.h"
#include "lucent/ui/ViewCapture.h"
#include "lucent/ui/VolumeLoader.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLockFile>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QSettings>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolBar>

#include <cmath>
#include <cstring>
#include <optional>
#include <utility>

namespace lucent::ui {

namespace {

/// Checks `action` as the model says, without its toggled() setting the model back.
void checkQuietly(QAction* action, bool on) {
    const QSignalBlocker quiet(action);
    action->setChecked(on);
}

}  // namespace

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
    m_pacs = new PacsActions(this);
    connect(m_labelFiles, &LabelFiles::exported, this, [this](const QString& m) { statusBar()->showMessage(m, 15000); });
    wireLoader();
    m_cine = new CinePlayer(&m_model, m_grid, this);
    buildMenus();
    // Live segmentation: its dock, the Edit and Segment menus; shown when a method is chosen.
    m_segment = new SegmentPanel(&m_model, m_grid, this);
#if LUCENT_HAVE_VTK
    // The window wires the run to the 3D view: neither knows the other.
    if (View3DWidget* v3d = m_grid->view3D()) v3d->followLive(&m_segment->live());
#endif
    addDockWidget(Qt::RightDockWidgetArea, m_segment);
    m_segment->hide();
    m_segment->buildMenus(menuBar(), m_helpMenu->menuAction());
    connect(m_segment, &SegmentPanel::message, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    addCopyActions();
    // The label layer people edit: its dock (tabbed with the segment panel), the Labels menu.
    m_labels = new LabelPanel(&m_model, m_grid, this);
    addDockWidget(Qt::RightDockWidgetArea, m_labels);
    m_labels->hide();
    m_labels->buildMenus(menuBar(), m_helpMenu->menuAction());
    connect(m_labels, &LabelPanel::message, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    // Rulers, angles and ROIs: Tools > Measure and their list (after the panels whose tools it yields to).
    m_measure = new MeasurementPanel(&m_model, m_grid, this);
    addDockWidget(Qt::RightDockWidgetArea, m_measure);
    m_measure->hide();
    m_measure->buildMenus(menuBar(), m_helpMenu->menuAction());
    connect(m_measure, &MeasurementPanel::message, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
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

void MainWindow::buildMenus() {
    buildFileMenu();
    buildViewMenu();
    buildWindowMenu();
    buildHelpMenu();
    buildOverlayToolbar();
}

void MainWindow::buildFileMenu() {
    QMenu* file = menuBar()->addMenu("&File");
    file->addAction("Open &file...", QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, "Open DICOM or volume file", {},
                                                          QString("Images (%1);;Lucent sessions (*%2);;All files (*)")
                                                              .arg(QString::fromStdString(io::globPattern(io::kDataSuffixes)))
                                                              .arg(SessionFile::kSuffix));
        if (!path.isEmpty()) openPath(path);
    });
    file->addAction("Open f&older...", QKeySequence("Ctrl+Shift+O"), this, [this] {
        const QString path = QFileDialog::getExistingDirectory(this, "Open DICOM folder");
        if (!path.isEmpty()) openPath(path);
    });
    // A session: the data, window, layout, labels, seeds, parameters and measurements in one file.
    file->addAction("Open &session...", this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, "Open session", {}, "Lucent sessions (*.lucent);;All files (*)");
        if (!path.isEmpty()) openSession(path);
    })->setObjectName("openSession");
    // The local study database and PACS nodes (query, retrieve; the labels sent back below).
    m_pacs->addOpenActions(file);
    file->addAction("&Save session", QKeySequence::Save, this, [this] { saveSessionInteractive(false); })
        ->setObjectName("saveSession");
    file->addAction("Save session &as...", this, [this] { saveSessionInteractive(true); })->setObjectName("saveSessionAs");
    // Label files in every format Lucent writes (NIfTI, NRRD / .seg.nrrd, MetaImage, DICOM SEG).
    file->addAction("&Import labels...", QKeySequence("Ctrl+M"), m_labelFiles, &LabelFiles::importDialog);
    file->addAction("&Export labels...", QKeySequence("Ctrl+E"), m_labelFiles, [this] { m_labelFiles->exportDialog(); });
    addDicomSegAction(file);
    m_pacs->addSendAction(file);
    // One undoable step (Edit > Undo brings the voxels back), so it asks nothing.
    file->addAction("&Close labels", this, [this] { m_model.closeLabels(); })->setObjectName("closeLabelsAction");
    m_recentMenu = file->addMenu("&Recent");
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction("DICOM &tags...", QKeySequence("Ctrl+T"), this, &MainWindow::showTags);
    file->addAction("Save &view as PNG...", QKeySequence("Ctrl+Shift+S"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Save view as PNG", "lucent-view.png", "PNG images (*.png)");
        QString error;
        if (!path.isEmpty() && !saveViewPng(path, &error)) showError("Cannot save the view", error);
    })->setObjectName("saveViewPng");
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::addDicomSegAction(QMenu* file) {
    // Always listed, greyed with its reason where no DICOM reference exists: the user sees that
    // Lucent writes SEGs and what it needs for one.
    auto* seg = file->addAction("Export labels as DICOM SE&G...", m_labelFiles, [this] { m_labelFiles->exportDialog(true); });
    seg->setObjectName("exportDicomSeg");
    file->setToolTipsVisible(true);
    auto follow = [this, seg] {
        const QString why = LabelFiles::dicomSegUnavailable(m_model);
        seg->setEnabled(why.isEmpty());
        seg->setText(why.isEmpty() ? "Export labels as DICOM SE&G..." : QString("Export labels as DICOM SEG (%1)").arg(why));
        seg->setToolTip(why.isEmpty() ? "A DICOM SEG that references the open series" : "A DICOM SEG " + why);
        seg->setStatusTip(seg->toolTip());
    };
    connect(&m_model, &ViewerModel::volumeChanged, seg, follow);
    follow();
}

void MainWindow::buildViewMenu() {
    QMenu* view = menuBar()->addMenu("&View");
    addLayoutActions(view);
    view->addAction("&Maximise view", QKeySequence("M"), this, [this] { m_grid->toggleMaximised(); });
    view->addAction("&Reset zoom and pan", QKeySequence("Ctrl+R"), this, [this] {
        for (auto o : {render::Orientation::Axial, render::Orientation::Coronal, render::Orientation::Sagittal})
            m_grid->view(o)->resetView();
    });
    addDrawingToggles(view);
    buildCineMenu(view);
#if LUCENT_HAVE_VTK
    if (View3DWidget* v3d = m_grid->view3D()) build3DMenu(view, v3d);
#endif
}

void MainWindow::addLayoutActions(QMenu* view) {
    auto* layouts = new QActionGroup(this);
    const std::pair<const char*, Layout> modes[] = {{"1x1", Layout::Single}, {"2x2", Layout::Grid2x2}, {"1+3", Layout::OnePlusThree}};
    int n = 1;
    for (const auto& [name, layout] : modes) {
        QAction* a = view->addAction(QString("Layout %1").arg(name), this, [this, layout = layout] { setLayoutMode(layout); });
        a->setShortcut(QKeySequence(QString("Ctrl+%1").arg(n++)));
        a->setCheckable(true);
        a->setObjectName(QString("layout_%1").arg(name));
        layouts->addAction(a);
        m_layoutActions[std::size_t(layout)] = a;
    }
    // Whoever arranges the grid (this menu, a session), the menu checks it and the next start keeps it.
    connect(m_grid, &ViewGrid::layoutChanged, this, [this](Layout layout) {
        QSettings().setValue("view/layout", layoutName(layout));
        m_layoutActions[std::size_t(layout)]->setChecked(true);
    });
}

void MainWindow::addDrawingToggles(QMenu* view) {
    // Each toggle is bound both ways to the model, which the views follow: toggled (not triggered),
    // so that checking one in code switches the views too.
    QAction* linear = view->addAction("&Linear interpolation");
    linear->setCheckable(true);
    linear->setChecked(m_model.linearInterpolation());
    linear->setObjectName("linearInterpolation");
    connect(linear, &QAction::toggled, &m_model, &ViewerModel::setLinearInterpolation);
    connect(&m_model, &ViewerModel::linearInterpolationChanged, linear,
            [linear](bool on) { checkQuietly(linear, on); });
    // True anatomical planes: every 2D view reslices to the patient's axes (an oblique series is
    // resampled); off by default, remembered like the layout.
    QAction* planes = view->addAction("&Anatomical planes (reslice)");
    planes->setShortcut(QKeySequence("N"));
    planes->setCheckable(true);
    planes->setObjectName("anatomicalPlanes");
    connect(planes, &QAction::toggled, &m_model,
            [this](bool on) { m_model.setPlaneMode(on ? render::PlaneMode::Patient : render::PlaneMode::Volume); });
    connect(&m_model, &ViewerModel::planeModeChanged, planes, [planes](render::PlaneMode mode) {
        checkQuietly(planes, mode == render::PlaneMode::Patient);
        QSettings().setValue("view/anatomicalPlanes", mode == render::PlaneMode::Patient);
    });
    planes->setChecked(QSettings().value("view/anatomicalPlanes", false).toBool());
    QAction* hud = view->addAction("&Heads-up display");
    hud->setShortcut(QKeySequence("H"));
    hud->setCheckable(true);
    hud->setChecked(m_model.hudVisible());
    hud->setObjectName("hudToggle");
    connect(hud, &QAction::toggled, &m_model, &ViewerModel::setHudVisible);
    connect(&m_model, &ViewerModel::hudVisibleChanged, hud, [hud](bool on) { checkQuietly(hud, on); });
}

#if LUCENT_HAVE_VTK
void MainWindow::build3DMenu(QMenu* view, View3DWidget* v3d) {
    view->addSeparator();
    QMenu* presets3d = view->addMenu("3D &preset");
    auto* group3d = new QActionGroup(this);
    for (render::Preset3D p : render::presets3D()) {
        QAction* a = presets3d->addAction(render::preset3DLabel(p), v3d, [v3d, p] { v3d->setPreset(p); });
        a->setCheckable(true);
        a->setObjectName(QString("preset3d_") + render::preset3DName(p));
        a->setData(int(p));
        group3d->addAction(a);
    }
    connect(presets3d, &QMenu::aboutToShow, this, [presets3d, v3d] {  // the volume may have chosen one
        for (QAction* a : presets3d->actions()) a->setChecked(a->data().toInt() == int(v3d->preset()));
    });
    QAction* planes3d = view->addAction("Slice planes in 3D", v3d, &View3DWidget::setPlanesVisible);
    planes3d->setCheckable(true);
    planes3d->setChecked(true);
    planes3d->setObjectName("planes3d");
    view->addAction("Reset 3D &view", v3d, &View3DWidget::resetCamera)->setObjectName("reset3d");
    view->addAction("Save 3D &screenshot...", this, [this, v3d] {
        const QString path = QFileDialog::getSaveFileName(this, "Save 3D screenshot", "lucent-3d.png", "PNG images (*.png)");
        QString error;
        if (!path.isEmpty() && !v3d->saveScreenshot(path, &error)) showError("Cannot save the 3D screenshot", error);
    });
}
#endif

void MainWindow::buildWindowMenu() {
    QMenu* window = menuBar()->addMenu("&Window/Level");
    int key = 1;
    for (const auto& p : render::windowPresets()) {
        const QString name = QString::fromStdString(p.name);
        QAction* a = window->addAction(QString::fromStdString(p.label), this, [this, name] {
            if (!applyPreset(name)) showError("Window preset", "Open a volume first.");
        });
        a->setShortcut(QKeySequence(QString::number(key++)));
        a->setObjectName("preset_" + name);
        a->setData(name);
        a->setCheckable(true);
    }
    // The scan's own windows go above the presets; refreshed per volume, the current one checked.
    m_windowMenu = window;
    m_scanWindowsEnd = window->insertSeparator(window->actions().front());
    connect(&m_model, &ViewerModel::volumeChanged, this, &MainWindow::rebuildScanWindows);
    connect(window, &QMenu::aboutToShow, this, &MainWindow::checkCurrentWindow);
    rebuildScanWindows();
}

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu("&Help");
    m_helpMenu = help;
    help->addAction("Keyboard &shortcuts", QKeySequence(Qt::Key_F1), this, [this] {
        ShortcutsDialog dialog(this, this);
        dialog.exec();
    })->setObjectName("shortcutsAction");
    help->addAction("&About Lucent", this, &MainWindow::showAbout);
}

void MainWindow::buildOverlayToolbar() {
    QToolBar* bar = addToolBar("Overlay");
    bar->setObjectName("overlayToolbar");
    bar->addWidget(new QLabel(" Mask opacity ", bar));
    m_opacity = new QSlider(Qt::Horizontal, bar);
    m_opacity->setRange(0, 100);
    m_opacity->setValue(int(std::lround(m_model.overlayOpacity() * 100)));
    m_opacity->setMaximumWidth(160);
    m_opacity->setObjectName("opacitySlider");
    bar->addWidget(m_opacity);
    // Bound both ways: the slider sets the model; the model (a session) moves the slider.
    connect(m_opacity, &QSlider::valueChanged, this, [this](int v) { m_model.setOverlayOpacity(v / 100.0f); });
    connect(&m_model, &ViewerModel::overlayOpacityChanged, m_opacity, [this](float opacity) {
        const QSignalBlocker quiet(m_opacity);
        m_opacity->setValue(int(std::lround(opacity * 100)));
    });
    bar->addWidget(new QLabel("  Cine ", bar));
    auto* rate = new QSpinBox(bar);
    rate->setRange(1, 60);
    rate->setSuffix(" fps");
    rate->setValue(int(m_cine->rate()));
    rate->setObjectName("cineRate");
    rate->setToolTip("Cine rate in slices per second (View > Cine, P)");
    bar->addWidget(rate);
    connect(rate, &QSpinBox::valueChanged, m_cine, [this](int fps) { m_cine->setRate(fps); });
}
void MainWindow::buildCineMenu(QMenu* view) {
    view->addSeparator();
    QAction* play = view->addAction("&Cine play / pause", QKeySequence("P"), this, [this](bool on) {
        if (!m_cine->setPlaying(on)) statusBar()->showMessage("Open a volume first.", 4000);
    });
    play->setCheckable(true);
    play->setObjectName("cinePlay");
    connect(m_cine, &CinePlayer::playingChanged, play, &QAction::setChecked);
    QAction* bounce = view->addAction("Cine &bounces (else loops)", m_cine, &CinePlayer::setBounce);
    bounce->setCheckable(true);
    bounce->setObjectName("cineBounce");
    QAction* frames = view->addAction("Cine through &time frames (4D)", this, [this](bool on) {
        const bool was = m_cine->playing();
        m_cine->setPlaying(false);
        m_cine->setThroughFrames(on);
        if (was) m_cine->setPlaying(true);
    });
    frames->setCheckable(true);
    frames->setObjectName("cineFrames");
    connect(&m_model, &ViewerModel::frameChanged, this, [this] {
        statusBar()->showMessage(QString("Frame %1 / %2").arg(m_model.frame() + 1).arg(m_model.frameCount()), 2000);
    });
}

void MainWindow::addCopyActions() {
    // The Edit menu is the segment panel's (Undo / Redo); copying goes below them.
    QMenu* edit = nullptr;
    for (QAction* a : menuBar()->actions())
        if (a->menu() && a->text().remove('&') == "Edit") edit = a->menu();
    if (!edit) edit = menuBar()->addMenu("&Edit");
    edit->addSeparator();
    edit->addAction("&Copy view", QKeySequence::Copy, this, [this] {
        if (!m_model.hasVolume()) return statusBar()->showMessage("Open a volume first.", 4000);
        copyToClipboard(captureView(m_grid->activeView() ? m_grid->activeView() : m_grid->view(render::Orientation::Axial)));
        statusBar()->showMessage("The view is on the clipboard.", 4000);
    })->setObjectName("copyView");
    edit->addAction("Copy &window", QKeySequence("Ctrl+Shift+C"), this, [this] {
        copyToClipboard(captureWindow(this));
        statusBar()->showMessage("The window is on the clipboard.", 4000);
    })->setObjectName("copyWindow");
}

bool MainWindow::saveViewPng(const QString& path, QString* error) {
    if (!m_model.hasVolume()) {
        if (error) *error = "Open a volume first.";
        return false;
    }
    SliceViewWidget* view = m_grid->activeView() ? m_grid->activeView() : m_grid->view(render::Orientation::Axial);
    return saveImagePng(captureView(view), path, error);
}

void MainWindow::rebuildScanWindows() {
    for (QAction* a : m_scanWindows) {
        m_windowMenu->removeAction(a);
        a->setParent(nullptr);  // gone from findChild() at once, deleted once its signals are done
        a->deleteLater();
    }
    m_scanWindows.clear();
    const std::vector<NamedWindow> none;
    const auto& own = m_model.hasVolume() ? m_model.volume()->metadata().windows : none;
    for (std::size_t i = 0; i < own.size(); ++i) {
        const QString name = QString::fromStdString(render::fileWindowName(i));
        auto* a = new QAction(QString::fromStdString(render::fileWindowLabel(own[i], i)), m_windowMenu);
        a->setObjectName("window_" + name);
        a->setData(name);
        a->setCheckable(true);
        a->setToolTip("The scan's own window (DICOM Window Center / Width)");
        connect(a, &QAction::triggered, this, [this, name] { applyPreset(name); });
        m_windowMenu->insertAction(m_scanWindowsEnd, a);
        m_scanWindows.push_back(a);
    }
    m_scanWindowsEnd->setVisible(!own.empty());
    checkCurrentWindow();
}

void MainWindow::checkCurrentWindow() {
    // Checked: the entry last applied, while its window is still the one shown (a right-drag
    // leaves none checked). "auto" is computed only when it is the one to compare.
    const render::WindowLevel now = m_model.window();
    for (QAction* a : m_windowMenu->actions()) {
        if (!a->isCheckable()) continue;
        const QString name = a->data().toString();
        std::optional<render::WindowLevel> w;
        if (m_model.hasVolume() && name == m_model.preset()) w = render::presetWindow(name.toStdString(), *m_model.volume());
        a->setChecked(w && std::abs(w->level - now.level) < 1e-6 && std::abs(w->width - now.width) < 1e-6);
    }
}

QStringList MainWindow::recentFiles() const { return QSettings().value("recent").toStringList(); }

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    for (const QString& path : recentFiles()) m_recentMenu->addAction(path, this, [this, path] { openPath(path); });
    m_recentMenu->setEnabled(!m_recentMenu->isEmpty());
}

void MainWindow::addRecent(const QString& path) {
    QStringList recent = recentFiles();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > 10) recent.removeLast();
    QSettings().setValue("recent", recent);
    rebuildRecentMenu();
}

void MainWindow::showError(const QString& title, const QString& message) {
    QMessageBox::critical(this, title, message);
}

bool MainWindow::applyPreset(const QString& name) {
    if (!m_model.applyPreset(name)) return false;
    // A scan's own window belongs to that scan: only the named presets are remembered.
    if (!name.startsWith("file")) QSettings().setValue("view/preset", name);
    return true;
}

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
    addRecent(path);
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
    addRecent(session.file);
    setTitle(QFileInfo(session.file).fileName() + " - " + title);
    m_work.markSaved();
    if (!problems.isEmpty()) statusBar()->showMessage("Session opened with problems: " + problems.join("; "), 15000);
    else statusBar()->showMessage("Session " + session.file + " opened.", 5000);
}

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
                                                : "Open a volume first.";
        return false;
    }
    if (!SessionFile::write(path, m_session->capture(m_currentPath), error)) return false;
    m_sessionPath = QFileInfo(path).absoluteFilePath();
    addRecent(m_sessionPath);
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
        showError("Save session", "Open a volume first.");
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

bool MainWindow::openMask(const QString& path, QString* error) {
    if (!m_labelFiles->importFile(path, error)) return false;
    m_work.markSaved(WorkState::Part::Labels);  // the layer is that file
    return true;
}

void MainWindow::showTags() {
    if (!m_model.hasVolume()) return showError("DICOM tags", "Open a DICOM series first.");
    const int k = int(std::lround(m_model.cursor().z));
    const QString file = m_model.sliceFile(k);
    if (file.isEmpty())
        return showError("DICOM tags", "Slice " + QString::number(k + 1) + " has no DICOM file (a volume file, or a filled gap).");
    try {
        DicomTagDialog dialog(file, io::DicomReader::dumpTags(file.toStdString()), this);
        dialog.exec();
    } catch (const std::exception& e) {
        showError("DICOM tags", QString::fromStdString(e.what()));
    }
}

void MainWindow::showAbout() {
    QMessageBox::about(this, "About Lucent",
                       QString("<h3>Lucent " + QString(kVersion) + "</h3><p>CT and MR viewer with GPU-resident segmentation.</p>"
                               "<p>DICOM: %1</p><pre>%2</pre>")
                           .arg(io::DicomReader::available() ? "DCMTK" : "not built")
                           .arg(QString::fromStdString(gpu::describeBackends()).toHtmlEscaped()));
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
