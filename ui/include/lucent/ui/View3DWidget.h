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

class LivePreviewSource;

class View3DWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit View3DWidget(ViewerModel* model, QWidget* parent = nullptr);
    ~View3DWidget() override;

    /// Shows the preview of `live`'s runs (not owned; forgetLive() before it goes). The window connects
    /// the run's signals to the slots below.
    void followLive(LivePreviewSource* live) { m_live = live; }
    void forgetLive();
    void setPreset(render::Preset3D preset);
    render::Preset3D preset() const { return m_scene.preset(); }
    /// The scene's voxel budget (render::Scene3D::setShownVoxels) and the grid it ray-casts.
    void setShownVoxels(std::size_t voxels) { m_scene.setShownVoxels(voxels); }
    Geometry shownGeometry() const { return m_scene.shownGeometry(); }
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
    /// Takes the live preview now, whatever the throttle (tests, scripts): a coarse copy of the run's
    /// result (at most kLiveCells cells, made on the device for a CUDA run) goes to the live surface
    /// job; its smoothed surfaces show when built (liveSurfacesShown()).
    void refreshLiveNow();
    /// The number of the last live copy taken, and of the last one shown as surfaces (equal once
    /// the surfaces of the latest copy are on screen).
    int liveCopiesTaken() const { return m_liveSerial; }
    int liveCopyShown() const { return m_liveShown; }
    /// Triangles of the live surfaces shown (0 without).
    std::size_t liveTriangles() const { return m_liveTriangles; }
    /// Cells of the coarse live copy: the 3D detail of a live run, whatever the volume's size.
    static constexpr std::size_t kLiveCells = std::size_t(1) << 21;
    /// The live surfaces' triangles at most (coarser cells beyond): the paint that uploads them
    /// stays a few milliseconds, whatever shape the run's labels take.
    static constexpr std::size_t kLiveTriangles = 60000;
    /// The planes follow the cursor once it rests (kCursorRestMs without a move): true while a
    /// move waits for that.
    bool cursorMovePending() const { return m_cursorTimer.isActive(); }
    /// Moves the planes to the model's cursor now, as the rest timer does when it fires (tests:
    /// the debounce without waiting for it).
    void followCursorNow();
    /// Whether the surfaces of the current labels are shown (the label volume is gone then).
    bool surfacesReady() const { return m_labelSerial > 0 && m_surfaceSerial == m_labelSerial; }
    /// Whether the labels are drawn as a label volume (until their surfaces come, and after a brush's pause).
    bool labelVolumeShown() const { return m_scene.labelVolumeShown(); }
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

public slots:
    /// The run drew a frame: a new live copy, at most 4 times a second.
    void onLiveFrame();
    /// The run started, stopped or finished.
    void onLiveState();
    /// Other preview values are shown (fuzzy C-means' clusters ticked).
    void onLiveShownValues();
    /// The preview's colours changed (LivePreviewSource::previewTargets).
    void onLiveTargets();

private:
    void onVolume();
    void onLabels();
    void requestSurfaces();
    void onSurfaces(std::shared_ptr<const render::LabelSurfaces> surfaces, int serial);
    void onLiveSurfaces(std::shared_ptr<const render::LabelSurfaces> surfaces, int serial);
    void clearLive();
    /// The label volume to draw: the accepted labels until their surfaces come.
    void showLabelVolume();
    void releaseGl();

    ViewerModel* m_model;
    LivePreviewSource* m_live = nullptr;
    render::Scene3D m_scene;
    bool m_userPreset = false;
    bool m_planesVisible = true;
    bool m_newLiveSurfaces = false;  // the next paint uploads live surfaces (timed apart by the benchmark)
    bool m_labelVolumeDue = false;   // a brush's edits wait for a pause to be shown (m_surfaceTimer)
    int m_liveSerial = 0, m_liveShown = 0;
    std::size_t m_liveTriangles = 0;
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
    // Last members: destroyed first, so their threads are joined before anything they report to goes.
    render::LabelSurfaceJob m_job;
    render::LabelSurfaceJob m_liveJob;  // the live run's surfaces, from the coarse copy
};

}  // namespace lucent::ui
