/// @brief Viewer frame times on a 512 x 512 x 400 int16 volume: scrolling and window/level in the 2x2
/// layout, then methods evolving live (region growing with its interval moving every frame, fuzzy
/// connectedness threshold scrubbing, the snake on a 512 x 512 slice and on a 15 MP image, the 3D snake
/// from a box, then its scrubber), each
/// frame taking the run's changes into the preview texture and rendering the three views (and
/// reading them back). Run it under Xvfb or any X display; prints median and worst frame in ms (and
/// what ran during the worst frame), steps per second, the one-off texture upload, and whether frames
/// went through CUDA-GL interop.
/// usage: xvfb-run -a -s "-screen 0 1920x1080x24" lucent_bench_viewer [--frames N] [--live-frames N]
///        [--size X,Y,Z] [--backend auto|cpu|cuda] [--snake-side N] [--no-live] [--rows srg,fc,fcm,snake,snake3d,image]
/// (--rows: the live rows to run, all by default; image is the snake's --snake-side image)
#include "lucent/core/ParallelFor.h"
#include "lucent/core/StageTimes.h"
#include "lucent/core/seg/RunSpeed.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/OpenGlSetup.h"
#include "lucent/ui/SegmentPanel.h"

#include "lucent/gpu/DeviceInfo.h"
#include "lucent/ui/View3DWidget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include <sys/resource.h>

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

/// Times every event the application delivers at the top level (not those delivered inside
/// another's handling), as stages named by receiver class and event type: what a frame's event
/// processing spent its time on. Events under 0.2 ms are left out.
class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override {
        if (m_depth > 0 || !stages::enabled()) return QApplication::notify(receiver, event);
        ++m_depth;
        QElapsedTimer t;
        t.start();
        const int type = int(event->type());
        const char* cls = receiver->metaObject()->className();
        const bool window = event->type() == QEvent::UpdateRequest && receiver->isWidgetType() &&
                            static_cast<QWidget*>(receiver)->isWindow();
        const double paintsBefore = window ? paintTotal() : 0;
        const bool done = QApplication::notify(receiver, event);
        const double ms = t.nsecsElapsed() / 1e6;
        --m_depth;
        if (ms >= 0.2) stages::record(("event: " + std::string(cls) + " type " + std::to_string(type)).c_str(), ms);
        if (window) presentMs += ms - (paintTotal() - paintsBefore);
        return done;
    }
    /// The window's composition and hand-over to the X server, summed: its repaints without the
    /// views' and the 3D pane's paints inside them (those are Lucent's work, timed as stages).
    double presentMs = 0;

private:
    static double paintTotal() {
        double ms = 0;
        for (const auto& f : stages::snapshot())
            if (f.name.rfind("slice view: paint", 0) == 0 || f.name.rfind("3D pane: paint", 0) == 0) ms += f.totalMs;
        return ms;
    }
    int m_depth = 0;
};

constexpr double kDisplayFrameMs = 1000.0 / 60.0;

struct Stats {
    double median = 0, worst = 0;
};

/// Peak resident memory of this process so far, in MB (getrusage: kB on Linux).
double peakRssMb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

/// Device memory in use now (all processes), in MB; 0 without a device.
double gpuUsedMb() {
    const auto devices = gpu::listDevices();
    return devices.empty() ? 0.0 : double(devices.front().totalMemory - devices.front().freeMemory) / (1024.0 * 1024.0);
}

/// "peak RSS 1234 MB, GPU 567 MB in use": printed beside each row.
void printMemory(const char* after) {
    std::printf("  memory after %s: peak host RSS %.0f MB, GPU %.0f MB in use\n", after, peakRssMb(), gpuUsedMb());
}

/// The stages that ran since the last reset (on every thread): count, total and worst, then reset.
void printStages() {
    for (const auto& f : stages::snapshot())
        std::printf("    %-50s %6lld x  total %9.2f ms  mean %7.3f ms  worst %8.2f ms\n", f.name.c_str(), f.count, f.totalMs,
                    f.totalMs / double(std::max(1LL, f.count)), f.worstMs);
    stages::reset();
}

/// What each stage took between two snapshots (ms and occurrences), by name.
std::vector<stages::Figure> stagesBetween(const std::vector<stages::Figure>& before, const std::vector<stages::Figure>& after) {
    std::vector<stages::Figure> out;
    for (const auto& a : after) {
        stages::Figure d = a;
        for (const auto& b : before)
            if (b.name == a.name) d.totalMs -= b.totalMs, d.count -= b.count;
        if (d.count > 0) out.push_back(d);
    }
    std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.totalMs > y.totalMs; });
    return out;
}

