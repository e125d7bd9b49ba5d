/// @brief The demo's sequence: snake, a pause on its result, region growing (which replaces the
/// snake's preview: an accepted snake would tint the head under the growing skull).
#include "Demo.h"

#include "LiveRun.h"

#include "lucent/core/seg/DemoPlan.h"
#include "lucent/core/seg/RunSpeed.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/SegmentPanel.h"

#include <QDir>
#include <QTimer>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

namespace lucent::app {

namespace {

/// How long the snake's result stays on screen before region growing starts, and each run's start
/// before it plays (the rectangle, the seed: what the audience is about to see move).
constexpr int kResultPauseMs = 1500;
constexpr double kStartHoldSeconds = 1.5;
/// The snake's pace for an audience when --speed does not set one: its 39 steps on the CT head in
/// about 4 s (its method's 20 steps/s, made for one person at the screen, was over in 2).
constexpr int kDemoSnakeSpeed = 10;
/// A recording's steps per frame when none is asked for: every snake step; region growing's few
/// hundred fronts in a few seconds of video.
constexpr int kSnakeEvery = 1, kGrowingEvery = 4;

LiveOptions demoRun(Method method, const SegmentationRequest& request, std::optional<int> speed) {
    LiveOptions o;
    o.method = method;
    o.request = request;
    o.request.volume = nullptr;  // runLive takes the window's volume
    o.speed = speed.value_or(method == Method::Snake ? kDemoSnakeSpeed : watchableSpeed(method));
    o.holdStart = kStartHoldSeconds;
    return o;
}

}  // namespace

QString demoVolumePath() {
    QString data = qEnvironmentVariable("LUCENT_DATA");
    if (data.isEmpty()) {
        const QString cache = qEnvironmentVariable("XDG_CACHE_HOME", QDir::home().filePath(".cache"));
        data = QDir(cache).filePath("lucent/data");
    }
    return QDir(data).filePath("cranium/cranium.mhd");
}

void playDemo(ui::MainWindow& window, std::optional<int> speed) {
    DemoPlan plan;
    try {
        plan = planDemo(*window.model().volume());
    } catch (const std::exception& e) {
        std::cerr << "lucent: demo: " << e.what() << "\n";
        return;
    }
    window.setLayoutMode(ui::Layout::Single);
    if (const QString why = runLive(window, demoRun(Method::Snake, plan.snake, speed), false); !why.isEmpty()) {
        std::cerr << "lucent: demo: " << why.toStdString() << "\n";
        return;
    }
    ui::LiveSegmentation& live = window.segment().live();
    auto* done = new QObject(&window);  // the connection lives until the snake finished once
    QObject::connect(&live, &ui::LiveSegmentation::stateChanged, done, [&window, &live, done, plan, speed] {
        if (live.method() != Method::Snake || live.published().state != SessionState::Finished) return;
        done->deleteLater();
        QTimer::singleShot(kResultPauseMs, &window, [&window, plan, speed] {
            const QString why = runLive(window, demoRun(Method::RegionGrowing, plan.growing, speed), false);
            if (!why.isEmpty()) std::cerr << "lucent: demo: " << why.toStdString() << "\n";
        });
    });
}

QString recordDemo(ui::MainWindow& window, ui::FrameRecorder& recorder, int every, std::optional<int> speed) {
    DemoPlan plan;
    try {
        plan = planDemo(*window.model().volume());
    } catch (const std::exception& e) {
        return e.what();
    }
    window.setLayoutMode(ui::Layout::Single);
    LiveOptions snake = demoRun(Method::Snake, plan.snake, speed);
    snake.recordEvery = every > 0 ? every : kSnakeEvery;
    if (const QString why = runLive(window, snake, true, &recorder); !why.isEmpty()) return why;
    LiveOptions growing = demoRun(Method::RegionGrowing, plan.growing, speed);
    growing.recordEvery = every > 0 ? every : kGrowingEvery;
    return runLive(window, growing, true, &recorder);
}

}  // namespace lucent::app

namespace lucent::app {

int recordDemoUnderXvfb(int argc, char** argv, const QString& record) {
    std::error_code ec;
    const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    std::vector<std::string> args{"xvfb-run", "-a", "-s", "-screen 0 1600x1200x24", ec ? std::string(argv[0]) : self};
    args.insert(args.end(), argv + 1, argv + argc);
    if (record.isEmpty()) args.insert(args.end(), {"--record", kDemoRecording});
    std::vector<char*> raw;
    for (auto& a : args) raw.push_back(a.data());
    raw.push_back(nullptr);
    std::cerr << "lucent: no display: recording the demo to "
              << (record.isEmpty() ? std::string(kDemoRecording) : record.toStdString()) << " under xvfb-run\n";
    ::setenv("QT_QPA_PLATFORM", "xcb", 1);
    ::execvp(raw[0], raw.data());
    std::cerr << "lucent: error: no display, and xvfb-run (Debian: xvfb) is not installed to record the demo without "
                 "one; run lucent --demo on a desktop\n";
    return 1;
}

}  // namespace lucent::app
