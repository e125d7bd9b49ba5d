/// @brief MainWindow's menus and tool bar: File, View (layouts, drawing toggles, 3D, cine), Window,
/// Help and the copy actions, each bound to the model or window it drives.
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

}  // namespace lucent::ui