/// "the worst frame (38.2 ms, frame 12 of 60): what ran meanwhile, on every thread": its stages, longest first.
void printWorstFrame(double ms, int frame, int frames, const std::vector<stages::Figure>& during) {
    std::printf("  the worst frame (%.2f ms, frame %d of %d), the stages in it on every thread (ms, occurrences):\n", ms,
                frame + 1, frames);
    int shown = 0;
    for (const auto& f : during) {
        if (f.totalMs < 0.2 || ++shown > 14) break;
        std::printf("    %-56s %8.2f ms %4lld x\n", f.name.c_str(), f.totalMs, f.count);
    }
}

Stats stats(std::vector<double> t) {
    std::sort(t.begin(), t.end());
    return {t[t.size() / 2], t.back()};
}

/// A square int16 image (nz = 1) with a noisy disc: the snake's paper sizes (15 MP: 3873^2).
std::shared_ptr<Volume> snakeImage(int side) {
    Geometry g;
    g.dims = {side, side, 1};
    auto v = std::make_shared<Volume>(g, PixelType::Int16);
    parallelFor(std::size_t(side), 0, [&](std::size_t j) {
        std::mt19937 rng{static_cast<unsigned>(j)};
        std::normal_distribution<double> noise(0.0, 20.0);
        for (int i = 0; i < side; ++i) {
            const double d = std::hypot(i - side / 2.0, double(j) - side / 2.0);
            v->int16Data()[g.index(i, int(j), 0)] = std::int16_t((d < side * 0.3 ? 300 : 100) + noise(rng));
        }
    });
    return v;
}

/// The 3D snake's own figures beside its row: the engine's time a step (the worker's advances, one step
/// each at the viewing pace, less the scrubber's copy of each level set inside them: wall time, the
/// device's launches and read-back included), that copy, the state made of it on the scrubber's own
/// thread, and what the scrubber holds.
void snake3dFigures(const ui::LiveSegmentation& run) {
    double advance = 0, copy = 0, state = 0;
    long long advances = 0, copies = 0, states = 0;
    for (const auto& f : stages::snapshot()) {
        if (f.name == "worker: advance") advance = f.totalMs, advances = f.count;
        if (f.name == "worker: 3D snake level set copied for the scrubber") copy = f.totalMs, copies = f.count;
        if (f.name == "3D snake: a state for the scrubber (own thread)") state = f.totalMs, states = f.count;
    }
    const ui::Snake3dHistory& h = run.snake3dHistory();
    std::printf("  3D snake: %d iterations; engine %.3f ms/step (%lld advances); the scrubber's copy of a level set %.3f ms "
                "(%lld, on the worker), its state %.3f ms (%lld, own thread); HUD %.3f ms/step; the scrubber holds %d "
                "states (%d let go), %.1f MiB of flips\n",
                run.published().last.iterations, (advance - copy) / double(std::max(1LL, advances)), advances,
                copy / double(std::max(1LL, copies)), copies, state / double(std::max(1LL, states)), states,
                run.published().msPerStep, h.count(), h.dropped(), double(h.bytes()) / (1 << 20));
}

struct LiveFigures {
    Stats frame;
    int worstFrame = 0;
    std::vector<stages::Figure> worstStages;  // what ran during the worst frame
    Stats work;  // the frame without the window's composition and present
    int frames = 0;
    double stepsPerSecond = 0;
    bool interop = false;
    std::string backend;
};

}  // namespace

