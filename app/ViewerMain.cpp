/// @brief `lucent [PATH] [--mask MASK] [--preset NAME] [--layout L] [--series ID] [--screenshot OUT.png]`:
/// the Qt viewer, or a rendered screenshot of its window for scripts and tests.
#include "CommandLine.h"
#include "Commands.h"

#include "lucent/ui/MainWindow.h"
#include "lucent/ui/OpenGlSetup.h"

#include <QApplication>
#include <QImage>
#include <QTimer>

#include <iostream>

namespace lucent::app {

int runViewer(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    const CommandLine cl(args, {"--screenshot", "--layout", "--mask", "--preset", "--series"}, {});
    if (cl.positionals().size() > 1) throw UsageError("the viewer takes at most one PATH");
    const QString path = cl.positionals().empty() ? QString() : QString::fromStdString(cl.positionals()[0]);
    const QString screenshot = QString::fromStdString(cl.value("--screenshot"));
    ui::Layout layout = ui::Layout::Grid2x2;
    if (cl.has("--layout") && !ui::parseLayout(QString::fromStdString(cl.value("--layout")), layout))
        throw UsageError("--layout must be 1x1, 2x2 or 1+3");
    if (!screenshot.isEmpty() && path.isEmpty()) throw UsageError("--screenshot needs a PATH to open");
    if (!screenshot.isEmpty() && !screenshot.endsWith(".png", Qt::CaseInsensitive))
        throw UsageError("--screenshot writes a .png file");

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
    app.setOrganizationName(screenshot.isEmpty() ? "Lucent" : "Lucent-screenshot");
    app.setApplicationName("Lucent");

    ui::MainWindow window;
    const QString mask = QString::fromStdString(cl.value("--mask"));
    const QString preset = QString::fromStdString(cl.value("--preset"));
    const QString series = QString::fromStdString(cl.value("--series"));
    if (!screenshot.isEmpty()) {
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
                      << "' (lung, mediastinum, bone, brain, abdomen, auto)\n";
            return 1;
        }
        for (int i = 0; i < 5; ++i) QApplication::processEvents();
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
        QObject::connect(&window.model(), &ui::ViewerModel::volumeChanged, &window, [&window, mask, preset] {
            static bool done = false;
            if (done) return;
            done = true;
            QString error;
            if (!mask.isEmpty() && !window.openMask(mask, &error)) std::cerr << "lucent: mask: " << error.toStdString() << "\n";
            if (!preset.isEmpty()) window.applyPreset(preset);
        });
        window.openPath(path, series);
    }
    return app.exec();
}

}  // namespace lucent::app
