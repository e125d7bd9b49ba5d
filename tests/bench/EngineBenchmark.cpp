/// @brief CPU engine figures: srg, fc and fcm on 256^3 and 512^3 synthetic int16 volumes, the snake on
/// 15 MP and 150 MP images (paper 003's sizes), on 1 and 2 threads. Prints compute and total times.
/// usage: lucent_bench_engines [--sizes 256,512] [--images 15,150] [--threads 1,2] [--runs R] [--dump DIR]
///        [--worker 0|1]
/// --dump writes the inputs as raw files (for the peer script tests/bench/peers.py to run on the same data).
/// --worker 1 also runs fc as the viewer does, on the session worker with a host label writer: its
/// publishing every frame interval against publishing at most a fifth of the time (SessionWorker).
#include "lucent/core/ParallelFor.h"
#include "lucent/core/seg/FuzzyCMeansCpu.h"
#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/core/seg/RegionGrowingCpu.h"
#include "lucent/core/seg/SessionWorker.h"
#include "lucent/core/seg/SnakeCpu.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace lucent;

namespace {

using Clock = std::chrono::steady_clock;
double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

std::vector<int> list(const std::string& s) {
    std::vector<int> out;
    std::stringstream in(s);
    for (std::string p; std::getline(in, p, ',');) out.push_back(std::atoi(p.c_str()));
    return out;
}

/// n^3 int16: a sphere (100) holding a smaller dense core (200) in a background (0), noise +-20.
Volume phantom(int n) {
    Geometry g;
    g.dims = {n, n, n};
    Volume v(g, PixelType::Int16);
    const double c = n / 2.0, r1 = 0.35 * n, r2 = 0.12 * n;
    parallelFor(n, 0, [&](std::size_t k) {
        std::mt19937 rng(unsigned(k) * 7919u + 1);
        std::uniform_int_distribution<int> noise(-20, 20);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                const double d2 = (i - c) * (i - c) + (j - c) * (j - c) + (double(k) - c) * (double(k) - c);
                const int base = d2 <= r2 * r2 ? 200 : (d2 <= r1 * r1 ? 100 : 0);
                v.int16Data()[g.index(i, j, int(k))] = static_cast<std::int16_t>(base + noise(rng));
            }
    });
    return v;
}

/// A square image of about `megapixels` MP: a disc (120) on background (80), Gaussian noise sigma 20.
Volume image(int megapixels) {
    const int side = int(std::lround(std::sqrt(megapixels * 1e6)));
    Geometry g;
    g.dims = {side, side, 1};
    Volume v(g, PixelType::Int16);
    const double c = side / 2.0, r = 0.3 * side;
    parallelFor(side, 0, [&](std::size_t j) {
        std::mt19937 rng(unsigned(j) + 17u);
        std::normal_distribution<double> noise(0, 20);
        for (int i = 0; i < side; ++i) {
            const bool in = (i - c) * (i - c) + (double(j) - c) * (double(j) - c) <= r * r;
            v.int16Data()[j * std::size_t(side) + i] = static_cast<std::int16_t>(std::lround((in ? 120 : 80) + noise(rng)));
        }
    });
    return v;
}

struct Timing {
    double compute = 0, total = 0;
    std::size_t voxels = 0;
    int iterations = 0;
};

Timing measure(Segmenter& engine, const SegmentationRequest& r) {
    Timing t;
    const auto t0 = Clock::now();
    engine.start(r);
    const auto t1 = Clock::now();
    t.iterations = engine.run(64).iterations;
    const auto t2 = Clock::now();
    LabelMap out;
    engine.result(out);
    const auto t3 = Clock::now();
    // compute: the method's own work (histogram, cumulated images, propagation); total adds
    // handing the labels back.
    t.compute = ms(t0, t2);
    (void)t1;
    t.total = ms(t0, t3);
    for (std::size_t i = 0; i < out.voxelCount(); ++i) t.voxels += out[i] != 0;
    return t;
}

void report(const char* method, const std::string& size, unsigned threads, std::vector<Timing> runs) {
    std::sort(runs.begin(), runs.end(), [](const Timing& a, const Timing& b) { return a.compute < b.compute; });
    const Timing& m = runs[runs.size() / 2];
    std::sort(runs.begin(), runs.end(), [](const Timing& a, const Timing& b) { return a.total < b.total; });
    std::printf("%-6s %-12s %7u %12.1f %12.1f %12zu %6d\n", method, size.c_str(), threads, m.compute,
                runs[runs.size() / 2].total, m.voxels, m.iterations);
    std::fflush(stdout);
}

