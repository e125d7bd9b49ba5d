/// @brief Engines on the worker, frames on the GUI timer: start, commands, the per-frame upload
/// (interop or host box), voxel counting, accept and cancel.
#include "lucent/ui/LiveSegmentation.h"
#include "lucent/ui/RecordingPlan.h"

#include "lucent/core/HostVolumeWork.h"
#include "lucent/core/StageTimes.h"
#include "lucent/core/Errors.h"
#include "lucent/core/LabelReduction.h"
#include "lucent/core/seg/SnakeSlices.h"
#include "lucent/core/ParallelFor.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <QThread>

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>

namespace lucent::ui {

namespace {

std::size_t countInBox(const LabelMap& map, const VoxelBox& box) {
    const auto& d = map.geometry().dims;
    hostwork::note(box.voxelCount());
    std::size_t n = 0;
    for (int k = std::max(0, box.lo[2]); k <= std::min(box.hi[2], d[2] - 1); ++k)
        for (int j = std::max(0, box.lo[1]); j <= std::min(box.hi[1], d[1] - 1); ++j) {
            const std::uint8_t* row = map.data() + map.geometry().index(0, j, k);
            for (int i = std::max(0, box.lo[0]); i <= std::min(box.hi[0], d[0] - 1); ++i) n += row[i] != 0;
        }
    return n;
}

/// True for an engine (or published state) that runs on the device.
bool onCuda(std::string_view backend) { return backendFromKey(backend) == Backend::Cuda; }

}  // namespace

LiveSegmentation::LiveSegmentation(ViewerModel* model, ViewGrid* grid, QObject* parent)
    : QObject(parent), m_model(model), m_grid(grid), m_gridAlive(grid) {
    // A view that shows another plane of the live preview reads the label sink between the
    // worker's writes.
    m_grid->textures().setPreviewAccess([this](const std::function<void()>& read) {
        if (m_worker) m_worker->read(read);
        else read();
    });
    // One timer drives every view: the views only draw (three views must not step three times).
    m_timer.setInterval(15);
    connect(&m_timer, &QTimer::timeout, this, &LiveSegmentation::frameNow);
    // The run and its hold on the device go before the next volume is taken onto it.
    connect(model, &ViewerModel::volumeAboutToChange, this, &LiveSegmentation::resetForVolume);
    connect(model, &ViewerModel::volumeChanged, this, &LiveSegmentation::resetForVolume);
    m_clock.start();
}

LiveSegmentation::~LiveSegmentation() {
    if (m_gridAlive) {
        m_grid->textures().setPreviewAccess({});
        m_grid->textures().forgetPreviewSource();
    }
    m_worker.reset();  // joins the thread before the volume and the context go
}

void LiveSegmentation::resetForVolume() {
    m_grid->textures().forgetPreviewSource();  // the label sink goes with the context
    if (m_worker) m_worker->cancel();
    m_worker.reset();
    m_context.reset();
    m_heatSlot = -1;
    m_volume.reset();
    forgetRun();
    emit stateChanged();
}

bool LiveSegmentation::start(Method method, SegmentationRequest request, bool play, QString* error) {
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        return false;
    };
    if (!m_model->hasVolume()) return fail("Open a volume first.");
    if (m_model->volume() != m_volume) {
        resetForVolume();
        m_volume = m_model->volume();
    }
    if (!m_worker) m_worker = std::make_unique<SessionWorker>();
    else m_worker->cancel();
    request.volume = m_volume.get();
    // The GPU context holds the volume resident for every run on it: made once per volume.
    const bool gpuWanted = m_backend != gpu::Backend::Cpu && gpu::hasCudaEngine(method) && !gpu::listDevices().empty();
    QString notice;
    if (gpuWanted && !m_context) m_context = m_grid->resident().context(m_volume.get());  // resident since loading
    if (gpuWanted && !m_context) {
        const QString why = m_grid->resident().failure();
        if (m_backend == gpu::Backend::Cuda) return fail(QString("CUDA: %1").arg(why));
        notice = QString("the GPU could not take the volume (%1); running on the CPU").arg(why);
    }
    std::unique_ptr<Segmenter> engine;
    try {
        engine = gpu::createSegmenter(method, m_context ? m_backend : (m_backend == gpu::Backend::Cuda ? m_backend : gpu::Backend::Cpu),
                                      m_context);
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    m_method = method;
    m_request = request;
    ++m_runSerial;
    // A CUDA run keeps its result on the device: no host map of the volume unless GL cannot map the
    // device buffer (then uploadChanges makes one).
    m_preview = onCuda(engine->backend()) ? LabelMap() : LabelMap(m_volume->geometry());
    m_lastOnDevice = onCuda(engine->backend());
    m_movedToCpu.clear();
    m_previewWhole = false;
    forgetRun();
    m_published.starting = true;  // active from now on, before the worker's first publication
    m_grid->withGlContext([](SharedTextures& t) {
        t.clearPreview();
        t.textures().setPreviewHidden({});  // a new run shows every value
    });
    m_lastError.clear();
    if (!m_speedChosen) m_speed = watchableSpeed(method);
    m_worker->setSpeed(m_speed);
    emit speedChanged(m_speed);
    const bool held = std::exchange(m_holdNextStart, false);
    m_worker->begin(std::move(engine), m_request, 1,
                    [this](const Segmenter& e, const VoxelBox& box) { writeLabels(e, box); }, play && !held);
    m_timer.start();
    if (!notice.isEmpty()) emit failed(notice);
    emit stateChanged();
    if (held) emit startHeld();
    return true;
}

void LiveSegmentation::writeLabels(const Segmenter& engine, const VoxelBox& box) {
    // Runs on the worker with the published state locked: the GUI does not upload meanwhile.
    if (m_context && onCuda(engine.backend())) {
        {
            stages::Scope scope("live: device labels written");
            engine.writeLabels(m_context->labelSink(), &box);
        }
        stages::Scope scope("live: device labels counted");
        m_voxels = m_context->countLabels();  // on the device: no download (it also waits for the write)
        m_lastOnDevice = true;
        return;
    }
    if (m_lastOnDevice || m_preview.voxelCount() != m_volume->voxelCount()) {
        // The run began on the device and moved to the CPU engine (FallbackSegmenter): the host map
        // it writes from now on is made here and written whole, since the device's preview is stale.
        m_preview = LabelMap(m_volume->geometry());
        engine.writeLabels(LabelSink::host(m_preview), nullptr);
        m_voxels = m_preview.voxelCount() - m_preview.count(0);
        m_lastOnDevice = false;
        m_previewWhole = true;
        m_movedToCpu = gpu::fallbackNotice(engine);
        return;
    }
    const std::size_t before = countInBox(m_preview, box);
    engine.writeLabels(LabelSink::host(m_preview), &box);
    m_voxels += countInBox(m_preview, box) - before;
    m_lastOnDevice = false;
}

void LiveSegmentation::uploadChanges(const SessionWorker::Published&) {
    if (!m_pending) return;
    stages::Scope scope("live: the changed box into the preview texture");
    const VoxelBox box = m_previewWhole ? wholeBox(m_volume->geometry()) : *m_pending;
    const bool onDevice = m_lastOnDevice && m_context;
    const bool done = m_grid->withGlContext([&](SharedTextures& t) {
        QString why;
        t.sync(*m_model, why);  // the first frame may come before any view drew the volume
        if (onDevice) {
            m_interop = t.copyPreviewFromDevice(m_context->labelSink().data, m_volume->geometry().dims, box, m_context->stream());
            if (m_interop) return;
            m_context->downloadLabels(m_preview, &box);  // GL that CUDA cannot map: through the host
        }
        t.uploadPreview(m_preview, box);
    });
    if (done) {
        m_pending.reset();
        m_previewWhole = false;
    }
}

void LiveSegmentation::frameNow() {
    if (!m_worker) return;
    bool news = false;
    std::string moved;
    m_worker->take([&](const SessionWorker::Published& p) {
        // A step that changed no label (the snake between its label writes) is news too: the HUD,
        // the polygon and the panel follow every step.
        if (p.steps != m_published.steps || p.polygons != m_published.polygons || p.state != m_published.state) news = true;
        m_published = p;
        if (p.changed) {
            m_pending = merge(m_pending, *p.changed);
            news = true;
            if (m_method == Method::Snake3d) recordSnake3d(*p.changed, p.last.iterations);  // the scrubber's state
        }
        uploadChanges(p);
        moved.swap(m_movedToCpu);
    });
    if (!moved.empty()) emit failed(QString::fromStdString(moved));  // the run goes on, on the CPU: said once
    const qint64 now = m_clock.nsecsElapsed();
    if (news) {
        if (m_lastFrameNs) {
            const double fps = 1e9 / double(std::max<qint64>(1, now - m_lastFrameNs));
            m_fps = m_fps ? 0.9 * m_fps + 0.1 * fps : fps;
        }
        m_lastFrameNs = now;
        m_grid->updateViews();
    }
    if (m_published.state != m_lastState) {
        m_lastState = m_published.state;
        emit stateChanged();
    }
    if (!m_published.error.empty()) {
        // A published error ended the run (its start, an advance or a label write failed): its partial
        // preview goes too, so that nothing on screen looks like a result that could be accepted.
        m_lastError = QString::fromStdString(m_published.error);
        cancel();
        emit failed(m_lastError);
    }
    if (news) emit framed();
    if (m_published.state == SessionState::Idle && !m_published.starting && !m_pending) m_timer.stop();
}

void LiveSegmentation::update(const SegmentationRequest& request) {
    if (!m_worker || !active()) return;
    SegmentationRequest r = request;
    r.volume = m_volume.get();
    m_request = r;
    std::string why;
    m_worker->command([&](SegmentationSession& s) {
        if (!s.engine()) return;
        try {
            s.update(m_request);
        } catch (const std::exception& e) {
            why = e.what();
        }
    });
    m_worker->finishUnpaced();  // a parameter change shows at once, whatever the pace
    m_timer.start();
    frameNow();  // the command published its state: take it now, so active() and running() follow
    if (!why.empty()) emit failed(QString::fromStdString(why));
}

void LiveSegmentation::forgetShownStep() {
    m_shownStep = -1;
    m_scrubbedSlice = -1;  // the preview is cleared or replaced: nothing to restore
    m_shownPixels = 0;
}

void LiveSegmentation::forgetRun() {
    m_history.clear();
    m_published = {};
    m_pending.reset();
    m_voxels = 0;
    m_clusterVoxels.clear();
    forgetShownStep();
}

void LiveSegmentation::play() {
    if (!m_worker) return;
    restoreScrubbedSlice();
    m_worker->command([](SegmentationSession& s) { s.play(); });
    forgetShownStep();
    m_timer.start();
    frameNow();
}

void LiveSegmentation::pause() {
    if (!m_worker) return;
    m_worker->command([](SegmentationSession& s) { s.pause(); });
    frameNow();
}

void LiveSegmentation::step() {
    if (!m_worker) return;
    restoreScrubbedSlice();
    m_worker->command([](SegmentationSession& s) { s.stepOnce(); });
    forgetShownStep();
    m_timer.start();
    frameNow();
}

void LiveSegmentation::setStepsPerFrame(int steps) {
    if (m_worker) m_worker->command([steps](SegmentationSession& s) { s.setIterationsPerStep(steps); });
}

void LiveSegmentation::setSpeed(int stepsPerSecond) {
    m_speed = stepsPerSecond <= kUnpaced ? kUnpaced : std::clamp(stepsPerSecond, kMinSpeed, kMaxSpeed);
    m_speedChosen = true;
    if (m_worker) m_worker->setSpeed(m_speed);
    emit speedChanged(m_speed);
}

void LiveSegmentation::showSpeedFor(Method method) {
    if (m_speedChosen || active() || m_speed == watchableSpeed(method)) return;
    m_speed = watchableSpeed(method);
    emit speedChanged(m_speed);
}

bool LiveSegmentation::accept(std::uint8_t label, const QString& description) {
    std::array<std::uint8_t, 256> labelFor{};
    labelFor.fill(label);
    labelFor[0] = 0;
    return accept(labelFor, description);
}

bool LiveSegmentation::accept(const std::array<std::uint8_t, 256>& labelFor, const QString& description) {
    if (!m_worker || !active()) return false;
    bool changed = false;
    std::string why;
    LabelMap& layer = m_model->labelLayer();
    std::array<bool, 256> locked{};  // the label table's locks: accepted results leave those labels alone
    for (const auto& l : m_model->labelTable().labels()) locked[l.value] = l.locked;
    m_worker->command([&](SegmentationSession& s) {
        try {
            changed = s.accept(layer, m_model->history(), labelFor, description.toStdString(), locked);
        } catch (const std::exception& e) {
            why = e.what();
        }
    });
    if (!why.empty()) {
        m_lastError = QString::fromStdString(why);
        emit failed(m_lastError);
        return false;
    }
    if (changed) m_model->labelsEdited(nullptr);
    cancel();
    if (changed) emit accepted();
    return changed;
}

void LiveSegmentation::cancel() {
    if (m_softShown >= 0) showSoftMap(-1);
    if (m_worker) m_worker->cancel();
    forgetRun();
    m_grid->withGlContext([](SharedTextures& t) {
        t.clearPreview();
        t.textures().setPreviewHidden({});  // a new run shows every value
    });
    m_grid->updateViews();
    m_lastState = SessionState::Idle;
    emit stateChanged();
}

bool LiveSegmentation::copyPreviewReduced(std::size_t maxCells, LabelMap& out) {
    // Not while starting: the engine lock is held through start(), which may be long.
    if (!m_worker || !m_volume || !active() || m_published.starting) return false;
    const LabelReduction plan = planLabelReduction(m_volume->geometry().dims, maxCells);
    if (reduceSnake3dState(plan, out)) return true;  // the scrubber's state, not the run's latest
    bool made = false;
    // Between two advances nothing writes the preview (host map or device buffer).
    m_worker->command([&](SegmentationSession&) {
        try {
            if (m_lastOnDevice && m_context) m_context->downloadReducedLabels(plan, out);
            else if (m_preview.voxelCount() == m_volume->voxelCount()) reduceLabels(m_preview, plan, out);
            else return;
            // Values unticked in the panel leave the 3D pane as they leave the slice views.
            if (m_hiddenValues != std::array<std::uint32_t, 8>{})
                for (std::size_t i = 0; i < out.voxelCount(); ++i)
                    if (m_hiddenValues[out[i] / 32] & (1u << (out[i] % 32))) out[i] = 0;
            made = true;
        } catch (const std::exception&) {
            made = false;  // the device could not make the copy: the 3D pane keeps what it shows
        }
    });
    return made;
}

bool LiveSegmentation::active() const { return m_worker && (m_published.starting || m_published.state != SessionState::Idle); }

bool LiveSegmentation::running() const { return m_worker && (m_published.starting || m_published.state == SessionState::Running); }

double LiveSegmentation::volumeMl() const {
    return m_volume ? double(shownVoxels()) * m_volume->geometry().voxelVolumeMl() : 0.0;
}

LiveSegmentation::SlicePolygon LiveSegmentation::polygon(int index) const {
    SlicePolygon out;
    if (!m_worker) return out;
    m_worker->command([&](SegmentationSession& s) {
        const auto& all = s.polygons();
        if (all.empty()) return;
        const std::size_t i = std::size_t(index < 0 || index >= int(all.size()) ? int(all.size()) - 1 : index);
        out.points = all[i];
        out.slice = s.polygonSlices()[i];
    });
    return out;
}

void LiveSegmentation::showOnlyValues(const std::vector<bool>& shown) {
    std::array<std::uint32_t, 8> hidden{};
    for (std::size_t v = 1; v <= shown.size() && v < 256; ++v)
        if (!shown[v - 1]) hidden[v / 32] |= 1u << (v % 32);
    const bool changed = hidden != m_hiddenValues;
    m_hiddenValues = hidden;
    m_grid->withGlContext([&](SharedTextures& t) { t.textures().setPreviewHidden(hidden); });
    m_grid->updateViews();
    if (changed) emit shownValuesChanged();
}

void LiveSegmentation::setPreviewTargets(const std::array<std::uint8_t, 256>& targets) {
    if (targets == m_previewTargets) return;
    m_previewTargets = targets;
    m_grid->withGlContext([&](SharedTextures& t) { t.textures().setPreviewTargets(targets); });
    m_grid->updateViews();
    emit previewTargetsChanged();
}

void LiveSegmentation::showStep(int index) {
    if (index >= 0) pause();
    m_shownStep = index;
    if (index >= 0) showStepFill(index);
    else restoreScrubbedSlice();
    m_grid->updateViews();
    emit framed();
}

void LiveSegmentation::showStepFill(int index) {
    const SlicePolygon p = polygon(index);
    const Geometry& g = m_volume->geometry();
    if (p.points.size() < 3 || p.slice < 0 || p.slice >= g.dims[2]) return;
    std::vector<PixelPoint> poly;
    for (const auto& q : p.points) poly.push_back({int(std::lround(q[0])), int(std::lround(q[1]))});
    std::vector<std::uint8_t> slice(g.sliceSize(), 0);
    rasterisePolygon(poly, g.dims[0], g.dims[1], slice.data());
    // What the engine would label at that step: its ROI and mask apply as to every result.
    const SegmentationRequest& r = m_request;
    for (int j = 0; j < g.dims[1]; ++j)
        for (int i = 0; i < g.dims[0]; ++i) {
            std::uint8_t& v = slice[std::size_t(j) * g.dims[0] + i];
            if ((r.roi && !r.roi->contains(i, j, p.slice)) || (r.mask && !(*r.mask)[g.index(i, j, p.slice)])) v = 0;
        }
    m_shownPixels = std::size_t(std::count(slice.begin(), slice.end(), std::uint8_t(1)));
    if (m_scrubbedSlice >= 0 && m_scrubbedSlice != p.slice) restoreScrubbedSlice();
    m_scrubbedSlice = p.slice;
    m_grid->withGlContext([&](SharedTextures& t) { t.showPreviewSlice(p.slice, slice); });
}

void LiveSegmentation::restoreScrubbedSlice() {
    followSnake3d();
    m_shownPixels = 0;
    if (m_scrubbedSlice < 0 || !m_worker) return;
    const auto& d = m_volume->geometry().dims;
    const VoxelBox box{{0, 0, m_scrubbedSlice}, {d[0] - 1, d[1] - 1, m_scrubbedSlice}};
    m_scrubbedSlice = -1;
    m_worker->command([&](SegmentationSession& s) {
        if (s.engine()) writeLabels(*s.engine(), box);
    });
    m_pending = merge(m_pending, box);
    uploadChanges(m_published);
}

QString LiveSegmentation::shownStepText() const {
    if (m_shownStep < 0 || !m_volume) return {};
    const Geometry& g = m_volume->geometry();
    return QString("step %1 of %2: %3 px, %4 mm²")
        .arg(m_shownStep)
        .arg(std::max(0, polygonCount() - 1))
        .arg(m_shownPixels)
        .arg(double(m_shownPixels) * g.spacing.x * g.spacing.y, 0, 'f', 1);
}

bool LiveSegmentation::showSoftMapFromDevice(int index) {
    if (!m_worker || !m_context || !m_volume) return false;
    const std::size_t n = m_volume->voxelCount();
    std::uint8_t* buffer = nullptr;
    bool written = false;
    // Under the engine lock: the worker is between advances, so the context's scratch slots and the
    // engine's device state are not in use meanwhile.
    m_worker->command([&](SegmentationSession& s) {
        if (!s.engine() || !onCuda(s.engine()->backend())) return;
        try {
            if (m_heatSlot < 0) m_heatSlot = m_context->reserveScratch();
            buffer = static_cast<std::uint8_t*>(m_context->scratch(m_heatSlot, n));
            written = s.engine()->writeSoftMap(index, LabelSink::device(buffer, n));
            // Whole before the views read it on streams of their own (plane textures).
            if (written) m_context->synchronize();
        } catch (const std::exception&) {
            written = false;  // out of device memory: the host path below still shows the map
        }
    });
    if (!written) return false;
    bool copied = false;
    m_grid->withGlContext([&](SharedTextures& t) {
        QString why;
        t.sync(*m_model, why);
        copied = t.copyHeatFromDevice(buffer, m_volume->geometry().dims, m_context->stream());
    });
    return copied;
}

bool LiveSegmentation::showSoftMap(int index) {
    m_softFromDevice = index >= 0 && showSoftMapFromDevice(index);
    if (m_softFromDevice) {
        m_softShown = index;
        m_grid->updateViews();
        return true;
    }
    std::vector<std::uint8_t> values;
    if (index >= 0) {
        const auto maps = softMaps();
        if (index >= int(maps.size())) return false;
        const Volume& map = maps[std::size_t(index)];
        values.resize(map.voxelCount());
        // 8 bits are plenty for a colour ramp; the exact values stay in the engine.
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = std::uint8_t(std::lround(std::clamp(map.value(i), 0.0, 1.0) * 255.0));
    }
    m_softShown = values.empty() ? -1 : index;
    m_grid->withGlContext([&](SharedTextures& t) {
        QString why;
        t.sync(*m_model, why);
        t.uploadHeat(values);
    });
    m_grid->updateViews();
    return index < 0 || m_softShown == index;
}

MethodFigures LiveSegmentation::figures() const {
    MethodFigures f;
    if (m_worker)
        m_worker->command([&](SegmentationSession& s) {
            if (s.engine()) f = s.engine()->figures();
        });
    return f;
}

std::vector<Volume> LiveSegmentation::softMaps() const {
    std::vector<Volume> maps;
    if (m_worker)
        m_worker->command([&](SegmentationSession& s) {
            if (s.engine()) maps = s.engine()->softMaps();
        });
    return maps;
}

render::HudState LiveSegmentation::hudState() const {
    render::HudState h;
    const auto& p = m_published;
    h.active = active();
    if (!h.active) return h;
    if (onCuda(p.backend)) {
        const auto devices = gpu::listDevices();
        h.backend = "CUDA (" + (devices.empty() ? std::string("device") : devices.front().name) + ")" +
                    (m_interop ? "  GL interop" : "");
    } else {
        h.backend = "CPU (" + std::to_string(defaultThreadCount()) + " threads)";
    }
    h.method = methodInfo(m_method).title;
    h.run = m_runSerial;
    h.state = shownState();
    h.iteration = p.last.iterations;
    h.msPerStep = p.msPerStep;
    h.framesPerSecond = m_fps;
    char text[160];
    if (m_method == Method::Snake && m_shownStep >= 0) {
        // The scrubber's step: its number and area, not the run's latest.
        h.iteration = m_shownStep;
        // Two short lines: one long line ran past a 2x2 view's edge in recordings, cut at "1447.(".
        std::snprintf(text, sizeof text, "scrubbed: %s", shownStepText().replace(": ", "\n").toStdString().c_str());
        h.plotLabel = "GL";
        for (double v : p.convergence) h.plot.push_back(float(v));
    } else if (m_method == Method::Snake) {
        std::snprintf(text, sizeof text, "GL %.4g  %zu nodes  %zu px", p.last.convergence, p.last.polygon.size(),
                      shownVoxels());
        h.plotLabel = "GL";
        for (double v : p.convergence) h.plot.push_back(float(v));
    } else {
        std::snprintf(text, sizeof text, "%zu voxels  %.1f mL", shownVoxels(), volumeMl());
    }
    h.figure = text;
    h.canStep = true;
    h.speed = m_speed == kUnpaced ? std::string("max") : std::to_string(m_speed) + " steps/s";
    h.running = p.starting || p.state == SessionState::Running;
    if (m_recordedPace) {
        // A recording steps a paused run between its frames: the video plays it at its own pace.
        h.running = p.state != SessionState::Finished;
        h.framesPerSecond = m_recordedPace->framesPerSecond;
        const int pace = m_recordedPace->stepsPerSecond > 0 ? m_recordedPace->stepsPerSecond
                                                            : m_recordedPace->framesPerSecond * m_recordedPace->stepsPerFrame;
        h.speed = std::to_string(pace) + " steps/s";
    }
    if (m_method == Method::Snake3d) snake3dHud(h);
    return h;
}

std::string LiveSegmentation::shownState() const {
    const auto& p = m_published;
    if (p.starting) return "starting";
    if (m_recordedPace && p.state == SessionState::Paused) return sessionStateName(SessionState::Running);
    return sessionStateName(p.state);
}

std::size_t LiveSegmentation::chosenClusterVoxels() const {
    // Until the run settles every included voxel has a cluster; then the clusters still shown
    // (those to accept) count, from the engine's figure, asked for once.
    if (m_published.state != SessionState::Finished) return m_voxels.load();
    if (m_clusterVoxels.empty()) m_clusterVoxels = figures().clusterVoxels;
    if (m_clusterVoxels.empty()) return m_voxels.load();
    std::size_t n = 0;
    for (std::size_t v = 1; v <= m_clusterVoxels.size() && v < 256; ++v)
        if (!(m_hiddenValues[v / 32] >> (v % 32) & 1u)) n += m_clusterVoxels[v - 1];
    return n;
}

std::size_t LiveSegmentation::shownVoxels() const {
    if (m_method == Method::FuzzyCMeans) return chosenClusterVoxels();
    if (m_method == Method::Snake3d && m_history.shown() >= 0) return m_history.voxels(m_history.shown());
    if (m_method != Method::Snake || !m_volume) return m_voxels.load();
    // The snake writes its labels when it ends: until then its area is the polygon's inside,
    // rasterised by the engines' rule, once per new polygon.
    if (m_polygonPixels.first == m_published.polygons) return m_polygonPixels.second;
    const Geometry& g = m_volume->geometry();
    // Before the first step the start (the rectangle) is the contour.
    const auto& points = m_published.last.polygon.empty() ? polygon(-1).points : m_published.last.polygon;
    std::vector<PixelPoint> poly;
    for (const auto& q : points) poly.push_back({int(std::lround(q[0])), int(std::lround(q[1]))});
    std::size_t pixels = 0;
    if (poly.size() >= 3) {
        std::vector<std::uint8_t> slice(g.sliceSize(), 0);
        rasterisePolygon(poly, g.dims[0], g.dims[1], slice.data());
        pixels = std::size_t(std::count(slice.begin(), slice.end(), std::uint8_t(1)));
    }
    m_polygonPixels = {m_published.polygons, pixels};
    return pixels;
}

bool LiveSegmentation::runFrames(int steps, const std::function<void()>& onFrame, QString* error) {
    if (!m_worker) return false;
    m_timer.stop();
    m_worker->waitUntilSettled();  // the start (paused or playing) is done, or the run finished
    frameNow();
    if (onFrame) onFrame();
    if (steps >= 0) {
        for (int i = 0; i < steps && m_published.state == SessionState::Paused; ++i) {
            m_worker->command([](SegmentationSession& s) { s.stepOnce(); });
            frameNow();
            if (onFrame) onFrame();
        }
    } else {
        play();
        m_timer.stop();
        while (true) {
            QThread::msleep(5);
            frameNow();
            if (onFrame) onFrame();
            if (m_published.state != SessionState::Running && !m_published.starting) break;
        }
    }
    frameNow();
    if (!m_lastError.isEmpty() && error) *error = m_lastError;
    return m_lastError.isEmpty() && m_published.state != SessionState::Idle;
}

}  // namespace lucent::ui

namespace lucent::ui {

bool LiveSegmentation::stepFrames(int every, int maxSteps, const std::function<bool(int step)>& onFrame, QString* error) {
    if (!m_worker) return false;
    m_timer.stop();
    m_worker->waitUntilSettled();  // a paused start is done (a playing one ran to its end)
    // A run that was playing is held: every frame must follow its own steps.
    m_worker->command([](SegmentationSession& s) { s.pause(); });
    frameNow();
    int step = 0;
    bool more = !onFrame || onFrame(step);
    while (more && m_published.state == SessionState::Paused) {
        const int n = RecordingPlan::stepsToNextFrame(step, every, maxSteps);
        if (n == 0) break;
        m_worker->command([n, &step](SegmentationSession& s) {
            for (int i = 0; i < n && s.state() == SessionState::Paused; ++i) {
                s.stepOnce();
                ++step;
            }
        });
        frameNow();
        more = !onFrame || onFrame(step);
    }
    frameNow();
    if (!m_lastError.isEmpty() && error) *error = m_lastError;
    return m_lastError.isEmpty() && m_published.state != SessionState::Idle;
}

}  // namespace lucent::ui
