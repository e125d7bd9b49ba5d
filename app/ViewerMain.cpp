/// @brief `lucent [PATH] [--mask MASK] [--preset NAME] [--layout L] [--series ID] [--screenshot OUT.png]
/// [--live srg|fc|fcm|snake [options of lucent segment] [--steps N] [--record OUT.mp4|DIR]]`: the Qt
/// viewer, a rendered screenshot of its window, or a method evolving live in it.
#include "CommandLine.h"
#include "Commands.h"
#include "FrameRecorder.h"
#include "SegmentOptions.h"

#include "lucent/ui/MainWindow.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/io/VolumeFile.h"
#include "lucent/ui/OpenGlSetup.h"
#include "lucent/ui/SegmentPanel.h"

#include <QApplication>
#include <QImage>
#include <QTimer>

#include <iostream>

namespace lucent::app {

namespace {

struct LiveOptions {
    Method method = Method::RegionGrowing;
    gpu::Backend backend = gpu::Backend::Auto;
    SegmentationRequest request;
    int steps = -1;  // to convergence
    QString record;
};

/// Starts the method in the window as the interactive path does, advances it (every frame drawn,
/// and recorded with --record), and leaves it on screen. Returns an error message, empty on success.
QString runLive(ui::MainWindow& window, const LiveOptions& live, bool script) {
    ui::SegmentPanel& panel = window.segment();
    panel.live().setBackend(live.backend);
    QString error;
    if (!panel.startWith(live.method, live.request, !script || live.steps < 0 ? true : false, &error)) return error;
    if (!script) return {};
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
    const auto& p = panel.live().published();
    std::cout << "live " << methodName(live.method) << " (" << p.backend << "): " << p.steps << " steps, "
              << panel.live().voxels() << " voxels, " << sessionStateName(p.state) << "\n";
    return {};
}

}  // namespace

int runViewer(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    std::set<std::string> valued = segmentValueOptions();
    valued.insert({"--screenshot", "--layout", "--mask", "--preset", "--series", "--live", "--steps", "--record"});
    const CommandLine cl(args, valued, segmentFlags());
    if (cl.positionals().size() > 1) throw UsageError("the viewer takes at most one PATH");
    const QString path = cl.positionals().empty() ? QString() : QString::fromStdString(cl.positionals()[0]);
    const QString screenshot = QString::fromStdString(cl.value("--screenshot"));
    ui::Layout layout = ui::Layout::Grid2x2;
    if (cl.has("--layout") && !ui::parseLayout(QString::fromStdString(cl.value("--layout")), layout))
        throw UsageError("--layout must be 1x1, 2x2 or 1+3");
    if (!screenshot.isEmpty() && path.isEmpty()) throw UsageError("--screenshot needs a PATH to open");
    if (!screenshot.isEmpty() && !screenshot.endsWith(".png", Qt::CaseInsensitive))
        throw UsageError("--screenshot writes a .png file");

    const bool liveRun = cl.has("--live");
    LiveOptions live;
    if (liveRun) {
        if (path.isEmpty()) throw UsageError("--live needs a PATH to open");
        try {
            live.method = gpu::parseMethod(cl.value("--live"));
            live.backend = gpu::parseBackend(cl.value("--backend", "auto"));
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
        live.request = requestFromOptions(cl, live.method);
        live.steps = cl.has("--steps") ? cl.integer("--steps", 0) : -1;
        if (cl.has("--steps") && live.steps < 1) throw UsageError("--steps must be at least 1");
        live.record = QString::fromStdString(cl.value("--record"));
    } else {
        for (const char* o : {"--steps", "--record", "--backend", "--seed", "--lower", "--upper", "--rect", "--slice"})
            if (cl.has(o)) throw UsageError(std::string(o) + " needs --live srg|fc|fcm|snake");
    }
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
    // Screenshots must not depend on, nor change, the user's remembered settings.
    app.setOrganizationName(screenshot.isEmpty() && live.record.isEmpty() ? "Lucent" : "Lucent-screenshot");
    app.setApplicationName("Lucent");

    ui::MainWindow window;
    const QString mask = QString::fromStdString(cl.value("--mask"));
    const QString preset = QString::fromStdString(cl.value("--preset"));
    const QString series = QString::fromStdString(cl.value("--series"));
    LabelMap requestMask;  // --mask with --live restricts the method too, as in lucent segment
    const bool script = !screenshot.isEmpty() || !live.record.isEmpty();
    if (script) {
        window.resize(1280, 860);
        window.setLayoutMode(layout);
        window.show();
        QString error;
        if (!window.openPath(path, series, true, &error)) {
            std::cerr << "lucent: error: " << error.toStdString() << "\n";
            return 1;
        }
        if (!mask.isEmpty() && !window.openMask(mask, &error)) {
            std::cerr << "lucent: error: " << error.toStdString() << "\n";
            return 1;
        }
        if (!preset.isEmpty() && !window.applyPreset(preset)) {
            std::cerr << "lucent: error: unknown preset '" << preset.toStdString()
                      << "' (lung, mediastinum, bone, brain, abdomen, auto; file1, file2, ...: the scan's own windows)\n";
            return 1;
        }
        for (int i = 0; i < 5; ++i) QApplication::processEvents();
        if (liveRun) {
            if (!mask.isEmpty()) {
                requestMask = *window.model().labels();
                live.request.mask = &requestMask;
            }
            const QString why = runLive(window, live, true);
            if (!why.isEmpty()) {
                std::cerr << "lucent: error: " << why.toStdString() << "\n";
                return 1;
            }
            for (int i = 0; i < 5; ++i) QApplication::processEvents();
        }
        if (screenshot.isEmpty()) return 0;
        const QImage image = window.grab().toImage();
        if (image.isNull() || !image.save(screenshot)) {
            std::cerr << "lucent: error: cannot write " << screenshot.toStdString() << "\n";
            return 1;
        }
        return 0;
    }
    if (cl.has("--layout")) window.setLayoutMode(layout);
    window.show();
    if (!path.isEmpty()) {
        // The mask and preset follow the volume, which arrives asynchronously.
        QObject::connect(&window.model(), &ui::ViewerModel::volumeChanged, &window, [&window, mask, preset, liveRun, &live, &requestMask] {
            static bool done = false;
            if (done) return;
            done = true;
            QString error;
            if (!mask.isEmpty() && !window.openMask(mask, &error)) std::cerr << "lucent: mask: " << error.toStdString() << "\n";
            if (!preset.isEmpty()) window.applyPreset(preset);
            if (liveRun) {
                if (!mask.isEmpty() && window.model().labels()) {
                    requestMask = *window.model().labels();
                    live.request.mask = &requestMask;
                }
                const QString why = runLive(window, live, false);
                if (!why.isEmpty()) std::cerr << "lucent: live: " << why.toStdString() << "\n";
            }
        });
        window.openPath(path, series);
    }
    return app.exec();
}

}  // namespace lucent::app
