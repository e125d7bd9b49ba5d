/// @brief RecordingPlan without a display: MP4 or a folder of PNGs (and the fallback without
/// ffmpeg), the frames' names, ffmpeg's arguments, the steps between frames, the closing line.
#include "lucent/ui/RecordingPlan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

using lucent::ui::RecordingPlan;

namespace {

/// The steps at which frames are taken: the start, then as stepsToNextFrame says, until it says 0
/// or the run's `end` (its last step, when the engine finishes first).
std::vector<int> frameSteps(int every, int maxSteps, int end) {
    std::vector<int> steps{0};
    int step = 0;
    while (step < end) {
        const int n = RecordingPlan::stepsToNextFrame(step, every, maxSteps);
        if (n == 0) break;
        step = std::min(step + n, end);
        steps.push_back(step);
    }
    return steps;
}

}  // namespace

TEST(RecordingPlan, AnMp4GoesThroughFfmpegIntoATemporaryRenamedAtTheEnd) {
    const RecordingPlan plan("/tmp/out/run.MP4", 24, true);
    EXPECT_TRUE(plan.toMp4());
    EXPECT_EQ(plan.target(), "/tmp/out/run.MP4");
    EXPECT_EQ(plan.partial(), "/tmp/out/run.MP4.part");
    EXPECT_TRUE(plan.fallbackNotice().isEmpty());
    const QStringList args = plan.ffmpegArguments(QSize(641, 481));
    EXPECT_EQ(args.mid(args.indexOf("-s"), 2), QStringList({"-s", "640x480"})) << "yuv420p: even sides";
    EXPECT_EQ(args.mid(args.indexOf("-framerate"), 2), QStringList({"-framerate", "24"}));
    EXPECT_EQ(args.mid(args.indexOf("-i"), 2), QStringList({"-i", "-"})) << "frames on standard input";
    EXPECT_EQ(args.mid(args.lastIndexOf("-f"), 3), QStringList({"-f", "mp4", "/tmp/out/run.MP4.part"}));
    EXPECT_EQ(RecordingPlan::encodedSize(QSize(1280, 859)), QSize(1280, 858));
}

TEST(RecordingPlan, AFolderOrAnMp4WithoutFfmpegGetsNumberedPngs) {
    const RecordingPlan folder("/tmp/frames", RecordingPlan::kDefaultFps, true);
    EXPECT_FALSE(folder.toMp4());
    EXPECT_EQ(folder.framePath(0), "/tmp/frames/frame-00000.png");
    EXPECT_EQ(folder.framePath(39), "/tmp/frames/frame-00039.png");
    EXPECT_EQ(folder.notesPath(), "/tmp/frames/frames.json");
    const RecordingPlan noFfmpeg("/tmp/run.mp4", 30, false);
    EXPECT_FALSE(noFfmpeg.toMp4());
    EXPECT_EQ(noFfmpeg.target(), "/tmp/run");
    EXPECT_TRUE(noFfmpeg.fallbackNotice().contains("ffmpeg is not installed"));
    EXPECT_TRUE(noFfmpeg.fallbackNotice().contains("/tmp/run/"));
}

TEST(RecordingPlan, BadSettingsAreRefusedByName) {
    EXPECT_THROW(RecordingPlan("", 30, true), std::invalid_argument);
    EXPECT_THROW(RecordingPlan("/tmp/a.mp4", RecordingPlan::kMinFps - 1, true), std::invalid_argument);
    EXPECT_THROW(RecordingPlan("/tmp/a.mp4", RecordingPlan::kMaxFps + 1, true), std::invalid_argument);
    EXPECT_NO_THROW(RecordingPlan("/tmp/a.mp4", RecordingPlan::kMaxFps, true));
    try {
        RecordingPlan("/tmp/a.mp4", 0, true);
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("1..240"), std::string::npos) << e.what();
    }
}

TEST(RecordingPlan, OneFrameEveryKStepsAndTheLast) {
    // The README snake: 39 steps, one frame each and the start: 40 frames.
    EXPECT_EQ(frameSteps(1, -1, 39).size(), 40u);
    EXPECT_EQ(frameSteps(10, 60, 1000), (std::vector<int>{0, 10, 20, 30, 40, 50, 60})) << "--steps 60 --record-every 10";
    EXPECT_EQ(frameSteps(4, 10, 1000), (std::vector<int>{0, 4, 8, 10})) << "--steps ends between two frames";
    EXPECT_EQ(frameSteps(2, -1, 7), (std::vector<int>{0, 2, 4, 6, 7})) << "the engine's last step is a frame";
    EXPECT_EQ(RecordingPlan::stepsToNextFrame(5, 0, -1), 1) << "every < 1 counts as 1";
    EXPECT_EQ(RecordingPlan::stepsToNextFrame(10, 3, 10), 0) << "--steps reached";
}

TEST(RecordingPlan, TheClosingLineSaysHowManyFramesWentWhere) {
    EXPECT_EQ(RecordingPlan("/tmp/frames", 30, true).endMessage(40), "recorded 40 frames to /tmp/frames");
    EXPECT_EQ(RecordingPlan("/tmp/r.mp4", 30, false).endMessage(3), "recorded 3 frames to /tmp/r");
}
