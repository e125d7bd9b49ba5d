/// @brief Grow from seeds in the viewer (issue 46): the time from a brush stroke to the slice views
/// showing the updated result, on a 512 x 512 x 400 int16 volume in the 2x2 layout. Strokes are
/// painted into the label layer as the brush writes them (a short line of 3-voxel discs, a label at a
/// time), then taken by the run as the end of a stroke takes them (GrowCutSeeds::takeStrokes): the run
/// updates from its result; each frame takes the run's changes into the preview texture and renders
/// the three views (read back, an upper bound on a screen refresh). Beside it: the first run, and the
/// CPU engine run from scratch on all strokes (what an update saves). Prints median and worst, memory,
/// and per stage (StageTimes: the engine's update, the worker, the uploads, the views' paints, the 3D
/// pane) the median and worst of its time per stroke; and the cost of one brush dab (the layer's
/// edit as every view takes it) with the run going and without.
/// usage: xvfb-run -a -s "-screen 0 1920x1080x24" lucent_bench_viewer_growcut [--size X,Y,Z] [--strokes N]
///        [--backend auto|cpu|cuda] [--steps-per-frame N] [--no-peer] [--dabs-only]
/// (--dabs-only: the brush dabs with no run, then stop: where a dab's time goes, without the engine)
#include "lucent/core/ParallelFor.h"
#include "lucent/core/StageTimes.h"
#include "lucent/core/seg/GrowCutCpu.h"
#include "lucent/core/seg/RunSpeed.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/ui/GrowCutSeeds.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/OpenGlSetup.h"
#include "lucent/ui/SegmentPanel.h"
#include "lucent/ui/View3DWidget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>

#include <sys/resource.h>

using namespace lucent;

