/// @brief Grow from seeds figures (issue 46): the first run and the update after a stroke, on the
/// CPU engine and (where a device is) the CUDA engine, beside a one-thread textbook Dijkstra over
/// (distance, label) (Slicer's published algorithm, a binary heap), on a phantom of touching regions
/// on a ramp: a ball and a box in a background, with strokes in each and background strokes around.
/// Prints ms, voxels changed by the stroke, Dice against the phantom's truth, and whether the
/// engines' labels are equal.
/// usage: lucent_bench_growcut [--sizes 256x256x256,512x512x400] [--backends cpu,cuda] [--no-slicer]
///        [--repeats N] [--dump DIR]
/// --dump writes volume.raw (int16), seeds.raw, truth.raw and lucent.raw (uint8) per size, and a
/// line of JSON, for tests/bench/growcut_peers.py (scikit-image's marker watershed).
#include "lucent/core/ParallelFor.h"
#include "lucent/core/seg/GrowCutCpu.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/SegmenterFactory.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <queue>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace lucent;

namespace {

using Clock = std::chrono::steady_clock;
double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

/// Noise in -12..12 from a hash of the voxel index: the same volume on every run and thread count.
int noise(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return int(x % 25) - 12;
}

struct Scene {
    Volume volume;
    LabelMap truth, seeds, stroked;  // stroked: the seeds and one more stroke
};

/// Labels 1 background, 2 ball (mean 60), 3 box (mean 120) touching it; a ramp of 300 along x lifts
/// the ball over the box, so no threshold separates them. Strokes: a cross along the three axes in the
/// ball and in the box, background lines along x near the borders. The extra stroke: label 2 along a
/// line in the ball, off its centre slice.
Scene scene(std::array<int, 3> d) {
    Geometry g;
    g.dims = d;
    Scene s{Volume(g, PixelType::Int16), LabelMap(g), LabelMap(g), LabelMap(g)};
    const double cx = 0.47 * d[0], cy = 0.5 * d[1], cz = 0.5 * d[2], r = 0.2 * std::min({d[0], d[1], d[2]});
    const int bx0 = int(0.06 * d[0]), bx1 = int(cx - r), by0 = int(0.25 * d[1]), by1 = int(0.75 * d[1]);
    const int bz0 = int(0.2 * d[2]), bz1 = int(0.8 * d[2]);
    parallelFor(std::size_t(d[2]), 0, [&](std::size_t kk) {
        const int k = int(kk);
        for (int j = 0; j < d[1]; ++j)
            for (int i = 0; i < d[0]; ++i) {
                const std::size_t n = g.index(i, j, k);
                const double di = i - cx, dj = j - cy, dk = k - cz;
                std::uint8_t label = 1;
                if (di * di + dj * dj + dk * dk <= r * r) label = 2;
                else if (i >= bx0 && i <= bx1 && j >= by0 && j < by1 && k >= bz0 && k < bz1) label = 3;
                s.truth.data()[n] = label;
                const int mean = label == 1 ? 0 : label == 2 ? 60 : 120;
                s.volume.int16Data()[n] = std::int16_t(mean + int(300.0 * i / (d[0] - 1)) + noise(n));
            }
    });
    auto blob = [&](LabelMap& m, int ci, int cj, int ck, int radius, std::uint8_t label) {
        for (int k = ck - radius; k <= ck + radius; ++k)
            for (int j = cj - radius; j <= cj + radius; ++j)
                for (int i = ci - radius; i <= ci + radius; ++i)
                    if (g.contains(i, j, k)) m.data()[g.index(i, j, k)] = label;
    };
    // A stroke along each axis through the ball and through the box (a user's crosses on three views).
    for (int t = -int(0.7 * r); t <= int(0.7 * r); t += 2) {
        blob(s.seeds, int(cx) + t, int(cy), int(cz), 1, 2);
        blob(s.seeds, int(cx), int(cy) + t, int(cz), 1, 2);
        blob(s.seeds, int(cx), int(cy), int(cz) + t, 1, 2);
    }
    const int bcx = (bx0 + bx1) / 2;
    for (int t = -(bx1 - bx0) / 3; t <= (bx1 - bx0) / 3; t += 2) blob(s.seeds, bcx + t, int(cy), int(cz), 1, 3);
    for (int t = -(by1 - by0) / 3; t <= (by1 - by0) / 3; t += 2) blob(s.seeds, bcx, int(cy) + t, int(cz), 1, 3);
    for (int t = -(bz1 - bz0) / 3; t <= (bz1 - bz0) / 3; t += 2) blob(s.seeds, bcx, int(cy), int(cz) + t, 1, 3);
    // Background strokes that surround the objects a few voxels off them in the three central planes
    // (DESIGN.md 7: otherwise an object's label leaks into the background it borders).
    const int gap = 4, j0 = by0 - gap, j1 = by1 + gap, k0 = bz0 - gap, k1 = bz1 + gap;
    const int i0 = std::max(1, bx0 - gap), i1 = std::min(d[0] - 2, int(cx + r) + gap);
    for (int i = i0; i <= i1; i += 2)
        for (const auto& [j, k] : {std::pair{j0, int(cz)}, {j1, int(cz)}, {int(cy), k0}, {int(cy), k1}}) blob(s.seeds, i, j, k, 1, 1);
    for (int t = j0; t <= j1; t += 2)
        for (const int i : {i0, i1}) blob(s.seeds, i, t, int(cz), 1, 1);
    for (int t = k0; t <= k1; t += 2)
        for (const int i : {i0, i1}) blob(s.seeds, i, int(cy), t, 1, 1);
    s.stroked = s.seeds;
    for (int t = -int(0.8 * r); t <= int(0.8 * r); ++t) blob(s.stroked, int(cx), int(cy) + t, int(cz + 0.5 * r), 1, 2);
    return s;
}

/// Slicer's algorithm as published: one thread, a binary heap of (distance, label, voxel), seeds fixed.
LabelMap slicerDijkstra(const Volume& v, const LabelMap& seeds) {
    const Geometry& g = v.geometry();
    const std::size_t n = g.voxelCount(), nx = std::size_t(g.dims[0]), slice = g.sliceSize();
    std::vector<double> dist(n, INFINITY);
    LabelMap out(g);
    std::vector<bool> done(n, false);
    using Item = std::tuple<double, int, std::size_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    for (std::size_t i = 0; i < n; ++i)
        if (seeds.data()[i]) {
            dist[i] = 0;
            out.data()[i] = seeds.data()[i];
            heap.push({0.0, seeds.data()[i], i});
        }
    const std::int16_t* im = v.int16Data();
    while (!heap.empty()) {
        const auto [d, l, p] = heap.top();
        heap.pop();
        if (done[p]) continue;
        done[p] = true;
        const std::size_t k = p / slice, j = p % slice / nx, i = p % nx;
        const std::size_t nb[6] = {i > 0 ? p - 1 : p, i + 1 < nx ? p + 1 : p, j > 0 ? p - nx : p,
                                   j + 1 < std::size_t(g.dims[1]) ? p + nx : p, k > 0 ? p - slice : p,
                                   k + 1 < std::size_t(g.dims[2]) ? p + slice : p};
        for (const std::size_t q : nb) {
            if (q == p || done[q] || seeds.data()[q]) continue;
            const double nd = d + std::abs(int(im[p]) - int(im[q]));
            if (nd < dist[q] || (nd == dist[q] && l < out.data()[q])) {
                dist[q] = nd;
                out.data()[q] = std::uint8_t(l);
                heap.push({nd, l, q});
            }
        }
    }
    return out;
}

double dice(const LabelMap& a, const LabelMap& b, std::uint8_t l) {
    std::size_t both = 0, na = 0, nb = 0;
    for (std::size_t i = 0; i < a.voxelCount(); ++i) {
        const bool x = a.data()[i] == l, y = b.data()[i] == l;
        both += x && y;
        na += x;
        nb += y;
    }
    return na + nb ? 2.0 * double(both) / double(na + nb) : 1.0;
}

std::size_t differing(const LabelMap& a, const LabelMap& b) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.voxelCount(); ++i) n += a.data()[i] != b.data()[i];
    return n;
}

