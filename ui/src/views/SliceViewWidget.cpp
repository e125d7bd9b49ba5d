/// @brief Slice view: GL drawing, the Dear ImGui HUD over it (annotations, overlay, run panel), and
/// interaction.
#include "lucent/ui/SliceViewWidget.h"

#include "lucent/core/StageTimes.h"
#include "lucent/render/ViewNavigation.h"
#include "lucent/ui/ViewTool.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QTimer>
#include <QWheelEvent>

#include <cmath>

namespace lucent::ui {

SliceViewWidget::SliceViewWidget(ViewerModel* model, SharedTextures* textures, render::Orientation orientation,
                                 QWidget* parent)
    : QOpenGLWidget(parent), m_model(model), m_textures(textures) {
    m_view.setOrientation(orientation);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(120, 120);
    setObjectName(QString("view_") + render::orientationName(orientation));
    m_clock.start();
    connect(model, &ViewerModel::volumeChanged, this, [this] {
        resetView();
    });
    // The label table too: a label hidden, recoloured or made fainter is redrawn at once.
    for (auto signal : {&ViewerModel::cursorChanged, &ViewerModel::windowChanged, &ViewerModel::labelsChanged,
                        &ViewerModel::labelTableChanged, &ViewerModel::frameChanged})
        connect(model, signal, this, qOverload<>(&QWidget::update));
    connect(model, &ViewerModel::overlayOpacityChanged, this, [this] { update(); });
}

SliceViewWidget::~SliceViewWidget() {
    if (m_glReady) {
        makeCurrent();
        m_renderer.release();
        m_planes.release();
        m_hud.release();
        doneCurrent();
    }
}

void SliceViewWidget::resetView() {
    m_view.setZoom(1.0);
    m_view.setPan(0, 0);
    update();
}

void SliceViewWidget::setZoomPan(double zoom, std::array<double, 2> pan) {
    m_view.setZoom(zoom);
    m_view.setPan(pan[0], pan[1]);
    update();
}

void SliceViewWidget::setZoomPanMm(double zoom, std::array<double, 2> panMm) {
    m_view.setZoom(zoom);
    m_view.setPanMm(panMm);
    update();
}

void SliceViewWidget::setPlaneMode(render::PlaneMode mode) {
    m_view.setPlaneMode(mode);
    update();
}

void SliceViewWidget::initializeGL() {
    std::string error;
    m_glReady = m_renderer.initialise(error);
    if (!m_glReady) emit renderError(QString::fromStdString(error));
    // The view still works without its HUD (no annotations): say so and go on.
    if (m_glReady && !m_hud.initialise(error)) emit renderError(QString::fromStdString(error));
}

void SliceViewWidget::setHudState(const render::HudState& state) {
    // A run that ended takes its panel with it now, not at the next paint: a click right after
    // Cancel where the panel was (a ruler's first point) belongs to the view.
    if (!state.active) m_hud.forgetPanel();
    m_hudState = state;
    update();
}

void SliceViewWidget::setOverlay(const render::ViewOverlay& overlay) {
    m_overlay = overlay;
    update();
}

void SliceViewWidget::setHudVisible(bool visible) {
    m_hud.setPanelVisible(visible);
    update();
}

void SliceViewWidget::resizeGL(int, int) { syncGeometry(); }

void SliceViewWidget::syncGeometry() {
    if (m_model->hasVolume()) m_view.setVolume(m_model->volume()->geometry());
    const qreal dpr = devicePixelRatioF();
    m_view.setViewport(int(std::lround(width() * dpr)), int(std::lround(height() * dpr)));
    m_view.setCursor(m_model->cursor());
}

void SliceViewWidget::paintGL() {
    stages::Scope scope("slice view: paint");
    syncGeometry();
    render::SliceStyle style;
    style.window = m_model->window();
    style.overlayOpacity = m_model->overlayOpacity();
    QString error;
    if (m_glReady && m_model->hasVolume() && !m_textures->sync(*m_model, error)) emit renderError(error);
    if (m_glReady) {
        const auto* planes = m_model->hasVolume() ? m_textures->preparePlanes(m_planes, m_view, *m_model) : nullptr;
        m_renderer.draw(m_view, m_textures->textures(), style, planes);
    }
    if (m_overlayProvider) m_overlay = m_overlayProvider(m_view);
    drawHud();

}

void SliceViewWidget::drawHud() {
    if (!m_hud.ready()) return;
    render::ViewAnnotations text;
    text.hasVolume = m_model->hasVolume();
    text.windowLevel = m_model->window().level;
    text.windowWidth = m_model->window().width;
    render::ViewOverlay overlay = m_overlay;
    for (const auto& layer : m_overlayLayers) layer(m_view, overlay);
    const render::HudAction action = m_hud.draw(m_view, text, m_hudState, overlay, float(devicePixelRatioF()),
                                                m_clock.nsecsElapsed() * 1e-9);
    // Queued: a receiver may change views or open dialogs, which must not happen inside paintGL.
    if (action != render::HudAction::None)
        QTimer::singleShot(0, this, [this, action] { emit hudAction(action); });
    m_hudInput.afterFrame();
}

QPointF SliceViewWidget::devicePoint(QPointF logical) const { return logical * devicePixelRatioF(); }

void SliceViewWidget::setCursorFrom(QPointF logical) {
    const QPointF d = devicePoint(logical);
    m_model->setCursor(m_view.screenToVoxel(d.x(), d.y()));
}

void SliceViewWidget::stepSlices(int delta) {
    syncGeometry();  // the cursor may have moved since the last frame
    goToSlice(m_view.slice() + delta);
}

void SliceViewWidget::goToSlice(int index) {
    syncGeometry();
    // In the volume's planes only the normal component changes; a resliced plane moves the cursor
    // along the patient normal (see SliceViewGeometry::cursorOnSlice).
    m_model->setCursor(m_view.cursorOnSlice(index));
}

void SliceViewWidget::wheelEvent(QWheelEvent* event) {
    if (m_hudInput.wheel(event)) return event->accept();  // over the HUD panel
    if (!m_model->hasVolume()) return;
    const int steps = event->angleDelta().y() / 120 ? event->angleDelta().y() / 120 : (event->angleDelta().y() > 0 ? 1 : -1);
    if (event->modifiers() & Qt::ControlModifier) {
        const QPointF d = devicePoint(event->position());
        render::zoomAbout(m_view, d.x(), d.y(), steps);
        update();
    } else {
        stepSlices(steps);
    }
    event->accept();
}

void SliceViewWidget::mousePressEvent(QMouseEvent* event) {
    if (m_hudInput.mousePress(event)) return;  // on the HUD panel
    emit activated(this);
    setFocus();
    m_dragButton = event->button();
    m_dragStart = event->position();
    m_dragWindow = m_model->window();
    m_dragPan = m_view.pan();
    if (event->button() == Qt::LeftButton && m_model->hasVolume()) {
        const QPointF d = devicePoint(event->position());
        m_toolDrag = m_tool && m_tool->press(m_view, d.x(), d.y(), event->modifiers() & Qt::ShiftModifier);
        if (m_toolDrag) return update();
        setCursorFrom(event->position());
    }
}

void SliceViewWidget::mouseMoveEvent(QMouseEvent* event) {
    if (m_hudInput.mouseMove(event)) return;  // over the HUD panel, or a drag that began there
    if (!m_model->hasVolume()) return;
    const QPointF d = devicePoint(event->position());
    emit hovered(m_model->describeVoxel(m_view.screenToVoxel(d.x(), d.y())));
    const QPointF delta = event->position() - m_dragStart;
    switch (m_dragButton) {
    case Qt::LeftButton:
        if (m_toolDrag) {
            m_tool->drag(m_view, d.x(), d.y());
            update();
        } else {
            setCursorFrom(event->position());
        }
        break;
    case Qt::RightButton: m_model->setWindow(render::dragWindow(m_dragWindow, delta.x(), delta.y())); break;
    case Qt::MiddleButton: {
        const auto pan = render::dragPan(m_dragPan, delta.x(), delta.y(), devicePixelRatioF());
        m_view.setPan(pan[0], pan[1]);
        update();
        break;
    }
    default:
        if (m_tool && m_tool->hover(m_view, d.x(), d.y())) update();  // the brush's outline follows
        break;
    }
}

void SliceViewWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (m_hudInput.mouseRelease(event)) return;  // ends a press on the HUD panel
    if (m_toolDrag && event->button() == Qt::LeftButton) {
        const QPointF d = devicePoint(event->position());
        m_toolDrag = false;
        m_tool->release(m_view, d.x(), d.y());
        update();
    }
    m_dragButton = Qt::NoButton;
}

