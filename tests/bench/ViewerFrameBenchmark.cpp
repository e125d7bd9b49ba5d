/// @brief Viewer frame times on a 512 x 512 x 400 int16 volume: scrolling and window/level in the 2x2
/// layout, each frame rendering the three views (and reading them back). Run it under Xvfb (or
/// any X display); prints median and worst frame in ms, and the one-off texture upload.
/// usage: xvfb-run -a -s "-screen 0 1920x1080x24" lucent_bench_viewer [--frames N] [--size X,Y,Z]
#include "lucent/core/ParallelFor.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/OpenGlSetup.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>

using namespace lucent;

namespace {

std::shared_ptr<Volume> phantom(int nx, int ny, int nz) {
    Geometry g;
    g.dims = {nx, ny, nz};
    g.spacing = {0.7, 0.7, 1.0};
    auto v = std::make_shared<Volume>(g, PixelType::Int16);
    parallelFor(nz, 0, [&](std::size_t k) {
        std::mt19937 rng{static_cast<unsigned>(k)};
        std::uniform_int_distribution<int> noise(-30, 30);
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const double d = std::hypot(i - nx / 2.0, j - ny / 2.0);
                const int base = d < nx * 0.2 ? 60 : (d < nx * 0.4 ? (d > nx * 0.37 ? 900 : 30) : -1000);
                v->int16Data()[g.index(i, j, int(k))] = std::int16_t(base + noise(rng));
            }
    });
    v->metadata().modality = "CT";
    return v;
}

struct Stats {
    double median = 0, worst = 0;
};

Stats stats(std::vector<double> t) {
    std::sort(t.begin(), t.end());
    return {t[t.size() / 2], t.back()};
}

}  // namespace

int main(int argc, char** argv) {
    int frames = 100, nx = 512, ny = 512, nz = 400;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!std::strcmp(argv[a], "--frames")) frames = std::atoi(argv[a + 1]);
        if (!std::strcmp(argv[a], "--size")) std::sscanf(argv[a + 1], "%d,%d,%d", &nx, &ny, &nz);
    }
    lucent::ui::prepareOpenGl();
    QApplication app(argc, argv);
    app.setOrganizationName("Lucent-bench");
    ui::MainWindow window;
    window.resize(1280, 860);
    window.setLayoutMode(ui::Layout::Grid2x2);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) return 1;
    const auto volume = phantom(nx, ny, nz);
    ui::SliceViewWidget* views[3] = {window.grid().view(render::Orientation::Axial),
                                     window.grid().view(render::Orientation::Coronal),
                                     window.grid().view(render::Orientation::Sagittal)};
    // One frame: render the three views now. repaint() would leave the GL work to the next
    // composition; grabFramebuffer() renders synchronously and reads the pixels back (3 x 1 MB),
    // so the figure is an upper bound on what a screen refresh costs.
    auto frame = [&] {
        QElapsedTimer t;
        t.start();
        for (auto* v : views) {
            const QImage img = v->grabFramebuffer();
            if (img.isNull()) std::abort();
        }
        return t.nsecsElapsed() / 1e6;
    };
    SeriesInfo info;
    info.modality = "CT";
    QElapsedTimer upload;
    upload.start();
    window.model().setVolume(volume, info, "abdomen");
    const double first = frame();
    const double uploadMs = upload.nsecsElapsed() / 1e6;
    std::vector<double> scroll, windowing;
    for (int f = 0; f < frames; ++f) {
        window.model().moveCursor(2, (f / (nz - 1)) % 2 ? -1 : 1);  // sweep up and down the stack
        scroll.push_back(frame());
    }
    for (int f = 0; f < frames; ++f) {
        window.model().setWindow({50.0 + f, 400.0 + 3.0 * f});
        windowing.push_back(frame());
    }
    const auto s = stats(scroll), w = stats(windowing);
    const char* renderer = "?";
    views[0]->makeCurrent();
    if (auto* f = QOpenGLContext::currentContext()->functions())
        renderer = reinterpret_cast<const char*>(f->glGetString(GL_RENDERER));
    std::printf("viewer frames, %d x %d x %d int16, 2x2 layout at 1280x860 (three views a frame), GL renderer: %s\n", nx,
                ny, nz, renderer);
    std::printf("first frame (with the texture upload) %.1f ms; volume handed to the model %.1f ms before\n", first, uploadMs - first);
    std::printf("scroll                 median %6.2f ms   worst %6.2f ms   (%d frames)\n", s.median, s.worst, frames);
    std::printf("window/level           median %6.2f ms   worst %6.2f ms   (%d frames)\n", w.median, w.worst, frames);
    views[0]->doneCurrent();
    return 0;
}
