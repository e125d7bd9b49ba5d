/// @brief Layout switching and maximising for the view grid.
#include "lucent/ui/ViewGrid.h"

#if LUCENT_HAVE_VTK
#include "lucent/ui/View3DWidget.h"
#endif

#include <QGridLayout>
#include <QLabel>
#include <QOpenGLContext>
#include <QVBoxLayout>

namespace lucent::ui {

bool parseLayout(const QString& name, Layout& layout) {
    if (name == "1x1") layout = Layout::Single;
    else if (name == "2x2") layout = Layout::Grid2x2;
    else if (name == "1+3") layout = Layout::OnePlusThree;
    else return false;
    return true;
}

QString layoutName(Layout layout) {
    switch (layout) {
    case Layout::Single: return "1x1";
    case Layout::Grid2x2: return "2x2";
    case Layout::OnePlusThree: return "1+3";
    }
    return "2x2";
}

ViewGrid::ViewGrid(ViewerModel* model, QWidget* parent) : QWidget(parent) {
    // The volume goes onto the device when the viewer takes it, before any view paints it.
    connect(model, &ViewerModel::volumeAboutToChange, this, [this] { m_resident.release(); });
    connect(model, &ViewerModel::volumeChanged, this, [this, model] { m_resident.take(model->volume()); });
    m_resident.take(model->volume());
    m_grid = new QGridLayout(this);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(2);
    for (auto o : {render::Orientation::Axial, render::Orientation::Coronal, render::Orientation::Sagittal}) {
        auto* v = new SliceViewWidget(model, &m_textures, o, this);
        m_views[int(o)] = v;
        connect(v, &SliceViewWidget::activated, this, &ViewGrid::setActiveView);
        connect(v, &SliceViewWidget::hovered, this, &ViewGrid::hovered);
        connect(v, &SliceViewWidget::renderError, this, &ViewGrid::renderError);
    }
    m_free = new QFrame(this);
    m_free->setObjectName("freePane");
    m_free->setStyleSheet("#freePane { background: #101418; }");
    auto* freeLayout = new QVBoxLayout(m_free);
    freeLayout->setContentsMargins(0, 0, 0, 0);
#if LUCENT_HAVE_VTK
    m_view3d = new View3DWidget(model, m_free);
    freeLayout->addWidget(m_view3d);
#else
    // A build without VTK (the GPU machine's small bundle) keeps the slice views.
    auto* label = new QLabel("The 3D view is not in this build (built without VTK)", m_free);
    label->setStyleSheet("color: #607080;");
    label->setAlignment(Qt::AlignCenter);
    freeLayout->addWidget(label);
#endif
    setStyleSheet("background: #202428;");
    m_active = m_views[0];
    arrange();
    followDrawingSettings(model);
}

void ViewGrid::followDrawingSettings(ViewerModel* model) {
    const auto interpolation = [this](bool linear) {
        m_textures.setInterpolation(linear);
        updateViews();
    };
    const auto hud = [this](bool on) {
        for (auto* v : m_views) v->setHudVisible(on);
    };
    const auto planes = [this](render::PlaneMode mode) {
        for (auto* v : m_views) v->setPlaneMode(mode);
#if LUCENT_HAVE_VTK
        if (m_view3d) m_view3d->setPatientPlanes(mode == render::PlaneMode::Patient);  // the 3D view's planes follow
#endif
    };
    connect(model, &ViewerModel::linearInterpolationChanged, this, interpolation);
    connect(model, &ViewerModel::hudVisibleChanged, this, hud);
    connect(model, &ViewerModel::planeModeChanged, this, planes);
    // The model's defaults are the views' own: only a model set before the grid needs applying.
    if (model->linearInterpolation()) interpolation(true);
    if (!model->hudVisible()) hud(false);
    if (model->planeMode() != render::PlaneMode::Volume) planes(model->planeMode());
}

ViewGrid::~ViewGrid() {
    withGlContext([](SharedTextures& t) { t.release(); });
    m_resident.release();
}

bool ViewGrid::withGlContext(const std::function<void(SharedTextures&)>& f) {
    for (auto* v : m_views) {
        if (!v->context() || !v->context()->isValid()) continue;
        v->makeCurrent();
        f(m_textures);
        v->doneCurrent();
        return true;
    }
    return false;
}

void ViewGrid::updateViews() {
    for (auto* v : m_views) v->update();
}

void ViewGrid::setActiveView(SliceViewWidget* view) {
    // Hiding views while arranging moves the keyboard focus; that is not the user choosing a view.
    if (m_arranging || m_active == view) return;
    m_active = view;
    if (m_layout != Layout::Grid2x2 || m_maximised) arrange();
    emit activeViewChanged(view);
}

void ViewGrid::setLayoutMode(Layout layout) {
    m_layout = layout;
    m_maximised = false;
    arrange();
    emit layoutChanged(layout);
}

void ViewGrid::setActiveTool(ViewTool* tool) {
    if (tool == m_tool) return;
    m_tool = tool;
    for (auto* v : m_views) v->setTool(tool);
    emit activeToolChanged(tool);
}

void ViewGrid::toggleMaximised() {
    m_maximised = !m_maximised;
    arrange();
}

void ViewGrid::arrange() {
    m_arranging = true;
    arrangeWidgets();
    m_arranging = false;
}

void ViewGrid::arrangeWidgets() {
    for (QWidget* w : {static_cast<QWidget*>(m_views[0]), static_cast<QWidget*>(m_views[1]),
                       static_cast<QWidget*>(m_views[2]), static_cast<QWidget*>(m_free)}) {
        m_grid->removeWidget(w);
        w->hide();
    }
    for (int r = 0; r < 3; ++r) m_grid->setRowStretch(r, 0);
    for (int c = 0; c < 2; ++c) m_grid->setColumnStretch(c, 0);
    if (m_maximised || m_layout == Layout::Single) {
        m_grid->addWidget(m_active, 0, 0);
        m_active->show();
        return;
    }
    if (m_layout == Layout::Grid2x2) {
        m_grid->addWidget(m_views[0], 0, 0);
        m_grid->addWidget(m_views[1], 0, 1);
        m_grid->addWidget(m_views[2], 1, 0);
        m_grid->addWidget(m_free, 1, 1);
        for (int i = 0; i < 2; ++i) {
            m_grid->setRowStretch(i, 1);
            m_grid->setColumnStretch(i, 1);
        }
    } else {
        // 1+3: the active view large on the left, the other two views and the free pane stacked right.
        m_grid->addWidget(m_active, 0, 0, 3, 1);
        int row = 0;
        for (auto* v : m_views)
            if (v != m_active) m_grid->addWidget(v, row++, 1);
        m_grid->addWidget(m_free, row, 1);
        m_grid->setColumnStretch(0, 3);
        m_grid->setColumnStretch(1, 1);
        for (int r = 0; r < 3; ++r) m_grid->setRowStretch(r, 1);
    }
    for (auto* v : m_views) v->show();
    m_free->show();
}

}  // namespace lucent::ui
