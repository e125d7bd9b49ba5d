/// @brief MainWindow's menus and tool bar, assembled from the action groups of the rooms (each binds its
/// actions to the models it drives): File, View, Window/Level, then Edit, Segment, Labels and Tools once
/// their panels exist, and Help.
#include "lucent/ui/MainWindow.h"

#include "lucent/ui/CaptureActions.h"
#include "lucent/ui/CineActions.h"
#include "lucent/ui/HistoryActions.h"
#include "lucent/ui/InfoActions.h"
#include "lucent/ui/LabelActions.h"
#include "lucent/ui/LabelFileActions.h"
#include "lucent/ui/MeasureActions.h"
#include "lucent/ui/PacsActions.h"
#include "lucent/ui/RecordActions.h"
#include "lucent/ui/SegmentActions.h"
#include "lucent/ui/SegmentPanel.h"
#include "lucent/ui/SessionActions.h"
#include "lucent/ui/ViewActions.h"
#include "lucent/ui/WindowActions.h"
#if LUCENT_HAVE_VTK
#include "lucent/ui/View3DActions.h"
#endif

#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>

namespace lucent::ui {

void MainWindow::buildMenus() {
    auto* info = new InfoActions(&m_model, this, this);
    m_capture = new CaptureActions(&m_model, m_grid, this, this);
    connect(m_capture, &CaptureActions::message, statusBar(), &QStatusBar::showMessage);
    buildFileMenu(info);
    buildViewMenu();
    m_windows = new WindowActions(&m_model, this, this);
    m_windows->addTo(menuBar()->addMenu("&Window/Level"));
    m_helpMenu = menuBar()->addMenu("&Help");
    info->addHelpTo(m_helpMenu);
}

void MainWindow::buildFileMenu(InfoActions* info) {
    SessionHost host;
    host.window = this;
    host.openPath = [this](const QString& path) { return openPath(path); };
    host.openSession = [this](const QString& path) { return openSession(path); };
    host.saveSession = [this](bool ask) { return saveSessionInteractive(ask); };
    m_sessionActions = new SessionActions(std::move(host), this);
    auto* labelFiles = new LabelFileActions(&m_model, m_labelFiles, this);
    QMenu* file = menuBar()->addMenu("&File");
    m_sessionActions->addOpenTo(file);
    // The local study database and PACS nodes (query, retrieve; the labels sent back below).
    m_pacs->addOpenActions(file);
    m_sessionActions->addSaveTo(file);
    labelFiles->addTo(file);
    m_pacs->addSendAction(file);
    labelFiles->addCloseTo(file);
    m_sessionActions->addRecentTo(file);
    file->addSeparator();
    info->addTagsTo(file);
    m_capture->addSaveTo(file);
    file->addSeparator();
    m_sessionActions->addQuitTo(file);
}

void MainWindow::buildViewMenu() {
    QMenu* view = menuBar()->addMenu("&View");
    auto* views = new ViewActions(&m_model, m_grid, this);
    views->addTo(view);
    auto* cine = new CineActions(&m_model, m_cine, this);
    cine->addTo(view);
    connect(cine, &CineActions::message, statusBar(), &QStatusBar::showMessage);
#if LUCENT_HAVE_VTK
    if (View3DWidget* v3d = m_grid->view3D()) (new View3DActions(v3d, this, this))->addTo(view);
#endif
    // Mask opacity (bound to the model) and the cine rate.
    QToolBar* bar = addToolBar("Overlay");
    bar->setObjectName("overlayToolbar");
    views->addOpacityTo(bar);
    cine->addRateTo(bar);
}

void MainWindow::buildPanelMenus() {
    QAction* help = m_helpMenu->menuAction();
    const auto insert = [this, help](const QString& title) {
        auto* menu = new QMenu(title, menuBar());
        menuBar()->insertMenu(help, menu);
        return menu;
    };
    QMenu* edit = insert("&Edit");
    (new HistoryActions(&m_model, this))->addTo(edit);
    m_capture->addCopyTo(edit);
    QMenu* segment = insert("&Segment");
    auto* segmentActions = new SegmentActions(m_segment, this);
    segmentActions->addTo(segment);
    (new RecordActions(m_segment->recording(), this))->addTo(segment);
    segmentActions->addPanelTo(segment);
    (new LabelActions(m_labels, this))->addTo(insert("&Labels"));
    QMenu* tools = insert("&Tools");
    tools->setObjectName("toolsMenu");
    QMenu* measure = tools->addMenu("&Measure");
    measure->setObjectName("measureMenu");
    (new MeasureActions(m_measure, m_grid, this))->addTo(measure);
}

}  // namespace lucent::ui
