/// @brief Engines on the worker, frames on the GUI timer: start, commands, the per-frame upload
/// (interop or host box), voxel counting, accept and cancel. What the run shows of itself is in
/// LiveFigures.cpp (the HUD's facts: LiveHud.h), the scrubber in LiveScrubbing.cpp (SnakeScrubber.h), soft
/// maps in LiveSoftMaps.cpp (SoftMapOverlay.h), synchronous frames for scripts and recordings in LiveFrames.cpp.
#include "lucent/ui/LiveSegmentation.h"

#include "LiveBackend.h"

#include "lucent/core/HostVolumeWork.h"
#include "lucent/core/StageTimes.h"
#include "lucent/core/Errors.h"
#include "lucent/core/LabelReduction.h"
#include "lucent/core/ParallelFor.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

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

}  // namespace

LiveSegmentation::LiveSegmentation(ViewerModel* model, ViewGrid* grid, QObject* parent)
    : QObject(parent),
      m_model(model),
      m_grid(grid),
      m_gridAlive(grid),
      m_scrubber(scrubbedRun()),
      m_softMap(softMapSource()) {
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
    if (!m_model->hasVolume()) return fail(ViewerModel::noVolumeMessage);
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
                    [this](const Segmenter& e, const VoxelBox& box) { writeLabels(e, box); }, play && !held,
                    method == Method::Snake3d ? snake3dObserver(m_request) : SegmentationSession::StepObserver{});
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
    std::optional<stages::Scope> taking(std::in_place, "live: a frame takes the run's news");
    m_worker->take([&](const SessionWorker::Published& p) {
        // A step that changed no label (the snake between its label writes) is news too: the HUD,
        // the polygon and the panel follow every step.
        if (p.steps != m_published.steps || p.polygons != m_published.polygons || p.state != m_published.state) news = true;
        m_published = p;
        if (p.changed) {
            m_pending = merge(m_pending, *p.changed);
            news = true;
        }
        uploadChanges(p);
        moved.swap(m_movedToCpu);
    });
    taking.reset();
    stages::Scope listeners("live: a frame's listeners (panel, HUD, 3D pane)");
    if (!moved.empty()) emit failed(QString::fromStdString(moved));  // the run goes on, on the CPU: said once
    takeSnake3dSteps();  // every state the worker saw, for the scrubber
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
        if (m_method == Method::Snake3d && m_lastState == SessionState::Finished) noteSnake3dFinished();
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
    m_lastOutcome.reset();
    m_worker->command([&](SegmentationSession& s) {
        if (!s.engine()) return;
        try {
            m_lastOutcome = s.update(m_request);
        } catch (const std::exception& e) {
            why = e.what();
        }
    });
    {
        stages::Scope scope("live: an update waits for the worker's advance");
        m_worker->finishUnpaced();  // a parameter change shows at once, whatever the pace
    }
    m_timer.start();
    stages::Scope scope("live: the frame after an update");
    frameNow();  // the command published its state: take it now, so active() and running() follow
    if (!why.empty()) emit failed(QString::fromStdString(why));
}

void LiveSegmentation::forgetRun() {
    m_history.clear();
    m_snake3dSteps.reset();
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
    // What the views show is what goes in: a 3D snake's scrubbed state, not the run's latest.
    const std::optional<LabelMap> shown = shownSnake3dLabels();
    m_worker->command([&](SegmentationSession& s) {
        try {
            changed = s.accept(layer, m_model->history(), labelFor, description.toStdString(), locked, shown ? &*shown : nullptr);
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
    m_softMap.hide();
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
    // Not while starting: the preview holds nothing of the new run yet.
    if (!m_worker || !m_volume || !active() || m_published.starting) return false;
    const LabelReduction plan = planLabelReduction(m_volume->geometry().dims, maxCells);
    bool made = false;
    // The worker writes the preview (host map or device buffer) only with the published state locked:
    // read under that lock, not the engine's, so the copy never waits for an advance (a 3D snake's
    // step holds the engine while the scrubber takes its level set).
    stages::Scope scope("live: the preview's coarse copy");
    m_worker->read([&] {
        try {
            if (m_lastOnDevice && m_context) m_context->downloadReducedLabels(plan, out);
            else if (m_preview.voxelCount() == m_volume->voxelCount()) reduceLabels(m_preview, plan, out);
            else return;
            made = true;
        } catch (const std::exception&) {
            made = false;  // the device could not make the copy: the 3D pane keeps what it shows
        }
    });
    // Values unticked in the panel leave the 3D pane as they leave the slice views.
    if (made && m_hiddenValues != std::array<std::uint32_t, 8>{})
        for (std::size_t i = 0; i < out.voxelCount(); ++i)
            if (m_hiddenValues[out[i] / 32] & (1u << (out[i] % 32))) out[i] = 0;
    return made;
}

bool LiveSegmentation::active() const { return m_worker && (m_published.starting || m_published.state != SessionState::Idle); }

bool LiveSegmentation::running() const { return m_worker && (m_published.starting || m_published.state == SessionState::Running); }

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

MethodFigures LiveSegmentation::figures() const {
    MethodFigures f;
    if (m_worker)
        m_worker->command([&](SegmentationSession& s) {
            if (s.engine()) f = s.engine()->figures();
        });
    return f;
}

}  // namespace lucent::ui