/// fc on the session worker (as the viewer runs it), labels written into a host map at every publish:
/// the wall time to the finished map, how many writes took how long, and the median idle gap from
/// the end of one write to the start of the next (the real-time figure SessionWorkerTest once
/// asserted; the test now checks the pacing rule on a fake clock).
void workerReport(const std::string& size, const SegmentationRequest& r, int publishCostFactor) {
    LabelMap shown(r.volume->geometry());
    double writing = 0;
    std::vector<double> gaps;
    Clock::time_point lastEnd{};
    SessionWorker worker(std::chrono::microseconds(8000), publishCostFactor);
    const auto t0 = Clock::now();
    worker.begin(std::make_unique<FuzzyConnectednessCpu>(), r, 1, [&](const Segmenter& e, const VoxelBox& box) {
        const auto s = Clock::now();
        e.writeLabels(LabelSink::host(shown), &box);
        if (lastEnd != Clock::time_point{}) gaps.push_back(ms(lastEnd, s));
        lastEnd = Clock::now();
        writing += ms(s, lastEnd);
    });
    worker.waitUntilSettled();
    const double total = ms(t0, Clock::now());
    std::sort(gaps.begin(), gaps.end());
    std::printf("fc on the session worker, %s, publishing %s: %.1f ms to the map, %zu label writes taking %.1f ms, "
                "median gap between writes %.1f ms\n",
                size.c_str(), publishCostFactor ? "at most a fifth of the time" : "every frame interval", total,
                gaps.size() + (lastEnd != Clock::time_point{}), writing, gaps.empty() ? 0.0 : gaps[gaps.size() / 2]);
    std::fflush(stdout);
}

void dump(const Volume& v, const std::string& path) {
    std::ofstream(path, std::ios::binary).write(static_cast<const char*>(v.data()), std::streamsize(v.byteSize()));
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes{256, 512}, images{15, 150}, threadCounts{1, 2};
    int runs = 3;
    bool worker = false;
    std::string dumpDir;
    for (int a = 1; a + 1 < argc; a += 2) {
        const std::string k = argv[a], v = argv[a + 1];
        if (k == "--sizes") sizes = list(v);
        else if (k == "--images") images = list(v);
        else if (k == "--threads") threadCounts = list(v);
        else if (k == "--runs") runs = std::atoi(v.c_str());
        else if (k == "--dump") dumpDir = v;
        else if (k == "--worker") worker = std::atoi(v.c_str()) != 0;
    }
    std::printf("CPU engines, %u hardware threads; median of %d runs (1 at 512^3 and 150 MP)\n", defaultThreadCount(), runs);
    std::printf("%-6s %-12s %7s %12s %12s %12s %6s\n", "method", "size", "threads", "compute ms", "total ms", "voxels", "iters");
    for (int n : sizes) {
        const Volume v = phantom(n);
        if (!dumpDir.empty()) dump(v, dumpDir + "/phantom" + std::to_string(n) + ".raw");
        const int repeat = n >= 512 ? 1 : runs;
        const std::string label = std::to_string(n) + "^3";
        for (unsigned threads : threadCounts) {
            SegmentationRequest r;
            r.volume = &v;
            r.threads = threads;
            r.seeds = {{n / 2, n / 2 + n / 5, n / 2}};  // in the 100 shell, outside the dense core
            r.regionGrowing = {50, 150, 6};
            r.fuzzyConnectedness.threshold = 0.5;
            std::vector<Timing> t;
            for (int i = 0; i < repeat; ++i) {
                RegionGrowingCpu e;
                t.push_back(measure(e, r));
            }
            report("srg", label, threads, t);
            t.clear();
            for (int i = 0; i < repeat; ++i) {
                FuzzyConnectednessCpu e;
                t.push_back(measure(e, r));
            }
            report("fc", label, threads, t);
            t.clear();
            if (worker && int(threads) == threadCounts.front())
                for (int factor : {0, 4}) workerReport(label, r, factor);
            std::vector<double> centres;
            for (int i = 0; i < repeat; ++i) {
                FuzzyCMeansCpu e;
                t.push_back(measure(e, r));
                centres = e.centres();
            }
            report("fcm", label, threads, t);
            std::printf("       fcm centres:");
            for (double c : centres) std::printf(" %.1f", c);
            std::printf("\n");
        }
    }
    for (int mp : images) {
        if (mp <= 0) continue;  // --images 0: no snake images
        const Volume v = image(mp);
        const int side = v.geometry().dims[0];
        if (!dumpDir.empty()) dump(v, dumpDir + "/image" + std::to_string(mp) + ".raw");
        for (unsigned threads : threadCounts) {
            SegmentationRequest r;
            r.volume = &v;
            r.threads = threads;
            r.snake.rect = {side / 10, side / 10, side - side / 10, side - side / 10};
            r.snake.stepMax = 64;
            r.snake.minSegment = std::max(8, side / 64);
            std::vector<Timing> t;
            for (int i = 0; i < (mp >= 150 ? 1 : runs); ++i) {
                SnakeCpu e;
                t.push_back(measure(e, r));
            }
            report("snake", std::to_string(mp) + " MP", threads, t);
        }
    }
    return 0;
}
