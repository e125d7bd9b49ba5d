/// @brief A live run in the window: options, the paced or step-exact advance, the recorded frames' notes.
#include "LiveRun.h"

#include "Commands.h"
#include "SegmentOptions.h"

#include "lucent/core/JsonWriter.h"
#include "lucent/core/seg/RunSpeed.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/SegmentPanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>

#include <cmath>
#include <iostream>
#include <sstream>

namespace lucent::app {

namespace {

/// A propagating snake moves from slice to slice: the views go with it, so the recording shows it.
void followRunSlice(ui::MainWindow& window, const ui::SegmentationRunner::SlicePolygon& polygon) {
    if (polygon.slice < 0) return;
    Vec3 cursor = window.model().cursor();
    if (std::lround(cursor.z) == polygon.slice) return;
    cursor.z = polygon.slice;
    window.model().setCursor(cursor);
}

/// frames.json's line for a frame: the step, the engine's iteration and the snake's polygon drawn.
std::string frameNote(int frame, int step, const ui::LiveSegmentation& live,
                      const ui::SegmentationRunner::SlicePolygon& polygon) {
    std::ostringstream s;
    JsonWriter json(s, false);
    const auto& p = live.published();
    json.beginObject().key("frame").value(frame).key("step").value(step).key("iteration").value(p.last.iterations);
    json.key("state").value(sessionStateName(p.state)).key("voxels").value(live.voxels());
    if (polygon.slice >= 0) {
        json.key("slice").value(polygon.slice).key("polygon").beginArray();
        for (const auto& point : polygon.points) json.array(std::vector<double>{point[0], point[1]});
        json.endArray();
    }
    json.endObject();
    return s.str();
}

QString record(ui::MainWindow& window, const LiveOptions& options, FrameRecorder& recorder) {
    ui::LiveSegmentation& live = window.segment().live();
    QString error;
    const bool ok = live.stepFrames(options.recordEvery, options.steps, [&](int step) {
        // The polygon the overlay draws: the latest step's, or the start before the first step.
        auto polygon = live.latestPolygon();
        if (polygon.points.empty()) polygon = live.polygon(-1);
        followRunSlice(window, polygon);
        for (int i = 0; i < 2; ++i) QApplication::processEvents();
        recorder.add(window.grab().toImage(), frameNote(recorder.frames(), step, live, polygon));
        return true;
    }, &error);
    if (!ok) return error.isEmpty() ? "the run ended without a result" : error;
    return {};
}

/// --accept in the window: Segment > Accept once the run has finished (then the autosave keeps it).
void acceptWhenFinished(ui::SegmentPanel& panel) {
    auto* once = new QObject(&panel);
    QObject::connect(&panel.live(), &ui::LiveSegmentation::stateChanged, once, [&panel, once] {
        if (panel.live().published().state != SessionState::Finished) return;
        once->deleteLater();
        if (!panel.acceptResult()) std::cerr << "lucent: live: the result could not be accepted\n";
    });
}

}  // namespace

std::set<std::string> liveValueOptions() {
    return {"--live", "--steps", "--speed", "--record", "--record-every", "--record-fps"};
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
    live.request = requestFromOptions(cl, live.method);
    live.worldSeeds = worldSeedsFromOptions(cl);
    live.steps = cl.has("--steps") ? cl.integer("--steps", 0) : -1;
    if (cl.has("--steps") && live.steps < 1) throw UsageError("--steps must be at least 1");
    live.record = QString::fromStdString(cl.value("--record"));
    live.recordEvery = cl.integer("--record-every", 1);
    if (live.recordEvery < 1) throw UsageError("--record-every must be at least 1");
    live.recordFps = cl.integer("--record-fps", FrameRecorder::kDefaultFps);
    if (live.recordFps < FrameRecorder::kMinFps || live.recordFps > FrameRecorder::kMaxFps)
        throw UsageError("--record-fps must be " + std::to_string(FrameRecorder::kMinFps) + ".." +
                         std::to_string(FrameRecorder::kMaxFps));
    for (const char* opt : {"--record-every", "--record-fps"})
        if (cl.has(opt) && live.record.isEmpty()) throw UsageError(std::string(opt) + " needs --record");
    live.accept = cl.has("--accept");
    return live;
}

QString runLive(ui::MainWindow& window, const LiveOptions& live, bool script, FrameRecorder* recorder) {
    ui::SegmentPanel& panel = window.segment();
    panel.live().setBackend(live.backend);
    // A script's run goes as fast as it can unless --speed paces it; on screen, the method's pace.
    if (live.speed) panel.live().setSpeed(*live.speed);
    else if (script) panel.live().setSpeed(kUnpaced);
    // Seeds in millimetres become voxels of the loaded volume, by the rule lucent segment uses.
    SegmentationRequest request = live.request;
    try {
        for (const WorldSeed& seed : live.worldSeeds)
            request.seeds.push_back(nearestVoxel(window.model().volume()->geometry(), seed));
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    QString error;
    const bool play = !script || (live.steps < 0 && !recorder);
    QElapsedTimer wall;  // the run's own time, from its start to its end (the summary line says it)
    wall.start();
    if (!panel.startWith(live.method, request, play, &error)) return error;
    if (!script) {
        if (live.accept) acceptWhenFinished(panel);
        return {};
    }
    try {
        if (recorder) {
            if (const QString why = record(window, live, *recorder); !why.isEmpty()) return why;
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
    if (live.accept && !panel.acceptResult()) return "the result could not be accepted: " + panel.live().lastError();
    const auto& p = panel.live().published();
    std::cout << "live " << methodName(live.method) << " (" << p.backend << "): " << p.steps << " steps, "
              << panel.live().voxels() << " voxels, " << sessionStateName(p.state) << ", "
              << QString::number(double(wall.elapsed()) / 1000.0, 'f', 2).toStdString() << " s\n";
    return {};
}

}  // namespace lucent::app
