/// @brief `lucent PATH --live METHOD ...`: the options of a live run in the viewer (those of
/// `lucent segment`, and --steps, --speed, --record, --record-every, --record-fps) and the run
/// itself, paced on screen or recorded step by step.
#pragma once

#include "CommandLine.h"
#include "SeedPoints.h"

#include "lucent/core/seg/SegmentationRequest.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/ui/FrameRecorder.h"
#include "lucent/ui/RecordedView.h"

#include <QString>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lucent::ui {
class MainWindow;
}

namespace lucent::app {

struct LiveOptions {
    Method method = Method::RegionGrowing;
    gpu::Backend backend = gpu::Backend::Auto;
    SegmentationRequest request;
    std::vector<WorldSeed> worldSeeds;  ///< --seed-lps / --seed-ras / --seeds: placed once the volume is loaded
    int steps = -1;                     ///< to convergence
    std::optional<int> speed;           ///< --speed: steps per second or kUnpaced
    QString record;
    int recordEvery = 1;
    int recordFps = ui::RecordingPlan::kDefaultFps;
    ui::RecordedView recordView;  ///< --record-view, --record-size: the window, or one view at a size
    bool accept = false;  ///< --accept: the result goes into the label layer when the run ends
    bool estimateInterval = false;  ///< srg without --lower / --upper: from the first seed, as segment does
    QString seedsMask;  ///< growcut: --seeds-mask SEEDS, loaded as the label layer (the strokes are the seeds)
    double holdStart = 0;  ///< seconds the start stays on screen (and in an MP4) before the run plays: the demo
};

/// The viewer's options with a value that only a live run takes (--steps, --speed, --record ...).
std::set<std::string> liveValueOptions();
/// Reads --live and its options; UsageError names a bad one.
LiveOptions liveOptions(const CommandLine& cl);

/// Starts the method in the window as the interactive path does. Interactive (`script` false): it
/// plays at its pace and stays. Scripted: advances to the end or --steps (every frame drawn), or,
/// with `recorder`, step by step with one frame per --record-every steps, each drawn after its
/// steps (ui::RunRecorder: the frames do not depend on the machine's speed). Returns an error message, empty on success.
QString runLive(ui::MainWindow& window, const LiveOptions& live, bool script, ui::FrameRecorder* recorder = nullptr);

}  // namespace lucent::app
