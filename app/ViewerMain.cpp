/// @brief `lucent [PATH] [--mask MASK] [--preset NAME] [--layout L] [--series ID] [--screenshot OUT.png]
/// [--live srg|fc|fcm|snake [options of lucent segment] [--steps N] [--record OUT.mp4|DIR] [--accept]]
/// [--recover]`: the Qt
/// viewer, a rendered screenshot of its window, or a method evolving live in it.
#include "CommandLine.h"
#include "Commands.h"
#include "FrameRecorder.h"
#include "SeedPoints.h"
#include "SegmentOptions.h"

#include "lucent/ui/Autosave.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/io/VolumeFile.h"
#include "lucent/ui/OpenGlSetup.h"
#include "lucent/ui/SegmentPanel.h"

#include <QApplication>
#include <QImage>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include <iostream>

namespace lucent::app {

namespace {

struct LiveOptions {
    Method method = Method::RegionGrowing;
    gpu::Backend backend = gpu::Backend::Auto;
    SegmentationRequest request;
    std::vector<WorldSeed> worldSeeds;  ///< --seed-lps / --seed-ras / --seeds: placed once the volume is loaded
    int steps = -1;  // to convergence
    QString record;
    bool accept = false;  ///< --accept: the result goes into the label layer when the run ends
};

/// --accept in the window: Segment > Accept once the run has finished (then the autosave keeps it).
void acceptWhenFinished(ui::SegmentPanel& panel) {
    auto* once = new QObject(&panel);
    QObject::connect(&panel.live(), &ui::LiveSegmentation::stateChanged, once, [&panel, once] {
        if (panel.live().published().state != SessionState::Finished) return;
        once->deleteLater();
        if (!panel.acceptResult()) std::cerr << "lucent: live: the result could not be accepted\n";
    });
}

/// Starts the method in the window as the interactive path does, advances it (every frame drawn,
/// and recorded with --record), and leaves it on screen. Returns an error message, empty on success.
QString runLive(ui::MainWindow& window, const LiveOptions& live, bool script) {
    ui::SegmentPanel& panel = window.segment();
    panel.live().setBackend(live.backend);
    // Seeds in millimetres become voxels of the loaded volume, by the rule lucent segment uses.
    SegmentationRequest request = live.request;
    try {
        for (const WorldSeed& seed : live.worldSeeds)
            request.seeds.push_back(nearestVoxel(window.model().volume()->geometry(), seed));
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    QString error;
    if (!panel.startWith(live.method, request, !script || live.steps < 0 ? true : false, &error)) return error;
    if (!script) {
        if (live.accept) acceptWhenFinished(panel);
        return {};
    }
    std::unique_ptr<FrameRecorder> recorder;
    try {
        if (!live.record.isEmpty()) recorder = std::make_unique<FrameRecorder>(live.record);
        const auto onFrame = [&] {
            for (int i = 0; i < 2; ++i) QApplication::processEvents();
            if (recorder) recorder->add(window.grab().toImage());
        };
        if (!panel.live().runFrames(live.steps, onFrame, &error)) return error.isEmpty() ? "the run ended without a result" : error;
        if (recorder) {
            const int frames = recorder->finish();
            std::cout << "recorded " << frames << " frames to " << recorder->target().toStdString() << "\n";
        }
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    if (live.accept && !panel.acceptResult()) return "the result could not be accepted: " + panel.live().lastError();
    const auto& p = panel.live().published();
    std::cout << "live " << methodName(live.method) << " (" << p.backend << "): " << p.steps << " steps, "
              << panel.live().voxels() << " voxels, " << sessionStateName(p.state) << "\n";
    return {};
}


/// The viewer's command line, checked.
struct ViewerOptions {
    QString path, screenshot, mask, preset, series;
    bool recover = false;  ///< --recover: restore the newest recovery copy without asking
    ui::Layout layout = ui::Layout::Grid2x2;
    bool layoutGiven = false;
    bool liveRun = false;
    LiveOptions live;
};

LiveOptions liveOptions(const CommandLine& cl) {
    LiveOptions live;
    try {
        live.method = gpu::parseMethod(cl.value("--live"));
        live.backend = gpu::parseBackend(cl.value("--backend", backendKey(Backend::Auto)));
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    live.request = requestFromOptions(cl, live.method);
    live.worldSeeds = worldSeedsFromOptions(cl);
    live.steps = cl.has("--steps") ? cl.integer("--steps", 0) : -1;
    if (cl.has("--steps") && live.steps < 1) throw UsageError("--steps must be at least 1");
    live.record = QString::fromStdString(cl.value("--record"));
    live.accept = cl.has("--accept");
    return live;
}

ViewerOptions viewerOptions(const std::vector<std::string>& args) {
    std::set<std::string> valued = segmentValueOptions();
    valued.merge(worldSeedOptions());
    valued.insert({"--screenshot", "--layout", "--mask", "--preset", "--series", "--live", "--steps", "--record"});
    std::set<std::string> flags = segmentFlags();
    flags.insert({"--accept", "--recover"});
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
    o.liveRun = cl.has("--live");
    if (o.liveRun && o.path.isEmpty()) throw UsageError("--live needs a PATH to open");
    if (o.liveRun) o.live = liveOptions(cl);
    for (const char* opt : {"--steps", "--record", "--backend", "--seed", "--seed-lps", "--seed-ras", "--seeds",
                            "--lower", "--upper", "--rect", "--slice", "--accept"})
        if (!o.liveRun && cl.has(opt)) throw UsageError(std::string(opt) + " needs --live " + methodKeyList("|", "|"));
    return o;
}

int fail(const QString& error) {
    std::cerr << "lucent: error: " << error.toStdString() << "\n";
    return 1;
}

/// --screenshot / --record: open, run, render, exit; every failure is exit 1 with one line.
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
        if (const QString why = runLive(window, o.live, true); !why.isEmpty()) return fail(why);
        for (int i = 0; i < 5; ++i) QApplication::processEvents();
    }
    if (o.screenshot.isEmpty()) return 0;
    const QImage image = window.grab().toImage();
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
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
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
    QTemporaryDir scriptSettings;
    if (scripted) {
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
