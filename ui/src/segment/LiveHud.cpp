/// @brief The live run's HUD from its facts (LiveHud.h).
#include "lucent/ui/LiveHud.h"

#include "lucent/core/seg/RunSpeed.h"

#include <cstdio>

namespace lucent::ui {

std::string liveShownState(const SessionWorker::Published& p, const std::optional<RecordedPace>& recordedPace) {
    if (p.starting) return "starting";
    if (recordedPace && p.state == SessionState::Paused) return sessionStateName(SessionState::Running);
    return sessionStateName(p.state);
}

namespace {

/// The figure line and the plot: the snake's own figures (GL, nodes, pixels, or a scrubbed step),
/// voxels and mL for the others.
void figureLine(const LiveFacts& f, render::HudState& h) {
    const auto& p = *f.published;
    char text[160];
    if (f.method == Method::Snake && f.shownStep >= 0) {
        // The scrubber's step: its number and area, not the run's latest.
        h.iteration = f.shownStep;
        // Two short lines: one long line ran past a 2x2 view's edge in recordings, cut at "1447.(".
        std::string step = f.shownStepText;
        if (const auto at = step.find(": "); at != std::string::npos) step.erase(at + 1, 1)[at] = '\n';
        std::snprintf(text, sizeof text, "scrubbed: %s", step.c_str());
    } else if (f.method == Method::Snake) {
        std::snprintf(text, sizeof text, "GL %.4g  %zu nodes  %zu px", p.last.convergence, p.last.polygon.size(),
                      f.shownVoxels);
    } else {
        std::snprintf(text, sizeof text, "%zu voxels  %.1f mL", f.shownVoxels, f.volumeMl);
    }
    if (f.method == Method::Snake) {
        h.plotLabel = "GL";
        for (double v : p.convergence) h.plot.push_back(float(v));
    }
    h.figure = text;
}

}  // namespace

render::HudState liveHud(const LiveFacts& f) {
    render::HudState h;
    const auto& p = *f.published;
    h.active = true;
    h.backend = f.backend;
    h.method = methodInfo(f.method).title;
    h.run = f.runSerial;
    h.state = liveShownState(p, f.recordedPace);
    h.iteration = p.last.iterations;
    h.msPerStep = p.msPerStep;
    h.framesPerSecond = f.framesPerSecond;
    figureLine(f, h);
    h.canStep = true;
    h.speed = f.speed == kUnpaced ? std::string("max") : std::to_string(f.speed) + " steps/s";
    h.running = p.starting || p.state == SessionState::Running;
    if (const auto& pace = f.recordedPace) {
        // A recording steps a paused run between its frames: the video plays it at its own pace.
        h.running = p.state != SessionState::Finished;
        h.framesPerSecond = pace->framesPerSecond;
        h.speed = std::to_string(pace->stepsPerSecond > 0 ? pace->stepsPerSecond
                                                          : pace->framesPerSecond * pace->stepsPerFrame) +
                  " steps/s";
    }
    return h;
}

}  // namespace lucent::ui
