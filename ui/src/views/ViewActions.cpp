/// @brief The View menu's layouts and drawing toggles and the mask opacity (ViewActions.h), bound to the
/// grid and the model.
#include "lucent/ui/ViewActions.h"

#include "ActionBinding.h"

#include "lucent/ui/SliceViewWidget.h"
#include "lucent/ui/ViewerModel.h"

#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QSlider>
#include <QToolBar>

#include <cmath>
#include <utility>

namespace lucent::ui {

ViewActions::ViewActions(ViewerModel* model, ViewGrid* grid, QObject* parent)
    : QObject(parent), m_model(model), m_grid(grid) {
    auto* layouts = new QActionGroup(this);
    const std::pair<const char*, Layout> modes[] = {{"1x1", Layout::Single}, {"2x2", Layout::Grid2x2}, {"1+3", Layout::OnePlusThree}};
    int n = 1;
    for (const auto& [name, layout] : modes) {
        QAction* a = makeAction(this, QString("Layout %1").arg(name), {QKeySequence(QString("Ctrl+%1").arg(n++))},
                                QString("layout_%1").arg(name));
        a->setCheckable(true);
        layouts->addAction(a);
        connect(a, &QAction::triggered, m_grid, [this, layout = layout] { m_grid->setLayoutMode(layout); });
        m_layouts[std::size_t(layout)] = a;
    }
    // Whoever arranges the grid (this menu, a session), the menu checks it and the next start keeps it.
    connect(m_grid, &ViewGrid::layoutChanged, this, [this](Layout layout) {
        QSettings().setValue("view/layout", layoutName(layout));
        m_layouts[std::size_t(layout)]->setChecked(true);
    });
    m_maximise = makeAction(this, "&Maximise view", {QKeySequence("M")});
    connect(m_maximise, &QAction::triggered, m_grid, [this] { m_grid->toggleMaximised(); });
    m_resetZoom = makeAction(this, "&Reset zoom and pan", {QKeySequence("Ctrl+R")});
    connect(m_resetZoom, &QAction::triggered, m_grid, [this] {
        for (auto o : {render::Orientation::Axial, render::Orientation::Coronal, render::Orientation::Sagittal})
            m_grid->view(o)->resetView();
    });
    bindDrawingToggles();
}

void ViewActions::bindDrawingToggles() {
    // Each toggle is bound both ways to the model, which the views follow: toggled (not triggered),
    // so that checking one in code switches the views too.
    m_linear = makeAction(this, "&Linear interpolation", {}, "linearInterpolation");
    m_linear->setCheckable(true);
    m_linear->setChecked(m_model->linearInterpolation());
    connect(m_linear, &QAction::toggled, m_model, &ViewerModel::setLinearInterpolation);
    connect(m_model, &ViewerModel::linearInterpolationChanged, m_linear, [this](bool on) { checkQuietly(m_linear, on); });
    // True anatomical planes: every 2D view reslices to the patient's axes (an oblique series is
    // resampled); off by default, remembered like the layout.
    m_planes = makeAction(this, "&Anatomical planes (reslice)", {QKeySequence("N")}, "anatomicalPlanes");
    m_planes->setCheckable(true);
    connect(m_planes, &QAction::toggled, m_model,
            [this](bool on) { m_model->setPlaneMode(on ? render::PlaneMode::Patient : render::PlaneMode::Volume); });
    connect(m_model, &ViewerModel::planeModeChanged, m_planes, [this](render::PlaneMode mode) {
        checkQuietly(m_planes, mode == render::PlaneMode::Patient);
        QSettings().setValue("view/anatomicalPlanes", mode == render::PlaneMode::Patient);
    });
    m_planes->setChecked(QSettings().value("view/anatomicalPlanes", false).toBool());
    m_hud = makeAction(this, "&Heads-up display", {QKeySequence("H")}, "hudToggle");
    m_hud->setCheckable(true);
    m_hud->setChecked(m_model->hudVisible());
    connect(m_hud, &QAction::toggled, m_model, &ViewerModel::setHudVisible);
    connect(m_model, &ViewerModel::hudVisibleChanged, m_hud, [this](bool on) { checkQuietly(m_hud, on); });
}

void ViewActions::addTo(QMenu* view) {
    for (QAction* a : m_layouts) view->addAction(a);
    view->addActions({m_maximise, m_resetZoom, m_linear, m_planes, m_hud});
}

void ViewActions::addOpacityTo(QToolBar* bar) {
    bar->addWidget(new QLabel(" Mask opacity ", bar));
    m_opacity = new QSlider(Qt::Horizontal, bar);
    m_opacity->setRange(0, 100);
    m_opacity->setValue(int(std::lround(m_model->overlayOpacity() * 100)));
    m_opacity->setMaximumWidth(160);
    m_opacity->setObjectName("opacitySlider");
    bar->addWidget(m_opacity);
    // Bound both ways: the slider sets the model; the model (a session) moves the slider.
    connect(m_opacity, &QSlider::valueChanged, m_model, [this](int v) { m_model->setOverlayOpacity(v / 100.0f); });
    connect(m_model, &ViewerModel::overlayOpacityChanged, m_opacity, [this](float opacity) {
        const QSignalBlocker quiet(m_opacity);
        m_opacity->setValue(int(std::lround(opacity * 100)));
    });
}

}  // namespace lucent::ui
