/// @brief `lucent --demo [PATH]`: the CT head (or PATH) with a paced snake on an axial slice, then
/// region growing of its skull (DemoPlan.h); on screen, or recorded step by step without a display.
#pragma once

#include "lucent/ui/FrameRecorder.h"

#include <QString>

#include <optional>

namespace lucent::ui {
class MainWindow;
}

namespace lucent::app {

/// The volume the demo opens without a PATH: the CT head that tests/fetch-data.sh puts in
/// $LUCENT_DATA (default ${XDG_CACHE_HOME:-~/.cache}/lucent/data), cranium/cranium.mhd.
QString demoVolumePath();
/// Where a demo without a display and without --record writes its recording.
inline constexpr const char* kDemoRecording = "lucent-demo.mp4";

/// The window has the volume: shows the snake's start, plays it at `speed` steps per second (--speed;
/// else the demo's pace for an audience) in one large axial view, shows its result, then region
/// growing's seed and its growth at `speed` (else its method's pace). Returns at once; the runs
/// follow the event loop.
void playDemo(ui::MainWindow& window, std::optional<int> speed = std::nullopt);
/// The same two runs recorded, one frame per `every` steps (0: every snake step, every 4th front
/// of region growing), into `recorder`; an MP4 plays them at the same pace as the screen, each start
/// held as on screen, so each method has its share of the video. Returns an error message, empty on success.
QString recordDemo(ui::MainWindow& window, ui::FrameRecorder& recorder, int every, std::optional<int> speed = std::nullopt);
/// The demo without a display: the same command again under xvfb-run (the views need OpenGL, which
/// Qt's offscreen platform lacks), recording to `record` or kDemoRecording. Returns only on failure.
int recordDemoUnderXvfb(int argc, char** argv, const QString& record);

}  // namespace lucent::app