SegmentationRequest request(const Scene& s, const LabelMap& seeds) {
    SegmentationRequest r;
    r.volume = &s.volume;
    r.growCut.seeds = &seeds;
    return r;
}

/// CPU time of the process in ms: with other builds on the machine, wall time moves, this less.
double cpuMs() { return 1e3 * double(std::clock()) / CLOCKS_PER_SEC; }

struct Figures {
    double firstMs = 0, updateMs = 0, deviceFirstMs = 0, deviceUpdateMs = 0, firstCpuMs = 0, updateCpuMs = 0;
    double startMs = 0, startWorstMs = 0, firstWorstMs = 0;  // the first run's start (seeds planted), its worst
    int rounds = 0;
    long long visits = 0;
    LabelMap first, updated;
};

/// The first run and the update after the stroke, `repeats` times on one engine (median).
Figures measure(gpu::Backend backend, const Scene& s, int repeats) {
    Figures f;
    std::vector<double> first, update, devFirst, devUpdate, firstCpu, updateCpu, start;
    auto engine = gpu::createSegmenter(Method::GrowCut, backend);
    for (int r = 0; r < repeats; ++r) {
        const double c0 = cpuMs();
        const auto t0 = Clock::now();
        engine->start(request(s, s.seeds));
        start.push_back(ms(t0, Clock::now()));
        engine->run(1 << 20);
        const auto t1 = Clock::now();
        firstCpu.push_back(cpuMs() - c0);
        const MethodFigures a = engine->figures();
        first.push_back(ms(t0, t1));
        f.rounds = a.rounds.value_or(0);
        f.visits = a.tileVisits.value_or(0);
        if (r == 0) engine->result(f.first);
        const double c2 = cpuMs();
        const auto t2 = Clock::now();
        const UpdateOutcome outcome = engine->update(request(s, s.stroked));
        engine->run(1 << 20);
        const auto t3 = Clock::now();
        updateCpu.push_back(cpuMs() - c2);
        if (outcome != UpdateOutcome::Continued) std::printf("  (the update restarted)\n");
        update.push_back(ms(t2, t3));
        const MethodFigures b = engine->figures();
        if (a.msDevice && b.msDevice) {
            devFirst.push_back(*a.msDevice);
            devUpdate.push_back(*b.msDevice - *a.msDevice);
        }
        if (r == 0) engine->result(f.updated);
    }
    f.firstMs = median(first);
    f.startMs = median(start);
    f.startWorstMs = *std::max_element(start.begin(), start.end());
    f.firstWorstMs = *std::max_element(first.begin(), first.end());
    f.updateMs = median(update);
    f.deviceFirstMs = median(devFirst);
    f.deviceUpdateMs = median(devUpdate);
    f.firstCpuMs = median(firstCpu);
    f.updateCpuMs = median(updateCpu);
    return f;
}

