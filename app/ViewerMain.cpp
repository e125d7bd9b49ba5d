/// @brief `lucent [PATH] [--mask MASK] [--preset NAME] [--layout L] [--series ID] [--screenshot OUT.png]
/// [--live srg|fc|fcm|snake|snake3d [options of lucent segment] [--steps N] [--speed S] [--record OUT.mp4|DIR]
/// [--accept]] [--recover]` and `lucent --demo [PATH]`: the Qt viewer, a rendered screenshot of its window, or a method
/// evolving live in it.
#include "CommandLine.h"
#include "Commands.h"
#include "Demo.h"
#include "LiveRun.h"
#include "SeedPoints.h"
#include "SegmentOptions.h"

#include "lucent/core/seg/RunSpeed.h"
#include "lucent/ui/Autosave.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/io/VolumeFile.h"
#include "lucent/ui/OpenGlSetup.h"
#include "lucent/ui/SegmentPanel.h"
#include "lucent/ui/ViewCapture.h"

#include <QApplication>
#include <QFileInfo>
#include <QImage>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include <iostream>

namespace lucent::app {

namespace {

/// The viewer's command line, checked.
struct ViewerOptions {
    QString path, screenshot, mask, preset, series;
    ui::Layout layout = ui::Layout::Grid2x2;
    bool layoutGiven = false;
    bool liveRun = false;
    bool demo = false;
    bool recover = false;
    LiveOptions live;
};

ViewerOptions viewerOptions(const std::vector<std::string>& args) {
    std::set<std::string> valued = segmentValueOptions();
    valued.merge(worldSeedOptions());
    valued.merge(liveValueOptions());
    valued.insert({"--screenshot", "--layout", "--mask", "--preset", "--series"});
    std::set<std::string> flags = segmentFlags();
    flags.insert({"--demo", "--accept", "--recover"});
    const CommandLine cl(args, valued, flags);
    if (cl.positionals().size() > 1) throw UsageError("the viewer takes at most one PATH");
    ViewerOptions o;
    o.path = cl.positionals().empty() ? QString() : QString::fromStdString(cl.positionals()[0]);
    o.screenshot = QString::fromStdString(cl.value("--screenshot"));
    o.mask = QString::fromStdString(cl.value("--mask"));
    o.preset = QString::fromStdString(cl.value("--preset"));
    o.series = QString::fromStdString(cl.value("--series"));
    o.layoutGiven = cl.has("--layout");
    o.recover = cl.has("--recover");
    if (o.layoutGiven && !ui::parseLayout(QString::fromStdString(cl.value("--layout")), o.layout))
        throw UsageError("--layout must be 1x1, 2x2 or 1+3");
    if (!o.screenshot.isEmpty() && o.path.isEmpty()) throw UsageError("--screenshot needs a PATH to open");
    if (!o.screenshot.isEmpty() && !o.screenshot.endsWith(".png", Qt::CaseInsensitive))
        throw UsageError("--screenshot writes a .png file");
    if (o.recover && !o.screenshot.isEmpty()) throw UsageError("--recover restores into the window; not with --screenshot");
    o.demo = cl.has("--demo");
    if (o.demo) {
        if (cl.has("--live")) throw UsageError("--demo plays its own runs: leave out --live");
        if (o.path.isEmpty()) o.path = demoVolumePath();
        if (cl.positionals().empty() && !QFileInfo::exists(o.path))
            throw UsageError("the demo's CT head is not at " + o.path.toStdString() +
                             ": fetch it with bash tests/fetch-data.sh (or set LUCENT_DATA), or name a PATH");
        o.live.record = QString::fromStdString(cl.value("--record"));
        o.live.recordEvery = cl.integer("--record-every", 0);  // 0: the demo's own per method
        if (cl.has("--record-every") && o.live.recordEvery < 1) throw UsageError("--record-every must be at least 1");
        o.live.recordFps = cl.integer("--record-fps", ui::RecordingPlan::kDefaultFps);
        if (o.live.recordFps < ui::RecordingPlan::kMinFps || o.live.recordFps > ui::RecordingPlan::kMaxFps)
            throw UsageError("--record-fps must be " + ui::RecordingPlan::fpsRange().toStdString());
        try {
            if (cl.has("--speed")) o.live.speed = parseSpeed(cl.value("--speed"));
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--speed: ") + e.what());
        }
        return o;
    }
    o.liveRun = cl.has("--live");
    if (o.liveRun && o.path.isEmpty()) throw UsageError("--live needs a PATH to open");
    if (o.liveRun) o.live = liveOptions(cl);
    for (const char* opt : {"--steps", "--record", "--backend", "--seed", "--seed-lps", "--seed-ras", "--seeds",
                            "--lower", "--upper", "--rect", "--slice", "--speed", "--record-every", "--record-fps",
                            "--accept"})
        if (!o.liveRun && cl.has(opt)) throw UsageError(std::string(opt) + " needs --live " + methodKeyList("|", "|"));
    return o;
}

int fail(const QString& error) {
    std::cerr << "lucent: error: " << error.toStdString() << "\n";
    return 1;
}

/// The recorder of --record (or the demo's): says on stderr when an MP4 becomes PNGs (no ffmpeg).
std::unique_ptr<ui::FrameRecorder> makeRecorder(const QString& path, int fps) {
    ui::RecordingPlan plan(path, fps);
    if (!plan.fallbackNotice().isEmpty()) std::cerr << "lucent: warning: " << plan.fallbackNotice().toStdString() << "\n";
    return std::make_unique<ui::FrameRecorder>(plan);
}

void finishRecording(ui::FrameRecorder& recorder) {
    const int frames = recorder.finish();
    std::cout << recorder.plan().endMessage(frames).toStdString() << "\n";
}

/// --screenshot / --record / a demo without a display: open, run, render, exit; every failure is
/// exit 1 with one line.
int runScripted(ui::MainWindow& window, ViewerOptions& o) {
    window.resize(1280, 860);
    window.setLayoutMode(o.layout);
    window.show();
    QString error;
    if (!window.openPath(o.path, o.series, true, &error)) return fail(error);
    if (!o.mask.isEmpty() && !window.openMask(o.mask, &error)) return fail(error);
    if (!o.preset.isEmpty() && !window.applyPreset(o.preset))
        return fail("unknown preset '" + o.preset +
                    "' (lung, mediastinum, bone, brain, abdomen, auto; file1, file2, ...: the scan's own windows)");
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    LabelMap requestMask;  // --mask with --live restricts the method too, as in lucent segment
    if (o.liveRun) {
        if (!o.mask.isEmpty()) {
            requestMask = *window.model().labels();
            o.live.request.mask = &requestMask;
        }
        std::unique_ptr<ui::FrameRecorder> recorder;
        try {
            if (!o.live.record.isEmpty()) recorder = makeRecorder(o.live.record, o.live.recordFps);
            if (const QString why = runLive(window, o.live, true, recorder.get()); !why.isEmpty()) return fail(why);
            if (recorder) finishRecording(*recorder);
        } catch (const std::exception& e) {
            return fail(QString::fromStdString(e.what()));
        }
        for (int i = 0; i < 5; ++i) QApplication::processEvents();
    }
    if (o.demo) {
        try {
            const auto recorder = makeRecorder(o.live.record.isEmpty() ? QString(kDemoRecording) : o.live.record, o.live.recordFps);
            if (const QString why = recordDemo(window, *recorder, o.live.recordEvery, o.live.speed); !why.isEmpty())
                return fail(why);
            finishRecording(*recorder);
        } catch (const std::exception& e) {
            return fail(QString::fromStdString(e.what()));
        }
    }
    if (o.screenshot.isEmpty()) return 0;
    const QImage image = ui::captureWindow(&window);
    if (image.isNull() || !image.save(o.screenshot)) return fail("cannot write " + o.screenshot);
    return 0;
}

/// The interactive window: the mask, preset and live run follow the volume, which arrives asynchronously.
void openInteractive(ui::MainWindow& window, ViewerOptions& o, LabelMap& requestMask) {
    if (o.layoutGiven) window.setLayoutMode(o.layout);
    window.show();
    if (o.path.isEmpty()) return;
    QObject::connect(&window.model(), &ui::ViewerModel::volumeChanged, &window, [&window, &o, &requestMask] {
        static bool done = false;
        if (done) return;
        done = true;
        QString error;
        if (!o.mask.isEmpty() && !window.openMask(o.mask, &error)) std::cerr << "lucent: mask: " << error.toStdString() << "\n";
        if (!o.preset.isEmpty()) window.applyPreset(o.preset);
        if (o.demo) return playDemo(window, o.live.speed);
        if (!o.liveRun) return;
        if (!o.mask.isEmpty() && window.model().labels()) {
            requestMask = *window.model().labels();
            o.live.request.mask = &requestMask;
        }
        const QString why = runLive(window, o.live, false);
        if (!why.isEmpty()) std::cerr << "lucent: live: " << why.toStdString() << "\n";
    });
    window.openPath(o.path, o.series);
}

}  // namespace

int runViewer(int argc, char** argv) {
    ViewerOptions o = viewerOptions(std::vector<std::string>(argv + 1, argv + argc));
    // Without a display Qt would abort with a page about platform plugins: say it in one line.
    const bool noDisplay = qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
                           qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
    if (noDisplay && o.demo) return recordDemoUnderXvfb(argc, argv, o.live.record);
    if (noDisplay) {
        std::cerr << "lucent: error: no display (DISPLAY is not set); run the viewer on a desktop, or render it with "
                     "xvfb-run lucent PATH --screenshot OUT.png, or use lucent info/convert/segment\n";
        return 1;
    }
    ui::prepareOpenGl();
    int qtArgc = 1;
    QApplication app(qtArgc, argv);
    app.setOrganizationName("Lucent");
    app.setApplicationName("Lucent");
    const bool scripted = !o.screenshot.isEmpty() || !o.live.record.isEmpty();
    // Scripted runs start from default settings every time and leave none behind: their settings
    // live in a folder of their own, removed at exit (never the user's, nor one shared between runs).
    // So does the demo on screen: its one large view and its volume are not the user's layout and
    // recent files.
    QTemporaryDir scriptSettings;
    if (scripted || o.demo) {
        if (!scriptSettings.isValid()) return fail("cannot make a temporary settings folder: " + scriptSettings.errorString());
        for (auto format : {QSettings::NativeFormat, QSettings::IniFormat})
            QSettings::setPath(format, QSettings::UserScope, scriptSettings.path());
    }
    ui::MainWindow window;
    if (scripted) {
        window.autosave().setEnabled(false);  // nothing of a scripted run is left behind
        return runScripted(window, o);
    }
    // Work a crashed or killed Lucent left: offered (or restored with --recover) before PATH opens.
    window.show();
    if (window.recoverAtStart(o.recover)) o.path.clear();
    LabelMap requestMask;
    openInteractive(window, o, requestMask);
    return app.exec();
}

}  // namespace lucent::app
