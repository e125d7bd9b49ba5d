/// @brief Slice view: GL drawing, overlays painted with QPainter, and interaction.
#include "lucent/ui/SliceViewWidget.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
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
    m_annotations = new ViewAnnotations(this);
    connect(model, &ViewerModel::volumeChanged, this, [this] {
        resetView();
    });
    for (auto signal : {&ViewerModel::cursorChanged, &ViewerModel::windowChanged, &ViewerModel::labelsChanged})
        connect(model, signal, this, qOverload<>(&QWidget::update));
}

SliceViewWidget::~SliceViewWidget() {
    if (m_glReady) {
        makeCurrent();
        m_renderer.release();
        doneCurrent();
    }
}

void SliceViewWidget::resetView() {
    m_view.setZoom(1.0);
    m_view.setPan(0, 0);
    update();
}

void SliceViewWidget::initializeGL() {
    std::string error;
    m_glReady = m_renderer.initialise(error);
    if (!m_glReady) emit renderError(QString::fromStdString(error));
}

void SliceViewWidget::resizeGL(int, int) { syncGeometry(); }

void SliceViewWidget::resizeEvent(QResizeEvent* event) {
    QOpenGLWidget::resizeEvent(event);
    m_annotations->setGeometry(rect());
}

ViewAnnotations::ViewAnnotations(SliceViewWidget* view) : QWidget(view), m_view(view) {
    // Painted by the raster engine on top of the GL image: letters, scale bar, slice, window.
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setAttribute(Qt::WA_TranslucentBackground);
    setGeometry(view->rect());
}

void ViewAnnotations::paintEvent(QPaintEvent*) {
    QPainter p(this);
    m_view->paintAnnotations(p);
}

void SliceViewWidget::syncGeometry() {
    if (m_model->hasVolume()) m_view.setVolume(m_model->volume()->geometry());
    const qreal dpr = devicePixelRatioF();
    m_view.setViewport(int(std::lround(width() * dpr)), int(std::lround(height() * dpr)));
    m_view.setCursor(m_model->cursor());
}

void SliceViewWidget::paintGL() {
    syncGeometry();
    render::SliceStyle style;
    style.window = m_model->window();
    style.overlayOpacity = m_model->overlayOpacity();
    QString error;
    if (m_glReady && m_model->hasVolume() && !m_textures->sync(*m_model, error)) emit renderError(error);
    if (m_glReady) m_renderer.draw(m_view, m_textures->textures(), style);
    m_annotations->update();
}

void SliceViewWidget::paintAnnotations(QPainter& p) {
    p.setRenderHint(QPainter::TextAntialiasing);
    QFont font = p.font();
    font.setPointSizeF(10);
    font.setBold(true);
    p.setFont(font);
    p.setPen(QColor(120, 200, 255));
    const int w = width(), h = height();
    p.drawText(QRect(6, 4, 200, 18), Qt::AlignLeft, QString(render::orientationName(m_view.orientation())).toUpper());
    if (!m_model->hasVolume()) {
        p.setPen(QColor(160, 160, 160));
        p.drawText(rect(), Qt::AlignCenter, "Open a DICOM folder or a volume file\n(File menu or drag and drop)");
        return;
    }
    // Orientation letters on the four edges.
    p.setPen(QColor(255, 200, 60));
    const auto letter = [&](int e) { return QString::fromStdString(m_view.edgeLetter(e)); };
    p.drawText(QRect(w - 40, h / 2 - 10, 34, 20), Qt::AlignRight | Qt::AlignVCenter, letter(0));
    p.drawText(QRect(6, h / 2 - 10, 34, 20), Qt::AlignLeft | Qt::AlignVCenter, letter(1));
    p.drawText(QRect(w / 2 - 20, 4, 40, 18), Qt::AlignHCenter | Qt::AlignTop, letter(2));
    p.drawText(QRect(w / 2 - 20, h - 22, 40, 18), Qt::AlignHCenter | Qt::AlignBottom, letter(3));
    // Slice number, and a scale bar of a round length near a fifth of the width.
    p.setPen(QColor(220, 220, 220));
    p.drawText(QRect(w - 160, 4, 154, 18), Qt::AlignRight,
               QString("slice %1 / %2").arg(m_view.slice() + 1).arg(m_view.sliceCount()));
    const double pxPerMm = m_view.pixelsPerMm() / devicePixelRatioF();
    if (pxPerMm > 0) {
        const double target = w / 5.0 / pxPerMm;
        const double steps[] = {1, 2, 5, 10, 20, 50, 100, 200, 500};
        double mm = steps[0];
        for (double s : steps)
            if (s <= target) mm = s;
        const int len = int(std::lround(mm * pxPerMm));
        const int x0 = w - 16 - len, y0 = h - 30;
        p.setPen(QPen(QColor(230, 230, 230), 2));
        p.drawLine(x0, y0, x0 + len, y0);
        p.drawLine(x0, y0 - 4, x0, y0 + 4);
        p.drawLine(x0 + len, y0 - 4, x0 + len, y0 + 4);
        p.drawText(QRect(x0 - 20, y0 + 2, len + 40, 16), Qt::AlignHCenter, QString("%1 mm").arg(mm));
    }
    const auto wl = m_model->window();
    p.drawText(QRect(6, h - 22, 240, 18), Qt::AlignLeft, QString("W %1  L %2").arg(wl.width, 0, 'f', 0).arg(wl.level, 0, 'f', 0));
}