namespace {

/// The viewer benchmark's phantom: a soft disc (60 HU) in a ring of tissue (30) inside a bone shell
/// (900) in air, with noise of +-30 HU on every voxel.
std::shared_ptr<Volume> phantom(int nx, int ny, int nz) {
    Geometry g;
    g.dims = {nx, ny, nz};
    g.spacing = {0.7, 0.7, 1.0};
    auto v = std::make_shared<Volume>(g, PixelType::Int16);
    parallelFor(std::size_t(nz), 0, [&](std::size_t k) {
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
    if (t.empty()) return {};
    std::sort(t.begin(), t.end());
    return {t[t.size() / 2], t.back()};
}

double peakRssMb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

/// Per stage, its time and count in each stroke (stages::snapshot after each), for median and worst.
struct StageRow {
    std::vector<double> ms, count;
};
using StageRows = std::map<std::string, StageRow>;

void addStages(StageRows& rows, int stroke) {
    for (const auto& f : stages::snapshot()) {
        auto& row = rows[f.name];
        row.ms.resize(std::size_t(stroke), 0.0);  // a stage absent in earlier strokes took 0 there
        row.count.resize(std::size_t(stroke), 0.0);
        row.ms.push_back(f.totalMs);
        row.count.push_back(double(f.count));
    }
    stages::reset();
}

void printStages(StageRows& rows, int strokes, const char* per = "stroke") {
    std::printf("  stages per %-6s (all threads; nested stages overlap)      ms median     worst   times (median)\n", per);
    for (auto& [name, row] : rows) {
        row.ms.resize(std::size_t(strokes), 0.0);
        row.count.resize(std::size_t(strokes), 0.0);
        const Stats s = stats(row.ms);
        std::printf("    %-58s %8.2f  %8.2f  %6.0f\n", name.c_str(), s.median, s.worst, stats(row.count).median);
    }
}

/// The stages since the last reset, each with its count, total and worst occurrence; then reset.
void printRunStages() {
    for (const auto& f : stages::snapshot())
        std::printf("    %-58s %6lld x  total %9.2f ms  worst %8.2f ms\n", f.name.c_str(), f.count, f.totalMs, f.worstMs);
    stages::reset();
}

/// A stroke as the brush leaves it: discs of 3 voxels along a line of `length` voxels on slice k.
VoxelBox paintLine(LabelMap& layer, std::uint8_t label, int i0, int j0, int k, int length) {
    const Geometry& g = layer.geometry();
    VoxelBox box = VoxelBox::none();
    for (int t = 0; t < length; ++t)
        for (int dj = -1; dj <= 1; ++dj)
            for (int di = -1; di <= 1; ++di) {
                const int i = i0 + t + di, j = j0 + dj;
                if (!g.contains(i, j, k)) continue;
                layer.data()[g.index(i, j, k)] = label;
                box.add(i, j, k);
            }
    return box;
}

/// A brush dab as a user makes it in the 2x2 layout: a disc written into the layer, then the event
/// loop runs as after a mouse move, so every pane that must repaints (the 3D pane's too). In ms.
double dabMs(ui::MainWindow& window, std::uint8_t label, int i, int j, int k) {
    QElapsedTimer t;
    t.start();
    const VoxelBox box = paintLine(window.model().labelLayer(), label, i, j, k, 1);
    window.model().labelsEdited(&box);
    QApplication::processEvents();
    return t.nsecsElapsed() / 1e6;
}

/// Dabs along a short line, each its own event-loop pass; prints their median and worst, and the
/// stages of a dab (what a dab's time went to).
void printDabs(ui::MainWindow& window, const char* when, std::uint8_t label, int i, int j, int k) {
    std::vector<double> ms;
    const bool measuring = stages::enabled();
    stages::setEnabled(true);
    stages::reset();
    StageRows rows;
    constexpr int kDabs = 9;
    for (int d = 0; d < kDabs; ++d) {
        ms.push_back(dabMs(window, label, i + d, j, k));
        addStages(rows, d);
    }
    stages::setEnabled(measuring);
    const Stats s = stats(ms);
    std::printf("a brush dab to every pane redrawn (2x2, the 3D pane's too), %s  median %7.2f ms   worst %7.2f ms   (%zu dabs)\n",
                when, s.median, s.worst, ms.size());
    printStages(rows, kDabs, "dab");
}

}  // namespace

int main(int argc, char** argv) {
    int nx = 512, ny = 512, nz = 400, strokes = 20, stepsPerFrame = 0;
    bool peer = true, dabsOnly = false;
    std::string backendName = "auto";
    for (int a = 1; a < argc; ++a) {
        const bool value = a + 1 < argc;
        if (!std::strcmp(argv[a], "--no-peer")) peer = false;
        if (!std::strcmp(argv[a], "--dabs-only")) dabsOnly = true;
        if (!value) continue;
        if (!std::strcmp(argv[a], "--size")) std::sscanf(argv[a + 1], "%d,%d,%d", &nx, &ny, &nz);
        if (!std::strcmp(argv[a], "--strokes")) strokes = std::atoi(argv[a + 1]);
        if (!std::strcmp(argv[a], "--backend")) backendName = argv[a + 1];
        if (!std::strcmp(argv[a], "--steps-per-frame")) stepsPerFrame = std::atoi(argv[a + 1]);
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each figure as it comes (a long CPU run may be stopped)
    lucent::ui::prepareOpenGl();
    QApplication app(argc, argv);
    app.setOrganizationName("Lucent-bench");
    ui::MainWindow window;
    window.resize(1280, 860);
    window.setLayoutMode(ui::Layout::Grid2x2);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) return 1;
    const auto volume = phantom(nx, ny, nz);
    SeriesInfo info;
    info.modality = "CT";
    window.model().setVolume(volume, info, "abdomen");
    ui::SliceViewWidget* views[3] = {window.grid().view(render::Orientation::Axial),
                                     window.grid().view(render::Orientation::Coronal),
                                     window.grid().view(render::Orientation::Sagittal)};
    ui::SegmentPanel& panel = window.segment();
    ui::LiveSegmentation& run = panel.live();
    ui::GrowCutSeeds& seeds = panel.growCut();
    run.setBackend(gpu::parseBackend(backendName));
    run.setSpeed(kUnpaced);  // the update's way to the screen, not the first run's viewing pace
    // No brush here: the benchmark says when a stroke is under way (its dabs are not taken one by one).
    bool stroking = false;
    seeds.setStrokeInProgress([&] { return stroking; });
    // Frames until the run has settled and its last changes are drawn in the three views.
    // Returns the frames drawn and, in `settledMs`, when the last one that still saw the run going ended
    // (from `clock`): the rest is the frame that draws the settled result. `firstMs`: when the first
    // frame that drew a step of the run taken after `stepsBefore` ended (the preview's first change
    // on screen; the result may still move after it).
    auto framesUntilSettled = [&](const QElapsedTimer& clock, double& settledMs, int stepsBefore = 0, double* firstMs = nullptr) {
        int frames = 0;
        auto frame = [&] {
            {
                stages::Scope s("bench: frameNow (take, upload, HUD, 3D pane's copy)");
                run.frameNow();
            }
            const bool stepped = run.published().steps > stepsBefore;
            stages::Scope s("bench: three views drawn and read back");
            for (auto* v : views)
                if (v->grabFramebuffer().isNull()) std::abort();
            if (firstMs && stepped && *firstMs < 0) *firstMs = clock.nsecsElapsed() / 1e6;
        };
        do {
            frame();
            ++frames;
        } while (run.running() || run.published().starting);
        settledMs = clock.nsecsElapsed() / 1e6;
        frame();
        return frames + 1;
    };
    const int ci = nx / 2, cj = ny / 2, ck = nz / 2;
    // Three strokes: the inner disc (1), the ring of tissue (2), the air (3).
    {
        LabelMap& layer = window.model().labelLayer();
        paintLine(layer, 1, ci - 10, cj, ck, 20);
        paintLine(layer, 2, ci + int(nx * 0.28), cj, ck, 10);
        paintLine(layer, 3, 5, 5, ck, 20);
        window.model().labelsEdited(nullptr);
    }
    // The 3D pane's surfaces of the strokes come first (built on their thread), so a dab times itself.
    auto* pane3d = window.findChild<ui::View3DWidget*>("view3d");
    QElapsedTimer wait;
    wait.start();
    while (pane3d && !pane3d->surfacesReady() && wait.elapsed() < 5000) QTest::qWait(20);
    printDabs(window, "no run", 3, 5, 8, ck);
    if (dabsOnly) return std::printf("memory: peak host RSS %.0f MB\n", peakRssMb()), 0;
    QTest::qWait(500);
    QString error;
    stages::setEnabled(true);
    stages::reset();
    QElapsedTimer first;
    first.start();
    if (!panel.startWith(Method::GrowCut, {}, true, &error)) return std::fprintf(stderr, "%s\n", qPrintable(error)), 1;
    double settledMs = 0;
    framesUntilSettled(first, settledMs);
    const double firstMs = first.nsecsElapsed() / 1e6;
    std::printf("grow from seeds in the viewer, %d x %d x %d int16, 2x2 layout at 1280x860, backend %s\n", nx, ny, nz,
                run.published().backend.c_str());
    std::printf("first run, start to the settled result in the three views: %.1f ms (%d steps)\n", firstMs,
                run.published().steps);
    printRunStages();
    QApplication::processEvents();  // the 3D pane's surfaces of the first result, untimed
    if (stepsPerFrame > 0) {  // for the strokes' updates (the panel's box; a run starts with 1)
        panel.model().setStepsPerFrame(stepsPerFrame);
        std::printf("steps per frame (rounds per engine step on CUDA) for the strokes: %d\n", stepsPerFrame);
    }
    std::vector<double> update, dab, firstShown;
    StageRows rows;
    int continued = 0;
    stages::setEnabled(true);
    for (int s = 0; s < strokes; ++s) {
        // A short stroke of each label in turn, on a slice of its own (the strokes a user adds).
        const std::uint8_t label = std::uint8_t(1 + s % 3);
        const int k = std::clamp(ck + (s / 3 + 1) * 7 * (s % 2 ? 1 : -1), 1, nz - 2);
        const int i = label == 1 ? ci - 10 : label == 2 ? ci + int(nx * 0.28) : 5;
        LabelMap& layer = window.model().labelLayer();
        const VoxelBox box = paintLine(layer, label, i, label == 3 ? 5 : cj, k, label == 2 ? 10 : 20);
        {
            // A dab: the brush's edit as every view takes it (in the app the stroke is many of these).
            QElapsedTimer d;
            d.start();
            window.model().labelsEdited(&box);
            dab.push_back(d.nsecsElapsed() / 1e6);
        }
        const MethodFigures before = run.figures();
        const int stepsBefore = run.published().steps;
        stages::reset();
        QElapsedTimer t;
        t.start();
        if (!seeds.takeStrokes()) return std::fprintf(stderr, "stroke %d was not taken\n", s), 1;
        const double takenMs = t.nsecsElapsed() / 1e6;
        double firstMs = -1;
        const int frames = framesUntilSettled(t, settledMs, stepsBefore, &firstMs);
        update.push_back(t.nsecsElapsed() / 1e6);
        if (firstMs >= 0) firstShown.push_back(firstMs);
        addStages(rows, s);
        const MethodFigures after = run.figures();
        std::printf("  stroke %d (label %d, slice %d): %.1f ms (taken into the run %.1f, the last frame that saw it going "
                    "ended at %.1f, %d frames, the first step drawn at %.1f; engine %d steps",
                    s + 1, label, k, update.back(), takenMs, settledMs, frames, firstMs, run.published().steps - stepsBefore);
        if (after.rounds && before.rounds) std::printf(", %d rounds", *after.rounds - *before.rounds);
        if (after.msDevice && before.msDevice) std::printf(", device %.2f ms", *after.msDevice - *before.msDevice);
        std::printf(")\n");
        continued += run.lastUpdateOutcome() == UpdateOutcome::Continued;
        QApplication::processEvents();  // the 3D pane catches up, untimed
        QTest::qWait(400);  // and its throttled work (surfaces after a pause in the edits) ends here too
        stages::reset();
    }
    const Stats u = stats(update);
    std::printf("stroke to the updated result in the three views  median %7.1f ms   worst %7.1f ms   (%d strokes, %d went "
                "on from the previous result)\n",
                u.median, u.worst, strokes, continued);
    const Stats f = stats(firstShown);
    std::printf("stroke to the first step of its update drawn in the three views  median %7.1f ms   worst %7.1f ms   (%zu strokes)\n",
                f.median, f.worst, firstShown.size());
    printStages(rows, strokes);
    const Stats d = stats(dab);
    std::printf("a stroke's edit as the views take it (labelsEdited alone)  median %7.2f ms   worst %7.2f ms\n", d.median, d.worst);
    stages::setEnabled(false);
    stroking = true;  // the dabs of a stroke under way: the run takes them when it ends
    printDabs(window, "run going", 3, 5, 11, ck);
    stroking = false;
    // The peer: the CPU engine from scratch on all the strokes (what a viewer without updates reruns).
    if (!peer) return std::printf("memory: peak host RSS %.0f MB\n", peakRssMb()), 0;
    const LabelMap all = *window.model().labels();
    SegmentationRequest r;
    r.volume = volume.get();
    r.growCut.seeds = &all;
    GrowCutCpu engine;
    QElapsedTimer scratch;
    scratch.start();
    engine.start(r);
    engine.run();
    std::printf("peer: the CPU engine from scratch on all %d strokes: %.1f ms (%d threads)\n", strokes + 3,
                scratch.nsecsElapsed() / 1e6, int(defaultThreadCount()));
    const auto devices = gpu::listDevices();
    std::printf("memory: peak host RSS %.0f MB, GPU %.0f MB in use\n", peakRssMb(),
                devices.empty() ? 0.0 : double(devices.front().totalMemory - devices.front().freeMemory) / (1024.0 * 1024.0));
    return 0;
}
