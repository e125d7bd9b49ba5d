/// @brief What the HUD says of a live run, from the facts alone (no engine, no GL): the backend,
/// the state as its audience reads it (a recording's paused steps read as running), the figure line
/// (voxels and mL; the snake's GL, nodes and pixels; a scrubbed step), the plot and the pace.
#pragma once

#include "lucent/core/seg/Methods.h"
#include "lucent/core/seg/SessionWorker.h"
#include "lucent/render/HudState.h"

#include <cstddef>
#include <optional>
#include <string>

namespace lucent::ui {

/// A recording's pace: the frames of its video per second and the engine steps between them.
struct RecordedPace {
    int framesPerSecond = 30;
    int stepsPerFrame = 1;
    int stepsPerSecond = 0;  ///< the pace the video plays the run at; 0: a frame per recorded step
};

struct LiveFacts {
    const SessionWorker::Published* published = nullptr;
    Method method = Method::RegionGrowing;
    std::string backend;           ///< "CUDA (NVIDIA H200)  GL interop", "CPU (16 threads)"
    int runSerial = 0;
    double framesPerSecond = 0;
    int speed = 0;                 ///< steps a second, or kUnpaced
    std::optional<RecordedPace> recordedPace;
    int shownStep = -1;            ///< the snake scrubber's step, -1 following the run
    std::string shownStepText;     ///< "step 12 of 39: 2148 px, 1968.2 mm²"
    std::size_t shownVoxels = 0;
    double volumeMl = 0;
};

/// "running", "paused", "finished" or "starting" as the HUD says it (a recording's pace applied).
std::string liveShownState(const SessionWorker::Published& p, const std::optional<RecordedPace>& recordedPace);
/// The HUD of an active run (`facts.published` set).
render::HudState liveHud(const LiveFacts& facts);

}  // namespace lucent::ui
