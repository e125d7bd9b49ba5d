/// @brief The CUDA snake's figures for lucent_bench_gpu: 512 x 512, 15 MP and 150 MP int16 images of
/// a noisy disc (120 on 80, Gaussian sigma 20, the CPU benchmark's images): device-resident ms (CUDA
/// events and wall clock, median after warm-up), the start (checkpoint scan + first sums) and its
/// GB/s, ms per step, end to end with the upload, steps and nodes, and the CPU engine on the same
/// input (once for the large ones) with its polygons and labels compared.
#pragma once

#include "lucent/core/ParallelFor.h"
#include "lucent/gpu/programs/SnakeProgramState.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/gpu/SegmenterFactory.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace lucent::bench {

/// EngineBenchmark's snake image: a disc of radius 0.3 side at 120 on 80, noise sigma 20 per row.
inline Volume snakeImage(int side) {
    Geometry g;
    g.dims = {side, side, 1};
    Volume v(g, PixelType::Int16);
    const double c = side / 2.0, r = 0.3 * side;
    parallelFor(std::size_t(side), 0, [&](std::size_t j) {
        std::mt19937 rng(unsigned(j) + 17u);
        std::normal_distribution<double> noise(0, 20);
        for (int i = 0; i < side; ++i) {
            const bool in = (i - c) * (i - c) + (double(j) - c) * (double(j) - c) <= r * r;
            v.int16Data()[j * std::size_t(side) + i] =
                static_cast<std::int16_t>(std::lround((in ? 120 : 80) + noise(rng)));
        }
    });
    return v;
}

inline std::string snakeContours(const Segmenter& e) {
    std::ostringstream out;
    JsonWriter json(out, false);
    e.writeContours(json);
    return out.str();
}

/// One image: `repeats` resident runs after 2 warm-ups (start, run, labels into the context's
/// buffer), 3 end-to-end runs (1 when large), the CPU engine `cpuRuns` times.
inline void snakeCase(int side, int repeats, int cpuRuns, bool quick) {
    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::time_point a, Clock::time_point b) {
        return std::chrono::duration<double, std::milli>(b - a).count();
    };
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[v.size() / 2];
    };
    const Volume v = snakeImage(side);
    SegmentationRequest r;
    r.volume = &v;
    r.snake.rect = {side / 10, side / 10, side - side / 10, side - side / 10};
    r.snake.stepMax = 64;
    r.snake.minSegment = std::max(8, side / 64);
    auto context = std::make_shared<gpu::GpuContext>(v);
    auto engine = gpu::createSegmenter(Method::Snake, gpu::Backend::Cuda, context);
    std::vector<double> wall, events, startEvents, runEvents, startWall, labelWall;
    StepReport last;
    for (int k = 0; k < repeats + 2; ++k) {
        const auto t0 = Clock::now();
        engine->start(r);
        const double started = *engine->figures().msDevice;
        const auto t1 = Clock::now();
        last = engine->run(64);
        const double ran = *engine->figures().msDevice;
        const auto t2 = Clock::now();
        engine->writeLabels(context->labelSink());
        context->synchronize();
        const auto t3 = Clock::now();
        if (k == 0 && ms(t0, t3) > 400) repeats = std::min(repeats, 5);  // keep a large case inside the device lease
        if (k < 2) continue;
        wall.push_back(ms(t0, t3));
        events.push_back(*engine->figures().msDevice);
        startEvents.push_back(started);
        runEvents.push_back(ran - started);
        startWall.push_back(ms(t0, t1));
        labelWall.push_back(ms(t2, t3));
    }
    const double pixels = double(side) * side;
    const double scanBytes = 2 * pixels + double(side) * snake::checkpointGroups(side) * sizeof(snake::Checkpoint);
    const double steps = std::max(1, last.iterations);
    std::printf("%-24s %10.3f %10.3f %8zu %6d %10.3f %10.4f %9.1f", ("snake " + std::to_string(side) + "^2").c_str(),
                median(wall), median(events), last.polygon.size(), last.iterations, median(startEvents),
                (median(events) - median(startEvents)) / steps, scanBytes / (median(startEvents) * 1e6));
    std::fflush(stdout);
    if (quick) {
        std::printf("\n");
        return;
    }
    std::vector<double> e2e;
    LabelMap cudaLabels;
    std::string cudaContours;
    for (int k = 0; k < (pixels > 50e6 ? 1 : 3); ++k) {
        const auto t0 = Clock::now();
        auto fresh = gpu::createSegmenter(Method::Snake, gpu::Backend::Cuda);  // its own context: uploads
        fresh->start(r);
        fresh->run(64);
        fresh->result(cudaLabels);
        e2e.push_back(ms(t0, Clock::now()));
        cudaContours = snakeContours(*fresh);
    }
    std::vector<double> cpu;
    LabelMap cpuLabels;
    std::string cpuContours;
    for (int k = 0; k < cpuRuns; ++k) {
        auto e = gpu::createSegmenter(Method::Snake, gpu::Backend::Cpu);
        const auto t0 = Clock::now();
        e->start(r);
        e->run(64);
        e->result(cpuLabels);
        cpu.push_back(ms(t0, Clock::now()));
        cpuContours = snakeContours(*e);
    }
    const bool same = cpuRuns > 0 && cpuContours == cudaContours &&
                      std::memcmp(cpuLabels.data(), cudaLabels.data(), cudaLabels.voxelCount()) == 0;
    std::printf(" %10.2f %10.1f %6s\n", median(e2e), median(cpu), cpuRuns ? (same ? "yes" : "NO") : "n/a");
    std::printf("    phases (wall medians): start %.3f ms, labels %.3f ms; %zu labelled pixels; by events: the steps "
                "%.3f ms, the labels %.3f ms\n",
                median(startWall), median(labelWall), cudaLabels.count(1), median(runEvents),
                median(events) - median(startEvents) - median(runEvents));
    std::fflush(stdout);
}

/// The snake section: 512^2 always; 15 MP and 150 MP unless quick; `scan`: all three sizes with the
/// resident figures only (for tuning, e.g. LUCENT_SNAKE_BLOCKS).
inline void snakeBenchmarks(int repeats, bool quick, bool scan = false) {
    std::printf(
        "\nCUDA region snake (CPU engine on %u threads); resident = start + run(64) + labels into the context buffer\n",
        defaultThreadCount());
    std::printf("%-24s %10s %10s %8s %6s %10s %10s %9s %10s %10s %6s\n", "case", "resident", "events", "nodes", "steps",
                "start_ev", "ms/step", "scan_GB/s", "end2end", "cpu_ms", "equal");
    snakeCase(512, quick ? std::min(repeats, 5) : repeats, 3, quick || scan);
    if (scan) {
        snakeCase(3873, repeats, 0, true);
        snakeCase(12247, std::min(repeats, 5), 0, true);
    }
    if (quick || scan) return;
    snakeCase(3873, repeats, 1, false);
    snakeCase(12247, std::min(repeats, 5), 1, false);
}

}  // namespace lucent::bench
