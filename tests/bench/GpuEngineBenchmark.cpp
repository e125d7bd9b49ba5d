/// @brief CUDA engine figures (issue 7): region growing and fuzzy connectedness on a CT-like
/// phantom of 512^3 and 512x512x576 (paper 001's size) and on the real CT head: device-resident
/// ms (volume resident, median of --repeats after warm-up, wall clock and CUDA events), end to
/// end with the upload, GB/s over the bytes that must move, voxels, rounds; the CPU engine on
/// the same input with every core; the labels of both compared voxel for voxel.
/// usage: lucent_bench_gpu [--repeats N] [--dump DIR] [--no-cpu-fc] [--quick] [--snake-only]
/// (the CPU fc is sequential: seconds). The snake section (GpuSnakeBenchmark.h) comes last.
/// --dump writes each input as raw int16 plus a line of JSON, for tests/bench/gpu_peers.py.
#include "GpuSnakeBenchmark.h"
#include "lucent/core/ParallelFor.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/io/VolumeFile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace lucent;

namespace {

using Clock = std::chrono::steady_clock;
bool g_quick = false;  // --quick: the first case, resident figures only
double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

/// Gaussian noise from a hash of the voxel index: the same volume on every run and thread count.
double gaussian(std::uint64_t index) {
    auto mix = [](std::uint64_t z) {
        z += 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    };
    const std::uint64_t h = mix(index);
    const double u1 = ((h >> 11) + 0.5) / 9007199254740992.0, u2 = ((mix(h) >> 11) + 0.5) / 9007199254740992.0;
    return std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

struct Case {
    std::string name;
    Volume volume;
    VoxelIndex seed;
    double lower, upper;  // srg interval
};

/// Chest-like int16 phantom (HU): air outside, a body ellipse, two lungs joined only through a
/// trachea and two bronchi, vessels crossing the lungs, Gaussian noise (sigma 25).
Case chestPhantom(int nx, int ny, int nz) {
    Geometry g;
    g.dims = {nx, ny, nz};
    g.spacing = {0.7, 0.7, 0.7};
    Volume v(g, PixelType::Int16);
    const double cx = nx / 2.0, cy = ny / 2.0;
    const double lungX[2] = {cx - 0.2 * nx, cx + 0.2 * nx}, lungZ = 0.55 * nz;
    auto inTube = [](double px, double py, double pz, const double a[3], const double b[3], double r) {
        const double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        const double t = std::clamp(((px - a[0]) * d[0] + (py - a[1]) * d[1] + (pz - a[2]) * d[2]) /
                                        (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), 0.0, 1.0);
        const double q[3] = {a[0] + t * d[0] - px, a[1] + t * d[1] - py, a[2] + t * d[2] - pz};
        return q[0] * q[0] + q[1] * q[1] + q[2] * q[2] <= r * r;
    };
    const double top[3] = {cx, cy, 0.1 * nz}, fork[3] = {cx, cy, 0.25 * nz};
    const double left[3] = {lungX[0], cy, 0.4 * nz}, right[3] = {lungX[1], cy, 0.4 * nz};
    parallelFor(std::size_t(nz), 0, [&](std::size_t kk) {
        const int k = int(kk);
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                double hu = -1000;
                const double bx = (i - cx) / (0.45 * nx), by = (j - cy) / (0.35 * ny);
                if (bx * bx + by * by <= 1 && k >= 0.05 * nz && k <= 0.95 * nz) {
                    hu = 40;
                    for (double lx : lungX) {
                        const double ex = (i - lx) / (0.15 * nx), ey = (j - cy) / (0.22 * ny), ez = (k - lungZ) / (0.35 * nz);
                        if (ex * ex + ey * ey + ez * ez <= 1) hu = -850;
                    }
                    // Vessels: cylinders along y through both lungs, away from the seed.
                    for (int s = 0; s < 6; ++s) {
                        const double vz = (0.3 + 0.09 * s) * nz, vx = cx + (s % 2 ? 0.25 : -0.13) * nx;
                        if (hu < -500 && (k - vz) * (k - vz) + (i - vx) * (i - vx) <= (0.012 * nx) * (0.012 * nx)) hu = 40;
                    }
                    if (inTube(i, j, k, top, fork, 0.02 * nx) || inTube(i, j, k, fork, left, 0.015 * nx) ||
                        inTube(i, j, k, fork, right, 0.015 * nx))
                        hu = -900;
                }
                const std::size_t idx = g.index(i, j, k);
                v.int16Data()[idx] = static_cast<std::int16_t>(std::lround(std::clamp(hu + 25 * gaussian(idx), -1024.0, 3071.0)));
            }
    });
    char name[64];
    std::snprintf(name, sizeof name, "chest %dx%dx%d", nx, ny, nz);
    return {name, std::move(v), {int(lungX[0]), int(cy), int(lungZ)}, -1024, -400};
}

struct Row {
    std::string what;
    double residentMs = 0, deviceMs = 0, endToEndMs = 0, gbps = 0, cpuMs = 0;
    std::size_t voxels = 0;
    int rounds = 0;
    long long visits = 0;
    double startMs = 0, runMs = 0, labelsMs = 0;  // resident phases (medians)
    std::string equal = "n/a";  // labels of CPU and CUDA identical ("n/a": the CPU did not run)
};

void print(const Row& r) {
    std::printf("%-44s %10.3f %10.3f %10.2f %8.1f %11zu %7d %10.1f %6s\n", r.what.c_str(), r.residentMs, r.deviceMs,
                r.endToEndMs, r.gbps, r.voxels, r.rounds, r.cpuMs, r.equal.c_str());
    std::printf("    phases: start %.3f ms (threshold or tables, seeds), rounds %.3f ms, labels %.3f ms; %lld tile visits\n",
                r.startMs, r.runMs, r.labelsMs, r.visits);
    std::fflush(stdout);
}

std::size_t countLabels(const LabelMap& m) { return m.count(1); }

/// Runs `method` on CUDA with the volume resident (`repeats` times after two warm-ups), end to end
/// with a fresh context (3 times), and on the CPU (`cpuRuns` times).
Row measure(const Case& c, Method method, const SegmentationRequest& request, int repeats, int cpuRuns) {
    Row row;
    row.what = c.name + " " + methodName(method);
    auto context = std::make_shared<gpu::GpuContext>(c.volume);
    auto engine = gpu::createSegmenter(method, gpu::Backend::Cuda, context);
    std::vector<double> resident, device, starts, runs, labels;
    for (int r = 0; r < repeats + 2; ++r) {
        const auto t0 = Clock::now();
        engine->start(request);
        const auto t1 = Clock::now();
        engine->run(64);
        const auto t2 = Clock::now();
        engine->writeLabels(context->labelSink());
        context->synchronize();
        const auto t3 = Clock::now();
        const double wall = ms(t0, t3);
        if (r >= 2) {
            starts.push_back(ms(t0, t1));
            runs.push_back(ms(t1, t2));
            labels.push_back(ms(t2, t3));
        }
        if (r == 0 && wall > 500) repeats = std::min(repeats, 3);  // keep a slow case inside the device lease
        if (r < 2) continue;
        resident.push_back(wall);
        device.push_back(*engine->figures().msDevice);
    }
    row.residentMs = median(resident);
    row.deviceMs = median(device);
    row.rounds = engine->figures().rounds.value_or(0);
    row.visits = engine->figures().tileVisits.value_or(0);
    row.startMs = median(starts);
    row.runMs = median(runs);
    row.labelsMs = median(labels);
    if (g_quick) return row;
    const double n = double(c.volume.voxelCount());
    // Bytes that must move: the volume read once (fcm: twice, histogram and labels), the labels
    // written once, and the fc map written once.
    const double bytes = double(c.volume.byteSize()) * (method == Method::FuzzyCMeans ? 2 : 1) + n +
                         (method == Method::FuzzyConnectedness ? 2 * n : 0);
    row.gbps = bytes / (row.deviceMs * 1e6);
    LabelMap cudaLabels;
    std::vector<double> e2e;
    for (int r = 0; r < 3; ++r) {
        const auto t0 = Clock::now();
        auto fresh = gpu::createSegmenter(method, gpu::Backend::Cuda);  // makes its own context: uploads
        fresh->start(request);
        fresh->run(64);
        fresh->result(cudaLabels);
        e2e.push_back(ms(t0, Clock::now()));
    }
    row.endToEndMs = median(e2e);
    row.voxels = method == Method::FuzzyCMeans ? cudaLabels.count(1) : countLabels(cudaLabels);
    LabelMap cpuLabels;
    std::vector<double> cpu;
    for (int r = 0; r < cpuRuns; ++r) {
        auto engineCpu = gpu::createSegmenter(method, gpu::Backend::Cpu);
        const auto t0 = Clock::now();
        engineCpu->start(request);
        engineCpu->run(64);
        engineCpu->result(cpuLabels);
        cpu.push_back(ms(t0, Clock::now()));
    }
    row.cpuMs = median(cpu);
    if (cpuRuns > 0) row.equal = std::memcmp(cpuLabels.data(), cudaLabels.data(), cudaLabels.voxelCount()) == 0 ? "yes" : "NO";
    return row;
}

/// A square 2D int16 image of about `megapixels` MP with values 0..255 (paper 000's 1 MB case is
/// 1024 x 1024 at 8 bits): a bright disc and a mid-grey ring on a dark background, noise sigma 12.
Case grey(int side) {
    Geometry g;
    g.dims = {side, side, 1};
    Volume v(g, PixelType::Int16);
    const double c = side / 2.0;
    for (int j = 0; j < side; ++j)
        for (int i = 0; i < side; ++i) {
            const double r = std::hypot(i - c, j - c) / side;
            const double base = r < 0.2 ? 200 : (r < 0.35 ? 120 : 40);
            const std::size_t idx = g.index(i, j, 0);
            v.int16Data()[idx] = static_cast<std::int16_t>(std::lround(std::clamp(base + 12 * gaussian(idx), 0.0, 255.0)));
        }
    char name[64];
    std::snprintf(name, sizeof name, "image %dx%d (8-bit values)", side, side);
    return {name, std::move(v), {side / 2, side / 2, 0}, 150, 255};
}

/// A new threshold on the stored map: update() + labels into the device buffer.
double thresholdChangeMs(const Case& c, SegmentationRequest request, int repeats) {
    auto context = std::make_shared<gpu::GpuContext>(c.volume);
    auto engine = gpu::createSegmenter(Method::FuzzyConnectedness, gpu::Backend::Cuda, context);
    engine->start(request);
    engine->run(64);
    std::vector<double> times;
    for (int r = 0; r < repeats + 2; ++r) {
        request.fuzzyConnectedness.threshold = 0.2 + 0.03 * (r % 20);
        const auto t0 = Clock::now();
        if (engine->update(request) != UpdateOutcome::Relabelled) std::fprintf(stderr, "threshold change restarted the map\n");
        engine->writeLabels(context->labelSink());
        context->synchronize();
        if (r >= 2) times.push_back(ms(t0, Clock::now()));
    }
    return median(times);
}

void dump(const Case& c, const std::string& dir, const std::string& file) {
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/" + file + ".raw", std::ios::binary)
        .write(static_cast<const char*>(c.volume.data()), std::streamsize(c.volume.byteSize()));
    const auto& d = c.volume.geometry().dims;
    std::ofstream(dir + "/" + file + ".json") << "{\"name\": \"" << c.name << "\", \"dims\": [" << d[0] << ", " << d[1] << ", "
                                              << d[2] << "], \"seed\": [" << c.seed.i << ", " << c.seed.j << ", " << c.seed.k
                                              << "], \"lower\": " << c.lower << ", \"upper\": " << c.upper << "}\n";
}

/// FCM's three device paths on 512^3 and on paper 000's 1 MB image: hard labels through the
/// histogram, the same with float memberships written in the labelling pass, and the per-voxel
/// iterations. GB/s counts the bytes each must move: the volume read twice (histogram, labels; the
/// per-voxel path once per pass as well), the labels written, and c floats per voxel.
void fcmPaths(int repeats, const std::string& dumpDir) {
    const Case chest = chestPhantom(512, 512, 512), image = grey(1024);
    if (!dumpDir.empty()) {
        dump(image, dumpDir, "image");
        dump(chest, dumpDir, "case0");
    }
    for (const Case* c : {&image, &chest}) {
        const double n = double(c->volume.voxelCount()), bytes = double(c->volume.byteSize());
        for (int clusters : {3, 4}) {
            SegmentationRequest f;
            f.volume = &c->volume;
            f.fuzzyCMeans.clusters = clusters;
            const std::string tag = " c=" + std::to_string(clusters);
            Row hard = measure(*c, Method::FuzzyCMeans, f, repeats, 3);
            hard.what += tag + " labels";
            print(hard);
            f.fuzzyCMeans.deviceMemberships = true;
            Row soft = measure(*c, Method::FuzzyCMeans, f, repeats, 1);
            soft.what += tag + " +memberships";
            soft.gbps = (2 * bytes + n + 4.0 * clusters * n) / (soft.deviceMs * 1e6);
            print(soft);
            f.fuzzyCMeans.deviceMemberships = false;
            f.fuzzyCMeans.perVoxel = true;
            Row voxel = measure(*c, Method::FuzzyCMeans, f, std::min(repeats, 5), c == &image ? 3 : 1);
            voxel.what += tag + " per-voxel";
            print(voxel);
            auto engine = gpu::createSegmenter(Method::FuzzyCMeans, gpu::Backend::Cuda);
            engine->start(f);
            const StepReport r = engine->run(64);
            voxel.gbps = (bytes * (r.iterations + 1) + 2 * bytes + n) / (voxel.deviceMs * 1e6);
            std::printf("    per-voxel: %d iterations, %.1f GB/s over its passes\n", r.iterations, voxel.gbps);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = 20;
    std::string dumpDir;
    bool cpuFc = true, snakeOnly = false, fcmOnly = false, snakeScan = false;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        if (arg == "--repeats" && a + 1 < argc) repeats = std::max(1, std::atoi(argv[++a]));
        else if (arg == "--dump" && a + 1 < argc) dumpDir = argv[++a];
        else if (arg == "--no-cpu-fc") cpuFc = false;
        else if (arg == "--quick") g_quick = true;
        else if (arg == "--snake-only") snakeOnly = true;
        else if (arg == "--fcm-only") fcmOnly = true;
        else if (arg == "--snake-scan") snakeScan = snakeOnly = true;
        else {
            std::fprintf(stderr, "usage: lucent_bench_gpu [--repeats N] [--dump DIR] [--no-cpu-fc] [--quick] [--snake-only] [--snake-scan] [--fcm-only]\n");
            return 2;
        }
    }
    const auto devices = gpu::listDevices();
    if (devices.empty()) {
        std::printf("no CUDA device: nothing to measure (%s)\n", gpu::describeBackends().c_str());
        return 0;
    }
    std::printf("device: %s; CPU engines on %u threads; median of %d after 2 warm-ups\n", devices[0].name.c_str(),
                defaultThreadCount(), repeats);
    std::printf("%-44s %10s %10s %10s %8s %11s %7s %10s %6s\n", "case", "resident", "events", "end2end", "GB/s", "voxels",
                "rounds", "cpu_ms", "equal");

    if (snakeOnly) {
        bench::snakeBenchmarks(repeats, g_quick, snakeScan);
        return 0;
    }
    if (fcmOnly) {
        fcmPaths(repeats, dumpDir);
        return 0;
    }
    std::vector<Case> cases;
    cases.push_back(chestPhantom(512, 512, 512));
    if (!g_quick) cases.push_back(chestPhantom(512, 512, 576));
    if (const char* data = std::getenv("LUCENT_DATA"); data && !g_quick) {
        const std::string path = std::string(data) + "/cranium/cranium.mhd";
        if (std::filesystem::exists(path)) cases.push_back({"CT head 256x256x108", io::readVolumeFile(path), {66, 128, 54}, 300, 3100});
    }
    if (!g_quick) {
        const Case image = grey(1024);
        SegmentationRequest f;
        f.volume = &image.volume;
        if (!dumpDir.empty()) dump(image, dumpDir, "image");
        Row row = measure(image, Method::FuzzyCMeans, f, repeats, 3);
        row.what += " c=3";
        print(row);
    }
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        if (!dumpDir.empty()) dump(c, dumpDir, "case" + std::to_string(i));
        SegmentationRequest f;
        f.volume = &c.volume;
        for (int clusters : {3, 4}) {
            f.fuzzyCMeans.clusters = clusters;
            Row row = measure(c, Method::FuzzyCMeans, f, repeats, 3);
            row.what += " c=" + std::to_string(clusters);
            print(row);
        }
        SegmentationRequest r;
        r.volume = &c.volume;
        r.seeds = {c.seed};
        r.regionGrowing = {c.lower, c.upper, 6};
        print(measure(c, Method::RegionGrowing, r, repeats, 3));
        r.regionGrowing.connectivity = 26;
        Row row26 = measure(c, Method::RegionGrowing, r, repeats, 1);
        row26.what += " (26)";
        print(row26);
        r.fuzzyConnectedness.threshold = 0.5;
        print(measure(c, Method::FuzzyConnectedness, r, repeats, cpuFc ? 1 : 0));
        std::printf("%-44s %10.3f\n", (c.name + " fc new threshold").c_str(), thresholdChangeMs(c, r, repeats));
    }
    bench::snakeBenchmarks(repeats, g_quick);
    return 0;
}
