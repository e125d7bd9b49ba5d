/// @brief Main window wiring: menus, background loading with progress and cancel, masks, settings.
#include "lucent/ui/MainWindow.h"

#include "lucent/gpu/DeviceInfo.h"
#include "lucent/io/DicomReader.h"
#include "lucent/io/VolumeFile.h"
#include "lucent/ui/DicomTagDialog.h"
#include "lucent/ui/SegmentPanel.h"
#include "lucent/ui/SeriesChooser.h"
#include "lucent/ui/VolumeLoader.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <QToolBar>

namespace lucent::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("Lucent");
    setAcceptDrops(true);
    m_grid = new ViewGrid(&m_model, this);
    setCentralWidget(m_grid);
    m_status = new QLabel(this);
    statusBar()->addPermanentWidget(m_status, 1);
    connect(m_grid, &ViewGrid::hovered, m_status, &QLabel::setText);
    connect(m_grid, &ViewGrid::renderError, this, [this](const QString& m) { showError("Display error", m); });
    m_loader = new VolumeLoader(this);
    wireLoader();
    buildMenus();
    // Live segmentation: its dock, the Edit and Segment menus; shown when a method is chosen.
    m_segment = new SegmentPanel(&m_model, m_grid, this);
    addDockWidget(Qt::RightDockWidgetArea, m_segment);
    m_segment->hide();
    m_segment->buildMenus(menuBar(), m_helpMenu->menuAction());
    connect(m_segment, &SegmentPanel::message, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
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
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu("&File");
    file->addAction("Open &file...", QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, "Open DICOM or volume file", {},
                                                          "Images (*.dcm *.nii *.nii.gz *.mha *.mhd *.nrrd *.nhdr);;All files (*)");
        if (!path.isEmpty()) openPath(path);
    });
    file->addAction("Open f&older...", QKeySequence("Ctrl+Shift+O"), this, [this] {
        const QString path = QFileDialog::getExistingDirectory(this, "Open DICOM folder");
        if (!path.isEmpty()) openPath(path);
    });
    file->addAction("Open &mask...", QKeySequence("Ctrl+M"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, "Open label map", {},
                                                          "Label maps (*.nii *.nii.gz *.mha *.mhd *.nrrd *.nhdr)");
        QString error;
        if (!path.isEmpty() && !openMask(path, &error)) showError("Cannot open mask", error);
    });
    file->addAction("&Close mask", this, [this] { m_model.clearLabels(); });
    m_recentMenu = file->addMenu("&Recent");
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction("DICOM &tags...", QKeySequence("Ctrl+T"), this, &MainWindow::showTags);
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu("&View");
    auto* layouts = new QActionGroup(this);
    const std::pair<const char*, Layout> modes[] = {{"1x1", Layout::Single}, {"2x2", Layout::Grid2x2}, {"1+3", Layout::OnePlusThree}};
    int n = 1;
    for (const auto& [name, layout] : modes) {
        QAction* a = view->addAction(QString("Layout %1").arg(name), this, [this, layout = layout] { setLayoutMode(layout); });
        a->setShortcut(QKeySequence(QString("Ctrl+%1").arg(n++)));
        a->setCheckable(true);
        a->setObjectName(QString("layout_%1").arg(name));
        layouts->addAction(a);
    }
    view->addAction("&Maximise view", QKeySequence("M"), this, [this] { m_grid->toggleMaximised(); });
    view->addAction("&Reset zoom and pan", QKeySequence("Ctrl+R"), this, [this] {
        for (auto o : {render::Orientation::Axial, render::Orientation::Coronal, render::Orientation::Sagittal})
            m_grid->view(o)->resetView();
    });
    QAction* linear = view->addAction("&Linear interpolation", this, [this](bool on) {
        m_grid->textures().setInterpolation(on);
        for (auto o : {render::Orientation::Axial, render::Orientation::Coronal, render::Orientation::Sagittal})
            m_grid->view(o)->update();
    });
    linear->setCheckable(true);
    linear->setObjectName("linearInterpolation");
    QAction* hud = view->addAction("&Heads-up display", QKeySequence("H"), this, [this](bool on) {
        for (auto o : {render::Orientation::Axial, render::Orientation::Coronal, render::Orientation::Sagittal})
            m_grid->view(o)->setHudVisible(on);
    });
    hud->setCheckable(true);
    hud->setChecked(true);
    hud->setObjectName("hudToggle");

    QMenu* window = menuBar()->addMenu("&Window/Level");
    int key = 1;
    for (const auto& p : render::windowPresets()) {
        const QString name = QString::fromStdString(p.name);
        QAction* a = window->addAction(QString::fromStdString(p.label), this, [this, name] {
            if (!applyPreset(name)) showError("Window preset", "Open a volume first.");
        });
        a->setShortcut(QKeySequence(QString::number(key++)));
        a->setObjectName("preset_" + name);
    }

    QMenu* help = menuBar()->addMenu("&Help");
    m_helpMenu = help;
    help->addAction("&About Lucent", this, &MainWindow::showAbout);

    QToolBar* bar = addToolBar("Overlay");
    bar->setObjectName("overlayToolbar");
    bar->addWidget(new QLabel(" Mask opacity ", bar));
    m_opacity = new QSlider(Qt::Horizontal, bar);
    m_opacity->setRange(0, 100);
    m_opacity->setValue(50);
    m_opacity->setMaximumWidth(160);
    m_opacity->setObjectName("opacitySlider");
    bar->addWidget(m_opacity);
    connect(m_opacity, &QSlider::valueChanged, this, [this](int v) { m_model.setOverlayOpacity(v / 100.0f); });
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
    QSettings().setValue("view/preset", name);
    return true;
}

