/// @brief The 3D view in the viewer's free pane: a QOpenGLWidget driving render::Scene3D (VTK into
/// Qt's framebuffer, DESIGN.md section 3). It follows the model (volume, labels, cursor) and a
/// live run (its preview drawn directly as a label volume a few times a second); accepted labels
/// become smoothed surfaces built on a worker thread, shown as a label volume until they are ready.
#pragma once

#include "lucent/render/LabelSurfaceJob.h"
#include "lucent/render/Scene3D.h"
#include "lucent/ui/ViewerModel.h"

#include <QElapsedTimer>
#include <QOpenGLWidget>
#include <QPoint>
#include <QTimer>

namespace lucent::ui {

class LiveSegmentation;

class View3DWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit View3DWidget(ViewerModel* model, QWidget* parent = nullptr);
    ~View3DWidget() override;

    /// Shows the preview of `live`'s runs (not owned; it must outlive this widget or be reset).
    void followLive(LiveSegmentation* live);
    void setPreset(render::Preset3D preset);
    render::Preset3D preset() const { return m_scene.preset(); }
    /// The three slice planes and the crosshair at the cursor, shown or hidden.
    void setPlanesVisible(bool visible);
    /// The slice planes along the patient's axes, as the slice views in anatomical-planes mode.
    void setPatientPlanes(bool patient);
    bool planesVisible() const { return m_planesVisible; }
    /// Anterior view of the whole volume.
    void resetCamera();
    /// Mouse gestures without a mouse (tests, scripts): degrees, zoom factor, view fractions.
    void rotate(double azimuthDeg, double elevationDeg);
    void zoom(double factor);
    void pan(double dxFraction, double dyFraction);
    /// Renders and writes a PNG atomically (no partial file); false with `error` naming the file.
    bool saveScreenshot(const QString& path, QString* error = nullptr);
    /// Takes the live preview now, whatever the throttle (tests, scripts).
    void refreshLiveNow();
    /// The planes follow the cursor once it rests (kCursorRestMs without a move): true while a
    /// move waits for that.
    bool cursorMovePending() const { return m_cursorTimer.isActive(); }
    /// Moves the planes to the model's cursor now, as the rest timer does when it fires (tests:
    /// the debounce without waiting for it).
    void followCursorNow();
    /// Whether the surfaces of the current labels are shown (the label volume is gone then).
    bool surfacesReady() const { return m_labelSerial > 0 && m_surfaceSerial == m_labelSerial; }
    /// Triangles of the surfaces shown (0 without).
    std::size_t surfaceTriangles() const { return m_triangles; }

protected:
    void initializeGL() override;
    void paintGL() override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    void onVolume();
    void onLabels();
    void requestSurfaces();
    void onLiveFrame();
    void onLiveState();
    void onSurfaces(std::shared_ptr<const render::LabelSurfaces> surfaces, int serial);
    /// The label volume to draw: the live preview, else the accepted labels until their surfaces come.
    void showLabelVolume();
    void releaseGl();

    ViewerModel* m_model;
    LiveSegmentation* m_live = nullptr;
    render::Scene3D m_scene;
    bool m_userPreset = false;
    bool m_planesVisible = true;
    std::shared_ptr<const LabelMap> m_livePreview;
    QElapsedTimer m_liveClock;
    QTimer m_liveTimer;
    QTimer m_surfaceTimer;  // a burst of edits (brush strokes) makes one surface request
    QTimer m_cursorTimer;   // a run of cursor moves (scrolling, cine) moves the planes once it rests
    static constexpr int kCursorRestMs = 150;
    int m_labelSerial = 0, m_surfaceSerial = -1;
    std::size_t m_triangles = 0;
    QPoint m_last;
    Qt::MouseButton m_button = Qt::NoButton;
    bool m_panning = false;
    // Last member: destroyed first, so its thread is joined before anything it reports to goes.
    render::LabelSurfaceJob m_job;
};

}  // namespace lucent::ui
