/// @brief One 2D view (axial, coronal or sagittal) in a QOpenGLWidget: draws through render/ and
/// turns mouse and keys into model changes (scroll, window/level, zoom, pan, crosshair).
#pragma once

#include "lucent/render/Hud.h"
#include "lucent/render/HudState.h"
#include "lucent/render/SliceRenderer.h"
#include "lucent/render/SliceViewGeometry.h"
#include "lucent/ui/HudInput.h"
#include "lucent/ui/SharedTextures.h"
#include "lucent/ui/ViewerModel.h"

#include <QElapsedTimer>
#include <QOpenGLWidget>

#include <functional>
#include <vector>
#include <QPoint>

namespace lucent::ui {

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
    /// The volume's own planes (default) or the patient's resliced ones; repaints.
    void setPlaneMode(render::PlaneMode mode);
    render::PlaneMode planeMode() const { return m_view.planeMode(); }
    double zoom() const { return m_view.zoom(); }
    /// Zoom and pan (device pixels) as a session saved them; repaints.
    void setZoomPan(double zoom, std::array<double, 2> pan);
    /// Zoom and pan in mm along screen right and down (SliceViewGeometry::panMm), as sessions keep it.
    void setZoomPanMm(double zoom, std::array<double, 2> panMm);

    /// The run's figures for the HUD panel (hidden while `active` is false); repaints.
    void setHudState(const render::HudState& state);
    /// Screen-space lines and markers over the slice (device pixels); repaints.
    void setOverlay(const render::ViewOverlay& overlay);
    /// The left-button gesture while a segmentation tool is active (null: the crosshair); not owned.
    void setTool(class ViewTool* tool) { m_tool = tool; }
    /// Computes the overlay from the view's geometry at every frame (seeds, the snake's polygon),
    /// so that zoom, pan and slice changes move it with the image.
    void setOverlayProvider(std::function<render::ViewOverlay(const render::SliceViewGeometry&)> provider) {
        m_overlayProvider = std::move(provider);
    }
    /// Adds a layer drawn over the provider's overlay at every frame (the measurements): it stays
    /// when a panel replaces the provider, so annotations of different owners do not evict each other.
    void addOverlayLayer(std::function<void(const render::SliceViewGeometry&, render::ViewOverlay&)> layer) {
        m_overlayLayers.push_back(std::move(layer));
    }
    /// Shows or hides the HUD panel (the annotations stay); repaints.
    void setHudVisible(bool visible);
    /// The HUD as last drawn (its button rectangles, for tests).
    const render::Hud& hud() const { return m_hud; }

signals:
    /// Text for the status bar about the voxel under the mouse.
    void hovered(const QString& text);
    void activated(SliceViewWidget* view);
    void renderError(const QString& message);
    /// A HUD panel button was pressed (sent after the frame that saw it, not from inside paintGL).
    void hudAction(lucent::render::HudAction action);

protected:
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;

private:
    void syncGeometry();
    void drawHud();
    QPointF devicePoint(QPointF logical) const;
    void setCursorFrom(QPointF logical);
    /// Moves the cursor `delta` slices along this view's normal, or onto slice `index`.
    void stepSlices(int delta);
    void goToSlice(int index);

    ViewerModel* m_model;
    SharedTextures* m_textures;
    render::SliceViewGeometry m_view;
    render::SliceRenderer m_renderer;
    ViewPlanes m_planes;  // the plane it shows, where the volume is drawn from planes
    render::Hud m_hud;
    HudInput m_hudInput{this, &m_hud};
    render::HudState m_hudState;
    render::ViewOverlay m_overlay;
    class ViewTool* m_tool = nullptr;
    bool m_toolDrag = false;
    std::function<render::ViewOverlay(const render::SliceViewGeometry&)> m_overlayProvider;
    std::vector<std::function<void(const render::SliceViewGeometry&, render::ViewOverlay&)>> m_overlayLayers;
    QElapsedTimer m_clock;  // the HUD's animation time
    bool m_glReady = false;
    Qt::MouseButton m_dragButton = Qt::NoButton;
    QPointF m_dragStart;
    render::WindowLevel m_dragWindow;
    std::array<double, 2> m_dragPan{0, 0};
};

}  // namespace lucent::ui
