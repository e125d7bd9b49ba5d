/// @brief A live run in the window: options, then the paced advance or the step-exact recording (ui::RunRecorder).
#include "LiveRun.h"

#include "Commands.h"
#include "SegmentOptions.h"

#include "lucent/core/seg/RunSpeed.h"
#include "lucent/ui/GrowCutSeeds.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/RunRecorder.h"
#include "lucent/ui/SegmentPanel.h"
#include "lucent/ui/ViewCapture.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <cmath>

#include <iostream>

namespace lucent::app {

namespace {

/// --accept in the window: Segment > Accept once the run has finished (then the autosave keeps it).
void acceptWhenFinished(ui::SegmentPanel& panel) {
    auto* once = new QObject(&panel);
    QObject::connect(&panel.live(), &ui::LiveSegmentation::stateChanged, once, [&panel, once] {
        if (panel.live().published().state != SessionState::Finished) return;
        once->deleteLater();
        if (!panel.acceptResult()) std::cerr << "lucent: live: the result could not be accepted\n";
    });
}

/// The summary line of a scripted run: method, backend, steps, voxels, state, wall time (and grow from
/// seeds' voxels per label, as lucent segment's stats name them).
std::string summaryLine(Method method, const ui::LiveSegmentation& live, const QElapsedTimer& wall) {
    const auto& p = live.published();
    std::string line = "live " + std::string(methodName(method)) + " (" + p.backend + "): " + std::to_string(p.steps) +
                       " steps, " + std::to_string(live.voxels()) + " voxels, " + sessionStateName(p.state) + ", " +
                       QString::number(double(wall.elapsed()) / 1000.0, 'f', 2).toStdString() + " s";
    if (method == Method::GrowCut) {
        std::string labels;
        for (const auto& [label, voxels] : live.figures().labelVoxels)
            labels += (labels.empty() ? "" : ", ") + std::to_string(label) + ": " + std::to_string(voxels);
        line += " (labels " + labels + ")";
    }
    return line;
}

/// The run held at its start plays after `seconds`, unless another run took its place meanwhile.
void playAfterHold(ui::LiveSegmentation& live, double seconds) {
    const int run = live.hudState().run;
    QTimer::singleShot(int(std::lround(seconds * 1000)), &live, [&live, run] {
        if (live.hudState().run == run && live.published().state == SessionState::Paused) live.play();
    });
}

}  // namespace

std::set<std::string> liveValueOptions() {
    return {"--live", "--steps", "--speed", "--record", "--record-every", "--record-fps", "--record-view", "--record-size"};
}

LiveOptions liveOptions(const CommandLine& cl) {
    LiveOptions live;
    try {
        live.method = gpu::parseMethod(cl.value("--live"));
        live.backend = gpu::parseBackend(cl.value("--backend", backendKey(Backend::Auto)));
        if (cl.has("--speed")) live.speed = parseSpeed(cl.value("--speed"));
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string(cl.has("--speed") ? "--speed: " : "") + e.what());
    }
    live.request = requestFromOptions(cl, live.method);  // growcut: a usage error without --seeds-mask
    live.seedsMask = QString::fromStdString(cl.value("--seeds-mask"));
    live.estimateInterval = intervalToEstimate(cl, live.method);
    live.worldSeeds = worldSeedsFromOptions(cl);
    live.steps = cl.has("--steps") ? cl.integer("--steps", 0) : -1;
    if (cl.has("--steps") && live.steps < 1) throw UsageError("--steps must be at least 1");
    live.record = QString::fromStdString(cl.value("--record"));
    live.recordEvery = cl.integer("--record-every", 1);
    if (live.recordEvery < 1) throw UsageError("--record-every must be at least 1");
    live.recordFps = cl.integer("--record-fps", ui::RecordingPlan::kDefaultFps);
    if (live.recordFps < ui::RecordingPlan::kMinFps || live.recordFps > ui::RecordingPlan::kMaxFps)
        throw UsageError("--record-fps must be " + ui::RecordingPlan::fpsRange().toStdString());
    QString why;
    const auto view = ui::RecordedView::parse(QString::fromStdString(cl.value("--record-view", "window")),
                                              QString::fromStdString(cl.value("--record-size")), &why);
    if (!view) throw UsageError((cl.has("--record-size") && !why.startsWith("unknown") ? "--record-size: " : "--record-view: ") +
                                why.toStdString());
    live.recordView = *view;
    for (const char* opt : {"--record-every", "--record-fps", "--record-view", "--record-size"})
        if (cl.has(opt) && live.record.isEmpty()) throw UsageError(std::string(opt) + " needs --record");
    live.accept = cl.has("--accept");
    return live;
}