void SliceViewWidget::keyPressEvent(QKeyEvent* event) {
    if (m_hudInput.keyPress(event)) return event->accept();  // an active HUD widget
    if (!m_model->hasVolume()) return QOpenGLWidget::keyPressEvent(event);
    switch (event->key()) {
    case Qt::Key_Up: stepSlices(1); break;
    case Qt::Key_Down: stepSlices(-1); break;
    case Qt::Key_PageUp: stepSlices(10); break;
    case Qt::Key_PageDown: stepSlices(-10); break;
    case Qt::Key_Home: goToSlice(0); break;
    case Qt::Key_End: goToSlice(m_view.sliceCount() - 1); break;
    case Qt::Key_R: resetView(); break;
    default: return QOpenGLWidget::keyPressEvent(event);  // presets and layout keys go to the window
    }
    event->accept();
}

void SliceViewWidget::keyReleaseEvent(QKeyEvent* event) {
    if (m_hudInput.keyRelease(event)) return event->accept();
    QOpenGLWidget::keyReleaseEvent(event);
}

void SliceViewWidget::leaveEvent(QEvent* event) {
    m_hudInput.leave();
    if (m_tool && m_tool->leave()) update();
    QOpenGLWidget::leaveEvent(event);
}

void SliceViewWidget::focusInEvent(QFocusEvent* event) {
    emit activated(this);
    QOpenGLWidget::focusInEvent(event);
}

}  // namespace lucent::ui
