/// @brief The 3D view widget: GL life cycle, following the model and a live run, surfaces from the
/// worker, mouse gestures (left rotate, right / wheel zoom, middle or shift-left pan), screenshots.
#include "lucent/ui/View3DWidget.h"

#include "lucent/core/StageTimes.h"
#include "CrossThread.h"

#include "lucent/ui/ViewCapture.h"
#include "lucent/ui/LivePreviewSource.h"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QWheelEvent>

#include <cmath>
#include <utility>

namespace lucent::ui {

namespace {
constexpr int kLiveIntervalMs = 250;  // the live label volume is re-uploaded at most 4 times a second
// A live copy is taken this long after the frame that asked for it at the soonest: never inside that
// frame, so the slice views show a change (a stroke's update) without waiting for the 3D pane's copy.
constexpr int kLiveDelayMs = 40;
constexpr double kDegreesPerPixel = 0.4;
constexpr int kSurfaceDelayMs = 300;  // surfaces (and a brush's label volume) wait for a pause in the edits
}  // namespace

View3DWidget::View3DWidget(ViewerModel* model, QWidget* parent)
    : QOpenGLWidget(parent), m_model(model),
      m_job([this](std::shared_ptr<const render::LabelSurfaces> s, int serial) {
          // From the job's thread: hand over to the GUI thread (dropped if this widget is gone).
          callQueued(this, [this, s = std::move(s), serial] { onSurfaces(s, serial); });
      }),
      m_liveJob(
          [this](std::shared_ptr<const render::LabelSurfaces> s, int serial) {
              callQueued(this, [this, s = std::move(s), serial] { onLiveSurfaces(s, serial); });
          },
          kLiveTriangles) {
    setObjectName("view3d");
    setMinimumSize(64, 64);
    m_liveTimer.setSingleShot(true);
    connect(&m_liveTimer, &QTimer::timeout, this, &View3DWidget::refreshLiveNow);
    m_surfaceTimer.setSingleShot(true);
    m_surfaceTimer.setInterval(kSurfaceDelayMs);
    connect(&m_surfaceTimer, &QTimer::timeout, this, [this] {
        if (std::exchange(m_labelVolumeDue, false)) {
            showLabelVolume();
            update();
        }
        requestSurfaces();
    });
    connect(model, &ViewerModel::labelTableChanged, this, [this] {
        m_scene.setLabelTable(m_model->labelTable());
        update();
    });
    connect(model, &ViewerModel::volumeChanged, this, &View3DWidget::onVolume);
    connect(model, &ViewerModel::labelsChanged, this, &View3DWidget::onLabels);
    // The planes follow the cursor once it rests: scrolling through slices redraws the slice views
    // every step, but a ray-cast frame of the 3D pane (slow on a software GL) would stall each one.
    m_cursorTimer.setSingleShot(true);
    m_cursorTimer.setInterval(kCursorRestMs);
    connect(&m_cursorTimer, &QTimer::timeout, this, &View3DWidget::followCursorNow);
    connect(model, &ViewerModel::cursorChanged, this, [this] { m_cursorTimer.start(); });
    m_liveClock.start();
    onVolume();
}

void View3DWidget::followCursorNow() {
    m_cursorTimer.stop();
    m_scene.setCursor(m_model->cursor());
    update();
}

View3DWidget::~View3DWidget() {
    m_job.cancel();
    m_liveJob.cancel();
    releaseGl();
    // QOpenGLWidget's destructor, after this one and after m_scene is gone, destroys the context:
    // its aboutToBeDestroyed must not call releaseGl on a scene that no longer exists.
    if (context()) disconnect(context(), nullptr, this, nullptr);
}

void View3DWidget::releaseGl() {
    if (!m_scene.glReady() || !context() || !context()->isValid()) return;
    makeCurrent();
    m_scene.releaseGl();
    doneCurrent();
}

void View3DWidget::initializeGL() {
    // VTK's GL objects belong to this context: free them while it is still there.
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &View3DWidget::releaseGl, Qt::DirectConnection);
    m_scene.initializeGl();
}