QString runLive(ui::MainWindow& window, const LiveOptions& live, bool script, ui::FrameRecorder* recorder) {
    ui::SegmentPanel& panel = window.segment();
    panel.model().setBackend(live.backend);  // the run and the panel's Backend box alike
    // A script's run goes as fast as it can unless --speed paces it; on screen, the method's pace.
    if (live.speed) panel.live().setSpeed(*live.speed);
    else if (script) panel.live().setSpeed(kUnpaced);
    // Seeds in millimetres become voxels of the loaded volume, by the rule lucent segment uses.
    SegmentationRequest request = live.request;
    try {
        for (const WorldSeed& seed : live.worldSeeds)
            request.seeds.push_back(nearestVoxel(window.model().volume()->geometry(), seed));
        request.volume = window.model().volume().get();
        if (live.estimateInterval) std::cerr << "lucent: " << estimateInterval(*request.volume, request) << "\n";
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    QString error;
    // Grow from seeds in the viewer takes its seeds from the label layer, as strokes painted there:
    // SEEDS becomes the layer (the placement rule of every mask), and later strokes update the run.
    if (live.method == Method::GrowCut) {
        if (!window.openMask(live.seedsMask, &error)) return error;
        const std::size_t labels = ui::GrowCutSeeds::seedLabels(*window.model().labels()).size();
        if (labels < std::size_t(ui::GrowCutSeeds::kMinSeedLabels))
            return QString("%1: grow from seeds in the viewer needs seeds of at least %2 labels (%3 found)")
                .arg(live.seedsMask)
                .arg(ui::GrowCutSeeds::kMinSeedLabels)
                .arg(labels);
    }
    const bool play = (!script && live.holdStart <= 0) || (script && live.steps < 0 && !recorder);
    QElapsedTimer wall;  // the run's own time, from its start to its end (the summary line says it)
    wall.start();
    if (!panel.startWith(live.method, request, play, &error)) return error;
    if (!script) {
        if (live.accept) acceptWhenFinished(panel);
        if (live.holdStart > 0) playAfterHold(panel.live(), live.holdStart);
        return {};
    }
    try {
        if (recorder) {
            const auto grab = ui::prepareRecordedView(window, live.recordView);
            if (!grab) return "--record-view 3d: this build has no 3D pane (built without VTK)";
            ui::RunRecorder frames(panel.live(), window.model(), grab);
            // An MP4 plays the run at its live pace (--speed, else the method's), not a frame a step.
            frames.setPace(live.speed.value_or(watchableSpeed(live.method)), live.holdStart);
            if (const QString why = frames.record(*recorder, live.recordEvery, live.steps); !why.isEmpty()) return why;
        } else {
            const auto onFrame = [&] {
                for (int i = 0; i < 2; ++i) QApplication::processEvents();
            };
            if (!panel.live().runFrames(live.steps, onFrame, &error))
                return error.isEmpty() ? "the run ended without a result" : error;
        }
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    // The line is the run's, so it is made before Accept hands the result to the layer and ends the run.
    const std::string summary = summaryLine(live.method, panel.live(), wall);
    if (live.accept && !panel.acceptResult()) return "the result could not be accepted: " + panel.live().lastError();
    std::cout << summary << (live.accept ? ", accepted" : "") << "\n";
    return {};
}

}  // namespace lucent::app