void MainWindow::setLayoutMode(Layout layout) {
    m_grid->setLayoutMode(layout);
    QSettings().setValue("view/layout", layoutName(layout));
    if (QAction* a = findChild<QAction*>("layout_" + layoutName(layout))) a->setChecked(true);
}

bool MainWindow::openPath(const QString& path, const QString& seriesId, bool synchronous, QString* error) {
    closeProgress();
    if (synchronous) {
        try {
            const LoadedVolume loaded = m_loader->openNow(path, seriesId);
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
    connect(m_loader, &VolumeLoader::progress, this, [this](int permille) {
        if (m_progress) m_progress->setValue(permille);
    });
    connect(m_loader, &VolumeLoader::finished, this,
            [this](std::shared_ptr<Volume> volume, const SeriesInfo& info, const QStringList& warnings,
                   const QString& path) {
                closeProgress();
                onVolumeLoaded(std::move(volume), info, warnings, path);
            });
    connect(m_loader, &VolumeLoader::failed, this, [this](const QString& path, const QString& message) {
        closeProgress();
        showError("Cannot open " + path, message);
    });
    connect(m_loader, &VolumeLoader::cancelled, this, [this] {
        closeProgress();
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
    const auto& d = m_model.volume()->geometry().dims;
    const QString name = QString::fromStdString(info.description.empty() ? QFileInfo(path).fileName().toStdString() : info.description);
    setWindowTitle(QString("%1 (%2 %3 x %4 x %5) - Lucent").arg(name, QString::fromStdString(info.modality)).arg(d[0]).arg(d[1]).arg(d[2]));
    addRecent(path);
    if (!warnings.isEmpty()) {
        statusBar()->showMessage("Loaded with warnings: " + warnings.join("; "), 15000);
        statusBar()->setToolTip(warnings.join("\n"));
    }
}

bool MainWindow::openMask(const QString& path, QString* error) {
    QString why;
    try {
        auto labels = std::make_shared<LabelMap>(io::readLabelMapFile(path.toStdString()));
        if (m_model.setLabels(labels, path, why)) return true;
    } catch (const std::exception& e) {
        why = QString::fromStdString(e.what());
    }
    if (error) *error = why;
    return false;
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
                       QString("<h3>Lucent 0.1.0</h3><p>CT and MR viewer with GPU-resident segmentation.</p>"
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
    m_loader->cancel();
    QSettings().setValue("window/geometry", saveGeometry());
    QMainWindow::closeEvent(event);
}

}  // namespace lucent::ui