std::array<int, 3> parseSize(const std::string& t) {
    std::array<int, 3> d{};
    if (std::sscanf(t.c_str(), "%dx%dx%d", &d[0], &d[1], &d[2]) != 3) d = {std::atoi(t.c_str()), d[0], d[0]};
    if (d[1] == 0) d = {d[0], d[0], d[0]};
    return d;
}

void dumpScene(const std::string& dir, const std::string& name, const Scene& s, const LabelMap& lucent) {
    std::filesystem::create_directories(dir);
    auto write = [&](const std::string& file, const void* data, std::size_t bytes) {
        std::ofstream(dir + "/" + name + "-" + file, std::ios::binary).write(static_cast<const char*>(data), std::streamsize(bytes));
    };
    const std::size_t n = s.volume.voxelCount();
    write("volume.raw", s.volume.int16Data(), 2 * n);
    write("seeds.raw", s.seeds.data(), n);
    write("stroked.raw", s.stroked.data(), n);
    write("truth.raw", s.truth.data(), n);
    write("lucent.raw", lucent.data(), n);
    const auto& d = s.volume.geometry().dims;
    std::ofstream(dir + "/" + name + ".json") << "{\"dims\": [" << d[0] << ", " << d[1] << ", " << d[2] << "]}\n";
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string p; std::getline(in, p, ',');) out.push_back(p);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::string sizes = "256x256x256,512x512x400", backends = "cpu,cuda", dumpDir;
    bool slicer = true;
    int repeats = 3;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        if (arg == "--sizes" && a + 1 < argc) sizes = argv[++a];
        else if (arg == "--backends" && a + 1 < argc) backends = argv[++a];
        else if (arg == "--repeats" && a + 1 < argc) repeats = std::max(1, std::atoi(argv[++a]));
        else if (arg == "--dump" && a + 1 < argc) dumpDir = argv[++a];
        else if (arg == "--no-slicer") slicer = false;
        else {
            std::fprintf(stderr, "usage: lucent_bench_growcut [--sizes 256x256x256,...] [--backends cpu,cuda] [--no-slicer] "
                                 "[--repeats N] [--dump DIR]\n");
            return 2;
        }
    }
    const bool device = !gpu::listDevices().empty();
    std::printf("grow from seeds: %u threads available, CUDA device: %s\n", defaultThreadCount(), device ? "yes" : "no");
    for (const std::string& size : split(sizes)) {
        const auto d = parseSize(size);
        const Scene s = scene(d);
        const std::string name = std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
        std::printf("%s (%.1f M voxels), %zu seed voxels, the stroke adds %zu\n", name.c_str(), s.volume.voxelCount() / 1e6,
                    s.volume.voxelCount() - s.seeds.count(0), s.seeds.count(0) - s.stroked.count(0));
        LabelMap reference;
        for (const std::string& b : split(backends)) {
            if (b == "cuda" && !device) continue;
            const gpu::Backend backend = b == "cuda" ? gpu::Backend::Cuda : gpu::Backend::Cpu;
            const Figures f = measure(backend, s, b == "cuda" ? repeats : 1);
            std::printf("  %-4s first run %9.1f ms, update after the stroke %8.1f ms (%zu voxels changed)", b.c_str(), f.firstMs,
                        f.updateMs, differing(f.first, f.updated));
            if (b == "cuda") std::printf(", device %.1f / %.1f ms", f.deviceFirstMs, f.deviceUpdateMs);
            else std::printf(", CPU time %.1f / %.1f ms", f.firstCpuMs, f.updateCpuMs);
            std::printf("; Dice %.4f %.4f %.4f\n", dice(f.first, s.truth, 1), dice(f.first, s.truth, 2), dice(f.first, s.truth, 3));
            if (b == "cuda")
                std::printf("       first run: start (keys set, seeds gathered and planted) %.1f ms, the rest rounds; worst of %d "
                            "runs %.1f ms (start %.1f, the first one holding the volume's upload); %d rounds, %lld tile visits\n",
                            f.startMs, repeats, f.firstWorstMs, f.startWorstMs, f.rounds, f.visits);
            if (reference.voxelCount() == 0) {
                reference = f.first;
                if (!dumpDir.empty()) dumpScene(dumpDir, name, s, f.first);
            } else {
                std::printf("       labels equal to the first engine's: %s\n", differing(reference, f.first) == 0 ? "yes" : "NO");
            }
        }
        if (slicer) {
            const double c0 = cpuMs();
            const auto t0 = Clock::now();
            const LabelMap peer = slicerDijkstra(s.volume, s.seeds);
            const auto t1 = Clock::now();
            std::printf("  Slicer's algorithm (heap Dijkstra, 1 thread) %9.1f ms (CPU time %.1f ms); labels equal to Lucent's: %s\n",
                        ms(t0, t1), cpuMs() - c0,
                        reference.voxelCount() && differing(reference, peer) == 0 ? "yes" : "NO");
        }
    }
    return 0;
}