void View3DWidget::paintGL() {
    stages::Scope scope(std::exchange(m_newLiveSurfaces, false) ? "3D pane: paint with new live surfaces" : "3D pane: paint");
    const double dpr = devicePixelRatioF();
    m_scene.render(int(std::lround(width() * dpr)), int(std::lround(height() * dpr)));
}

void View3DWidget::onVolume() {
    m_surfaceTimer.stop();
    m_job.cancel();
    clearLive();
    m_surfaceSerial = -1;
    m_triangles = 0;
    const auto volume = m_model->volume();
    m_scene.setVolume(volume);  // also drops labels and surfaces
    if (volume && !m_userPreset)
        m_scene.setPreset(render::defaultPreset3D(volume->metadata().modality, m_scene.valueRange().first));
    if (volume) m_scene.setCursor(m_model->cursor());
    onLabels();
}

void View3DWidget::onLabels() {
    ++m_labelSerial;
    const auto labels = m_model->labels();
    if (!labels || !m_model->hasVolume()) {
        m_surfaceTimer.stop();
        m_job.cancel();
        m_scene.setSurfaces(nullptr);
        m_triangles = 0;
        m_surfaceSerial = -1;
    } else {
        m_job.cancel();  // stale now; the next request waits for a pause in the edits
        m_surfaceTimer.start();
        // A brush edits the layer at every dab (a box): the label volume (the layer copied, coarse
        // above the budget, and uploaded whole) waits for the pause too, so that a dab costs the slice
        // views' box, not a 3D rebuild and ray cast. Labels loaded, cleared or accepted show at once.
        if (m_model->lastLabelChange()) {
            m_labelVolumeDue = true;
            return;
        }
    }
    m_labelVolumeDue = false;
    showLabelVolume();
    update();
}

void View3DWidget::requestSurfaces() {
    // The layer changes in place on this thread: the job gets its own copy.
    if (const auto labels = m_model->labels(); labels && m_model->hasVolume()) m_job.request(*labels, m_labelSerial);
}

void View3DWidget::onSurfaces(std::shared_ptr<const render::LabelSurfaces> surfaces, int serial) {
    if (serial != m_labelSerial) return;  // labels changed again since: a newer build is coming
    m_surfaceSerial = serial;
    m_triangles = surfaces ? render::surfaceFigures(*surfaces).triangles : 0;
    m_scene.setSurfaces(std::move(surfaces));
    showLabelVolume();
    update();
}

void View3DWidget::showLabelVolume() {
    const LabelTable& table = m_model->labelTable();  // the slice views' colours
    if (m_model->labels() && m_model->hasVolume() && m_surfaceSerial != m_labelSerial)
        m_scene.setLabelVolume(m_model->labels(), table);
    else m_scene.setLabelVolume(nullptr, table);
}

void View3DWidget::forgetLive() {
    m_live = nullptr;
    clearLive();
}

void View3DWidget::onLiveShownValues() {
    if (m_live && m_live->active() && isVisible()) refreshLiveNow();
}

void View3DWidget::onLiveTargets() {
    if (!m_live) return;
    m_scene.setLiveTargets(m_live->previewTargets());  // the slice views' preview colours, in 3D
    update();
}

void View3DWidget::onLiveFrame() {
    if (!m_live || !isVisible() || m_liveTimer.isActive()) return;  // the timer's copy shows this frame too
    // The copy waits for the worker between two advances and reads the whole preview (on the device
    // for a CUDA run): from the timer, after the frame that brought the change has been drawn.
    const qint64 since = m_liveClock.elapsed();
    m_liveTimer.start(int(std::max<qint64>(kLiveDelayMs, kLiveIntervalMs - since)));
}