int main(int argc, char** argv) {
    int frames = 100, liveFrames = 300, nx = 512, ny = 512, nz = 400, snakeSide = 3873;
    bool live = true;
    std::string backendName = "auto";
    std::string rows = ",srg,fc,fcm,snake,snake3d,image,";
    auto want = [&](const char* row) { return rows.find(std::string(",") + row + ",") != std::string::npos; };
    for (int a = 1; a < argc; ++a) {
        if (!std::strcmp(argv[a], "--no-live")) live = false;
        if (a + 1 >= argc) continue;
        if (!std::strcmp(argv[a], "--frames")) frames = std::atoi(argv[a + 1]);
        if (!std::strcmp(argv[a], "--live-frames")) liveFrames = std::atoi(argv[a + 1]);
        if (!std::strcmp(argv[a], "--size")) std::sscanf(argv[a + 1], "%d,%d,%d", &nx, &ny, &nz);
        if (!std::strcmp(argv[a], "--backend")) backendName = argv[a + 1];
        if (!std::strcmp(argv[a], "--snake-side")) snakeSide = std::atoi(argv[a + 1]);
        if (!std::strcmp(argv[a], "--rows")) rows = std::string(",") + argv[a + 1] + ",";
    }
    stages::setEnabled(true);
    lucent::ui::prepareOpenGl();
    TimedApplication app(argc, argv);
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
    const double handed = upload.nsecsElapsed() / 1e6;
    const double first = frame();
    QElapsedTimer first3d;
    first3d.start();
    if (auto* pane = window.grid().view3D(); pane && pane->isVisible()) pane->grabFramebuffer();
    const double first3dMs = first3d.nsecsElapsed() / 1e6;
    const double uploadMs = upload.nsecsElapsed() / 1e6;
    const double firstSync = window.grid().textures().lastSyncMs();
    (void)handed;
    std::vector<double> scroll, windowing;
    for (int f = 0; f < frames; ++f) {
        window.model().moveCursor(2, (f / (nz - 1)) % 2 ? -1 : 1);  // sweep up and down the stack
        scroll.push_back(frame());
    }
    for (int f = 0; f < frames; ++f) {
        window.model().setWindow({50.0 + f, 400.0 + 3.0 * f});
        windowing.push_back(frame());
    }
    // The window's own presentation, nothing changed: the views and panels repainted, composed and
    // handed to the X server (through Xvfb on the GPU machine, a copy back to host memory). Every
    // live frame below pays it too, inside its event processing.
    std::vector<double> presenting;
    for (int f = 0; f < frames; ++f) {
        QElapsedTimer t;
        t.start();
        window.update();
        for (auto* v : views) v->update();
        QApplication::processEvents();
        presenting.push_back(t.nsecsElapsed() / 1e6);
    }
    const auto s = stats(scroll), w = stats(windowing), present = stats(presenting);
    const char* renderer = "?";
    views[0]->makeCurrent();
    if (auto* f = QOpenGLContext::currentContext()->functions())
        renderer = reinterpret_cast<const char*>(f->glGetString(GL_RENDERER));
    std::printf("viewer frames, %d x %d x %d int16, 2x2 layout at 1280x860 (three views a frame), GL renderer: %s\n", nx,
                ny, nz, renderer);
    const char* format = std::getenv("LUCENT_VOLUME_FORMAT");
    const bool fromDevice = window.grid().textures().volumeFromDevice();
    if (auto context = window.grid().resident().context(window.model().volume().get()))
        std::printf("volume upload to the GPU context %.1f ms (pinned staging, inside the first frame)\n", context->uploadMs());
    const bool planes = window.grid().textures().onPlanes();
    const char* how = planes ? "no whole-volume texture: each view copies its plane from the GPU context (LUCENT_SLICE_TEXTURES=volume for the 3D texture)"
                      : fromDevice ? "uploaded to the GPU context once, texture filled from it through CUDA-GL interop"
                                   : "storage and upload from host memory";
    std::printf("first frame %.1f ms (of which the volume texture %.1f ms: %s, texel format %s); "
                "volume handed to the model %.1f ms before\n",
                first, firstSync, how, format ? format : "unorm", uploadMs - first);
    std::printf("the 3D pane's first paint %.1f ms (its volume texture)\n", first3dMs);
    std::printf("scroll                 median %6.2f ms   worst %6.2f ms   (%d frames)\n", s.median, s.worst, frames);
    std::printf("window/level           median %6.2f ms   worst %6.2f ms   (%d frames)\n", w.median, w.worst, frames);
    std::printf("window repaint and present  median %6.2f ms   worst %6.2f ms   (%d frames; nothing changed)\n", present.median,
                present.worst, frames);
    printMemory("loading, scrolling and window/level");
    views[0]->doneCurrent();
    if (!live) return 0;

    // Live runs: every frame takes what the worker published (box into the preview texture) and
    // renders the three views; the worker steps meanwhile.
    ui::SegmentPanel& panel = window.segment();
    ui::LiveSegmentation& run = panel.live();
    run.setBackend(gpu::parseBackend(backendName));
    // Stages of a live frame, timed apart so that what grows with the volume shows: the parameter
    // change (a command to the worker), taking and uploading what changed, the slice views' paints,
    // and the 3D pane's (drawn only when it has news: its live surfaces or the labels changed).
    std::vector<double> stageCommand, stageTake, stageViews, stage3d, stagePresent;
    ui::View3DWidget* pane3d = window.grid().view3D();
    // A live frame as the application's event loop makes one: the frame's take (frameNow), then the
    // queued news (the run's, the 3D pane's surfaces) delivered and the window's repaint request
    // handled now, so that each view and the pane that changed is painted once, composed and
    // presented. (Grabbing each view's framebuffer as well painted them twice in a frame with news:
    // the grab, then the repaint the news had asked for.) The slice views' and the pane's stages are
    // their paints' time in the frame, from the stage figures.
    const auto paintsSince = [](const std::vector<stages::Figure>& before, const char* prefix) {
        double ms = 0;
        for (const auto& f : stagesBetween(before, stages::snapshot()))
            if (f.name.rfind(prefix, 0) == 0 && f.name.find(": paint:") == std::string::npos) ms += f.totalMs;
        return ms;
    };
    auto liveFrame = [&] {
        const std::vector<stages::Figure> before = stages::snapshot();
        QElapsedTimer t;
        t.start();
        run.frameNow();
        const double took = t.nsecsElapsed() / 1e6;
        const double presentBefore = app.presentMs;
        QApplication::processEvents();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::UpdateRequest);
        const double all = t.nsecsElapsed() / 1e6;
        stageTake.push_back(took);
        stageViews.push_back(paintsSince(before, "slice view: paint"));
        stage3d.push_back(paintsSince(before, "3D pane: paint"));
        stagePresent.push_back(app.presentMs - presentBefore);
        return all;
    };
    auto settle = [&] {
        while (run.running()) {
            run.frameNow();
            QTest::qWait(1);
        }
    };
    auto report = [&](const char* what, const LiveFigures& f) {
        std::printf("%-34s median %6.2f ms   worst %6.2f ms   (%d frames)  %8.0f steps/s  backend %s%s\n", what,
                    f.frame.median, f.frame.worst, f.frames, f.stepsPerSecond, f.backend.c_str(),
                    f.interop ? ", CUDA-GL interop" : (f.backend == "cuda" ? ", host upload" : ""));
        std::printf("  without the window's composition and present (Lucent's work in the frame): median %6.2f ms   worst %6.2f ms\n",
                    f.work.median, f.work.worst);
        const Stats c = stats(stageCommand), k = stats(stageTake), v = stats(stageViews), d = stats(stage3d);
        std::printf("  stages median / worst ms: parameters %.2f / %.2f, take+upload %.2f / %.2f, slice views %.2f / "
                    "%.2f, 3D pane %.2f / %.2f; 3D live surfaces shown %d of %d copies taken (the last %zu triangles)\n",
                    c.median, c.worst, k.median, k.worst, v.median, v.worst, d.median, d.worst,
                    pane3d ? pane3d->liveCopyShown() : 0, pane3d ? pane3d->liveCopiesTaken() : 0,
                    pane3d ? pane3d->liveTriangles() : std::size_t(0));
        printWorstFrame(f.frame.worst, f.worstFrame, f.frames, f.worstStages);
        printMemory(what);
        printStages();
    };
    // `paced`: a frame every 16.7 ms, as a display shows them, sleeping (no events) between
    // frames, so that a method stepping at its viewing pace has steps in the frames measured.
    auto measure = [&](const std::function<void(int)>& each, const std::function<bool()>& restart, bool paced = false) {
        std::vector<double> t, work;
        QElapsedTimer wall;
        wall.start();
        long long steps = 0;
        int before = run.published().steps;
        std::string backend = run.published().backend;
        stageCommand.clear(), stageTake.clear(), stageViews.clear(), stage3d.clear(), stagePresent.clear();
        stages::reset();
        int worstFrame = 0;
        std::vector<stages::Figure> worstStages;
        for (int f = 0; f < liveFrames; ++f) {
            const std::vector<stages::Figure> stagesBefore = stages::snapshot();
            QElapsedTimer c;
            c.start();
            if (each) each(f);
            const double command = c.nsecsElapsed() / 1e6;
            stageCommand.push_back(command);
            t.push_back(command + liveFrame());
            work.push_back(t.back() - stagePresent.back());
            if (t.back() >= *std::max_element(t.begin(), t.end())) {
                worstFrame = f;
                worstStages = stagesBetween(stagesBefore, stages::snapshot());
            }
            if (paced && t.back() < kDisplayFrameMs) QThread::usleep((unsigned long)((kDisplayFrameMs - t.back()) * 1000));
            const int done = run.published().steps;  // before a restart resets them
            if (!run.published().backend.empty()) backend = run.published().backend;
            if (restart && restart()) {
                steps += done - before;
                before = 0;
            }
        }
        steps += run.published().steps - before;
        LiveFigures out;
        out.worstFrame = worstFrame;
        out.worstStages = std::move(worstStages);
        out.frame = stats(t);
        out.work = stats(work);
        out.frames = liveFrames;
        out.stepsPerSecond = steps / (wall.nsecsElapsed() / 1e9);
        out.interop = run.usedInterop();
        out.backend = backend;
        return out;
    };
    const int ci = nx / 2, cj = ny / 2, ck = nz / 2;
    QString error;
    if (want("srg")) {
        SegmentationRequest r;
        r.seeds = {{ci, cj, ck}};
        r.regionGrowing = {0, 120, 6};
        if (!panel.startWith(Method::RegionGrowing, r, true, &error)) return std::fprintf(stderr, "%s\n", qPrintable(error)), 1;
        settle();
        // The interval's upper end moves every frame (a slider dragged): the region grows on.
        const auto f = measure([&](int frame) { panel.setInterval(0, 120 + frame * 900.0 / liveFrames); }, {});
        report("region growing, interval moving", f);
        run.cancel();
    }
    if (want("fc")) {
        SegmentationRequest r;
        r.seeds = {{ci, cj, ck}};
        r.fuzzyConnectedness.threshold = 0.5;
        // Unpaced: the row measures the map's way to the screen, not the method's viewing pace.
        run.setSpeed(kUnpaced);
        stages::reset();
        if (!panel.startWith(Method::FuzzyConnectedness, r, true, &error)) return std::fprintf(stderr, "%s\n", qPrintable(error)), 1;
        QElapsedTimer mapTime;
        mapTime.start();
        settle();
        const double onScreen = mapTime.nsecsElapsed() / 1e6;
        // The engine's own time in this run: its start and its advances on the worker (wall time:
        // the steps' launches and read-backs included, as the CLI pays them).
        double engine = 0;
        for (const auto& st : stages::snapshot())
            if (st.name == "worker: engine start" || st.name == "worker: advance") engine += st.totalMs;
        std::printf("fuzzy connectedness map, unpaced: start to settled with frames %.1f ms; the engine's start and advances "
                    "%.1f ms (%d steps); the way to the screen added %.1f ms\n",
                    onScreen, engine, run.published().steps, onScreen - engine);
        printStages();
        const auto f = measure([&](int frame) { panel.setThreshold(0.2 + 0.7 * ((frame % 100) / 100.0)); }, {});
        report("fuzzy connectedness, threshold scrubbing", f);
        run.cancel();
    }
    // A method evolving at the pace a viewer shows it at (the fc row ran unpaced), restarted
    // whenever it converges so that every measured frame shows a run in progress.
    auto evolvingRun = [&](const char* what, Method method, const SegmentationRequest& r,
                           const std::function<void()>& before = {}, const std::function<void()>& after = {}) {
        if (!gpu::hasCudaEngine(method)) run.setBackend(gpu::Backend::Auto);  // the CPU engine, said in the report
        run.setSpeed(watchableSpeed(method));
        if (!panel.startWith(method, r, true, &error)) return std::fprintf(stderr, "%s\n", qPrintable(error)), 1;
        while (run.published().starting) {  // the row measures a run in progress, not its start
            run.frameNow();
            QTest::qWait(1);
        }
        const auto f = measure(
            {},
            [&] {
                if (run.running()) return false;
                panel.startWith(method, r, true, &error);
                return true;
            },
            true);
        if (before) before();  // figures of the run, before report() resets the stages
        report(what, f);
        if (!run.lastError().isEmpty()) std::printf("  (the run failed: %s)\n", qPrintable(run.lastError()));
        if (after) after();  // more of the run (the 3D snake's scrubber), before it goes
        run.cancel();
        return 0;
    };
    auto snakeRun = [&](const char* what, int slice, std::array<int, 4> rect) {
        SegmentationRequest r;
        r.snake.slice = slice;
        r.snake.rect = rect;
        return evolvingRun(what, Method::Snake, r);
    };
    if (want("fcm")) {
        SegmentationRequest r;
        r.fuzzyCMeans.clusters = 3;
        if (evolvingRun("fuzzy C-means, 3 clusters", Method::FuzzyCMeans, r)) return 1;
    }
    if (want("snake") && snakeRun("snake, 512 x 512 slice", ck, {nx / 8, ny / 8, nx - nx / 8, ny - ny / 8})) return 1;
    // The 3D snake's scrubber on the finished run, as a user drags it back a step at a time and forward
    // again, then jumps (Replay's start, and back to the latest): each step's time on the GUI thread (the
    // state into the preview) and the frame that draws it (the slice views, then the events: the 3D pane).
    auto scrubSnake3d = [&] {
        while (run.published().starting || run.running()) {
            run.frameNow();
            QTest::qWait(1);
        }
        QApplication::processEvents();
        const int count = run.snake3dHistory().count();
        if (count < 3) return;
        stages::reset();
        std::vector<double> shows, frames;
        auto scrubTo = [&](int index) {
            QElapsedTimer t;
            t.start();
            run.showSnake3dState(index);
            shows.push_back(t.nsecsElapsed() / 1e6);
            for (auto* v : views)
                if (v->isVisible() && v->grabFramebuffer().isNull()) std::abort();
            QApplication::processEvents();
            frames.push_back(t.nsecsElapsed() / 1e6);
            if (frames.back() < kDisplayFrameMs) QThread::usleep((unsigned long)((kDisplayFrameMs - frames.back()) * 1000));
        };
        for (int i = count - 2; i >= 0; --i) scrubTo(i);
        for (int i = 1; i < count; ++i) scrubTo(i);
        const Stats show = stats(shows), step = stats(frames);
        const int steps = int(shows.size());
        shows.clear(), frames.clear();
        scrubTo(0);
        const double jumpBack = shows.back(), jumpBackFrame = frames.back();
        scrubTo(-1);
        std::printf("3D snake scrubber, %d states     a step median %6.2f ms   worst %6.2f ms (the state into the preview: "
                    "median %.2f, worst %.2f ms; %d steps back and forth); from the latest to the start %.2f ms (state "
                    "%.2f), back to the latest %.2f ms (state %.2f)\n",
                    count, step.median, step.worst, show.median, show.worst, steps, jumpBackFrame, jumpBack, frames.back(),
                    shows.back());
        printStages();
    };
    if (want("snake3d")) {
        // The 3D snake from a box around the phantom's soft-tissue cylinder (radius 0.2 nx, 60 HU in 30 HU),
        // a quarter of the slices deep: the surface shrinks onto the cylinder across the box and grows
        // along it into the domain's margin, every step kept by the scrubber (a level-set copy on the worker).
        SegmentationRequest r;
        r.snake3d.box = VoxelBox{{ci - nx / 4, cj - ny / 4, ck - nz / 8}, {ci + nx / 4 - 1, cj + ny / 4 - 1, ck + nz / 8 - 1}};
        stages::reset();
        auto figures = [&] {
            snake3dFigures(run);
            // The 3D pane's paint with nothing new, beside the paints with new surfaces in the stages below.
            if (pane3d && pane3d->isVisible())
                for (int p = 0; p < 10; ++p) pane3d->grabFramebuffer();
        };
        if (evolvingRun("3D snake, box around a cylinder", Method::Snake3d, r, figures, [&] { scrubSnake3d(); })) return 1;
    }
    if (snakeSide > 0 && want("image")) {
        window.model().setVolume(snakeImage(snakeSide), info, "auto");
        frame();
        // The 3D pane's first paint of a volume uploads it: part of loading, not of the live row.
        if (pane3d && pane3d->isVisible()) pane3d->grabFramebuffer();
        char what[64];
        std::snprintf(what, sizeof what, "snake, %d x %d image (%.1f MP)", snakeSide, snakeSide, snakeSide * snakeSide / 1e6);
        const int m = snakeSide / 8;
        if (snakeRun(what, 0, {m, m, snakeSide - m, snakeSide - m})) return 1;
    }
    return 0;
}