QPointF SliceViewWidget::devicePoint(QPointF logical) const { return logical * devicePixelRatioF(); }

void SliceViewWidget::setCursorFrom(QPointF logical) {
    const QPointF d = devicePoint(logical);
    m_model->setCursor(m_view.screenToVoxel(d.x(), d.y()));
}

void SliceViewWidget::wheelEvent(QWheelEvent* event) {
    if (!m_model->hasVolume()) return;
    const int steps = event->angleDelta().y() / 120 ? event->angleDelta().y() / 120 : (event->angleDelta().y() > 0 ? 1 : -1);
    if (event->modifiers() & Qt::ControlModifier) {
        // Zoom about the point under the mouse: keep its voxel where it is on screen.
        const QPointF d = devicePoint(event->position());
        const Vec3 anchor = m_view.screenToVoxel(d.x(), d.y());
        m_view.setZoom(std::clamp(m_view.zoom() * std::pow(1.15, steps), 0.1, 50.0));
        const auto moved = m_view.voxelToScreen(anchor);
        const auto pan = m_view.pan();
        m_view.setPan(pan[0] + d.x() - moved[0], pan[1] + d.y() - moved[1]);
        update();
    } else {
        m_model->moveCursor(m_view.normalAxis(), steps);
    }
    event->accept();
}

void SliceViewWidget::mousePressEvent(QMouseEvent* event) {
    emit activated(this);
    setFocus();
    m_dragButton = event->button();
    m_dragStart = event->position();
    m_dragWindow = m_model->window();
    m_dragPan = m_view.pan();
    if (event->button() == Qt::LeftButton && m_model->hasVolume()) setCursorFrom(event->position());
}

void SliceViewWidget::mouseMoveEvent(QMouseEvent* event) {
    if (!m_model->hasVolume()) return;
    const QPointF d = devicePoint(event->position());
    emit hovered(m_model->describeVoxel(m_view.screenToVoxel(d.x(), d.y())));
    const QPointF delta = event->position() - m_dragStart;
    switch (m_dragButton) {
    case Qt::LeftButton: setCursorFrom(event->position()); break;
    case Qt::RightButton: {
        // Right: wider, left: narrower; down: brighter (lower level), up: darker. Speed follows the window.
        const double speed = std::max(1.0, m_dragWindow.width / 200.0);
        m_model->setWindow({m_dragWindow.level - delta.y() * speed, std::max(1.0, m_dragWindow.width + delta.x() * speed)});
        break;
    }
    case Qt::MiddleButton: {
        const qreal dpr = devicePixelRatioF();
        m_view.setPan(m_dragPan[0] + delta.x() * dpr, m_dragPan[1] + delta.y() * dpr);
        update();
        break;
    }
    default: break;
    }
}

void SliceViewWidget::mouseReleaseEvent(QMouseEvent*) { m_dragButton = Qt::NoButton; }

void SliceViewWidget::keyPressEvent(QKeyEvent* event) {
    if (!m_model->hasVolume()) return QOpenGLWidget::keyPressEvent(event);
    const int n = m_view.normalAxis();
    switch (event->key()) {
    case Qt::Key_Up: m_model->moveCursor(n, 1); break;
    case Qt::Key_Down: m_model->moveCursor(n, -1); break;
    case Qt::Key_PageUp: m_model->moveCursor(n, 10); break;
    case Qt::Key_PageDown: m_model->moveCursor(n, -10); break;
    case Qt::Key_Home: m_model->moveCursor(n, -m_view.sliceCount()); break;
    case Qt::Key_End: m_model->moveCursor(n, m_view.sliceCount()); break;
    case Qt::Key_R: resetView(); break;
    default: return QOpenGLWidget::keyPressEvent(event);  // presets and layout keys go to the window
    }
    event->accept();
}

void SliceViewWidget::focusInEvent(QFocusEvent* event) {
    emit activated(this);
    QOpenGLWidget::focusInEvent(event);
}

}  // namespace lucent::ui