void View3DWidget::onLiveState() {
    // Draft rays while a run keeps the pane busy; full quality once it is over.
    m_scene.setDraft(m_live && m_live->active());
    if (m_live && m_live->active()) {
        // A run that stopped (finished, paused) is shown like its frames, at most 4 times a second:
        // a dragged interval stops and restarts a run every frame, and each copy costs a pass over
        // the device labels and a new surface. The timer shows the last state.
        onLiveFrame();
        return;
    }
    m_liveTimer.stop();
    clearLive();
    update();
}

void View3DWidget::refreshLiveNow() {
    m_liveClock.restart();
    if (!m_live) return;
    stages::Scope scope("3D pane: the live copy taken");
    LabelMap cells;
    if (!m_live->copyPreviewReduced(kLiveCells, cells)) return;
    m_liveJob.request(std::move(cells), ++m_liveSerial);
}

void View3DWidget::onLiveSurfaces(std::shared_ptr<const render::LabelSurfaces> surfaces, int serial) {
    // A copy taken before the run ended (or before a newer copy) is not shown.
    if (serial != m_liveSerial || !m_live || !m_live->active()) return;
    stages::Scope scope("3D pane: live surfaces set");
    m_liveShown = serial;
    m_liveTriangles = surfaces ? render::surfaceFigures(*surfaces).triangles : 0;
    m_scene.setLiveSurfaces(std::move(surfaces));
    m_newLiveSurfaces = true;
    update();
}

void View3DWidget::clearLive() {
    m_liveJob.cancel();
    ++m_liveSerial;  // a build still running reports a stale serial
    m_liveShown = m_liveSerial;
    m_liveTriangles = 0;
    m_scene.setLiveSurfaces(nullptr);
}

void View3DWidget::setPreset(render::Preset3D preset) {
    m_userPreset = true;
    m_scene.setPreset(preset);
    update();
}

void View3DWidget::setPlanesVisible(bool visible) {
    m_planesVisible = visible;
    m_scene.setPlanesVisible(visible);
    update();
}

void View3DWidget::setPatientPlanes(bool patient) {
    m_scene.setPatientPlanes(patient);
    update();
}

void View3DWidget::resetCamera() {
    m_scene.resetCamera();
    update();
}

void View3DWidget::rotate(double azimuthDeg, double elevationDeg) {
    m_scene.rotate(azimuthDeg, elevationDeg);
    update();
}

void View3DWidget::zoom(double factor) {
    m_scene.zoom(factor);
    update();
}

void View3DWidget::pan(double dxFraction, double dyFraction) {
    m_scene.pan(dxFraction, dyFraction);
    update();
}

bool View3DWidget::saveScreenshot(const QString& path, QString* error) {
    const QImage image = grabFramebuffer();
    if (image.isNull()) {
        if (error) *error = QString("%1: the 3D view could not be rendered").arg(path);
        return false;
    }
    return saveImagePng(image, path, error);  // encoded and written as every capture is
}

void View3DWidget::mousePressEvent(QMouseEvent* event) {
    m_last = event->position().toPoint();
    m_button = event->button();
    m_panning = m_button == Qt::MiddleButton || (m_button == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
}

void View3DWidget::mouseMoveEvent(QMouseEvent* event) {
    if (m_button == Qt::NoButton) return;
    const QPoint p = event->position().toPoint(), d = p - m_last;
    m_last = p;
    if (m_panning) pan(double(d.x()) / std::max(1, width()), -double(d.y()) / std::max(1, height()));
    else if (m_button == Qt::LeftButton) rotate(-d.x() * kDegreesPerPixel, d.y() * kDegreesPerPixel);
    else if (m_button == Qt::RightButton) zoom(std::pow(1.01, -d.y()));
}

void View3DWidget::mouseReleaseEvent(QMouseEvent*) {
    m_button = Qt::NoButton;
    m_panning = false;
}

void View3DWidget::mouseDoubleClickEvent(QMouseEvent*) { resetCamera(); }

void View3DWidget::wheelEvent(QWheelEvent* event) {
    zoom(std::pow(1.1, event->angleDelta().y() / 120.0));
    event->accept();
}

}  // namespace lucent::ui
