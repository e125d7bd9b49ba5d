/// @brief One 2D view (axial, coronal or sagittal) in a QOpenGLWidget: draws through render/ and
/// turns mouse and keys into model changes (scroll, window/level, zoom, pan, crosshair).
#pragma once

#include "lucent/render/SliceRenderer.h"
#include "lucent/render/SliceViewGeometry.h"
#include "lucent/ui/SharedTextures.h"
#include "lucent/ui/ViewerModel.h"

#include <QOpenGLWidget>
#include <QPoint>

class QPainter;

namespace lucent::ui {

class SliceViewWidget;

/// Transparent child on top of a view that paints its annotations with the raster engine.
class ViewAnnotations : public QWidget {
public:
    explicit ViewAnnotations(SliceViewWidget* view);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    SliceViewWidget* m_view;
};

class SliceViewWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    SliceViewWidget(ViewerModel* model, SharedTextures* textures, render::Orientation orientation,
                    QWidget* parent = nullptr);
    ~SliceViewWidget() override;

    render::Orientation orientation() const { return m_view.orientation(); }
    /// The geometry as last drawn (viewport in device pixels).
    const render::SliceViewGeometry& view() const { return m_view; }
    /// Zoom 1, no pan.
    void resetView();
    double zoom() const { return m_view.zoom(); }

signals:
    /// Text for the status bar about the voxel under the mouse.
    void hovered(const QString& text);
    void activated(SliceViewWidget* view);
    void renderError(const QString& message);

protected:
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    friend class ViewAnnotations;
    void syncGeometry();
    QPointF devicePoint(QPointF logical) const;
    void setCursorFrom(QPointF logical);
    void paintAnnotations(QPainter& painter);

    ViewerModel* m_model;
    SharedTextures* m_textures;
    render::SliceViewGeometry m_view;
    render::SliceRenderer m_renderer;
    ViewAnnotations* m_annotations = nullptr;
    bool m_glReady = false;
    Qt::MouseButton m_dragButton = Qt::NoButton;
    QPointF m_dragStart;
    render::WindowLevel m_dragWindow;
    std::array<double, 2> m_dragPan{0, 0};
};

}  // namespace lucent::ui
