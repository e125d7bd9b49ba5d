/// @brief The 3D snake per iteration: a 256^3 domain inside a 512 x 512 x 400 volume, and the whole
/// 512 x 512 x 400 volume as the domain, on the CPU engine (1 and 2 threads) and, where a device is,
/// the CUDA engine (CUDA events after a warm-up). Prints ms per iteration (median over the steps
/// of one iteration each) and the voxels inside. --dump DIR writes each case's domain (int16, x
/// fastest), start and result (uint8) as raw files with a JSON line, for tests/bench/snake3d_peer.py
/// (scikit-image's morphological_chan_vese on the same domain, step count and start).
/// usage: lucent_bench_snake3d [--cases 256,512] [--iterations N] [--threads 1,2] [--cuda 0|1] [--dump DIR]
#include "lucent/core/ParallelFor.h"
#include "lucent/core/seg/Snake3dCpu.h"
#include "lucent/core/seg/Snake3dStart.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/gpu/SegmenterFactory.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
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

/// 512 x 512 x 400 int16, a CT-like head: air (-1000), a body ellipsoid (40) holding a dark
/// ventricle-like ellipsoid (5) and a bright ball (80) near the centre, Gaussian noise sigma 15.
Volume head() {
    Geometry g;
    g.dims = {512, 512, 400};
    Volume v(g, PixelType::Int16);
    parallelFor(400, 0, [&](std::size_t k) {
        std::mt19937 rng(unsigned(k) * 7919u + 3);
        std::normal_distribution<double> noise(0, 15);
        for (int j = 0; j < 512; ++j)
            for (int i = 0; i < 512; ++i) {
                const double x = i - 256.0, y = j - 256.0, z = double(k) - 200.0;
                double base = -1000;
                if (x * x / (220.0 * 220) + y * y / (240.0 * 240) + z * z / (190.0 * 190) <= 1) base = 40;
                if ((x + 40) * (x + 40) / (60.0 * 60) + y * y / (90.0 * 90) + z * z / (50.0 * 50) <= 1) base = 5;
                if ((x - 60) * (x - 60) + (y - 30) * (y - 30) + z * z <= 45.0 * 45) base = 80;
                v.int16Data()[g.index(i, j, int(k))] = std::int16_t(std::lround(base + noise(rng)));
            }
    });
    return v;
}

struct Case {
    std::string name;
    SegmentationRequest request;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

void dump(const std::string& dir, const Case& c, const Volume& v, const LabelMap& result, int iterations, int smoothing) {
    const VoxelBox d = snake3dDomain(c.request);
    const Geometry& g = v.geometry();
    std::ofstream image(dir + "/" + c.name + "_image.raw", std::ios::binary), start(dir + "/" + c.name + "_start.raw", std::ios::binary),
        out(dir + "/" + c.name + "_lucent.raw", std::ios::binary);
    const std::vector<std::uint64_t> words = snake3dStartWords(c.request, d);
    const Snake3dShape s = snake3dShape(d);
    for (int k = d.lo[2]; k <= d.hi[2]; ++k)
        for (int j = d.lo[1]; j <= d.hi[1]; ++j) {
            image.write(reinterpret_cast<const char*>(v.int16Data() + g.index(d.lo[0], j, k)), std::streamsize(s.nx) * 2);
            out.write(reinterpret_cast<const char*>(result.data() + g.index(d.lo[0], j, k)), s.nx);
            for (int x = 0; x < s.nx; ++x) {
                const char bit = char(words[std::size_t(s.rowOf(j - d.lo[1], k - d.lo[2])) + std::size_t(x / 64)] >> (x % 64) & 1u);
                start.write(&bit, 1);
            }
        }
    std::ofstream meta(dir + "/" + c.name + ".json");
    meta << "{\"nx\": " << s.nx << ", \"ny\": " << s.ny << ", \"nz\": " << s.nz << ", \"iterations\": " << iterations
         << ", \"smoothing\": " << smoothing << "}\n";
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> cases{256, 512}, threads{1, 2};
    int iterations = 10, cuda = 1;
    std::string dumpDir;
    for (int a = 1; a + 1 < argc; a += 2) {
        const std::string k = argv[a], val = argv[a + 1];
        if (k == "--cases") cases = list(val);
        else if (k == "--iterations") iterations = std::atoi(val.c_str());
        else if (k == "--threads") threads = list(val);
        else if (k == "--cuda") cuda = std::atoi(val.c_str());
        else if (k == "--dump") dumpDir = val;
    }
    const Volume v = head();
    std::printf("3D snake, %d iterations, smoothing 1; 512 x 512 x 400 head phantom\n", iterations);
    std::printf("%-28s %-8s %8s %14s %14s %12s\n", "case", "backend", "threads", "ms/iteration", "ms start", "voxels in");
    for (int n : cases) {
        Case c;
        c.request.volume = &v;
        c.request.snake3d.iterations = iterations;
        if (n == 256) {  // a box around the dark ellipsoid and the ball; the domain 256^3 (the ROI)
            c.name = "domain256";
            c.request.snake3d.box = VoxelBox{{150, 150, 130}, {361, 361, 269}};
            c.request.roi = VoxelBox{{128, 128, 72}, {383, 383, 327}};
        } else {  // the whole volume: a box inside the body
            c.name = "volume512x512x400";
            c.request.snake3d.box = VoxelBox{{20, 20, 20}, {491, 491, 379}};
            c.request.roi = VoxelBox{{0, 0, 0}, {511, 511, 399}};
        }
        LabelMap last;
        for (int t : threads) {
            c.request.threads = unsigned(t);
            Snake3dCpu e;
            const auto t0 = Clock::now();
            e.start(c.request);
            const double msStart = ms(t0, Clock::now());
            std::vector<double> per;
            while (!e.finished()) {
                const auto a = Clock::now();
                e.step(1);
                per.push_back(ms(a, Clock::now()));
            }
            std::printf("%-28s %-8s %8d %14.2f %14.2f %12lld\n", c.name.c_str(), "cpu", t, median(per), msStart, e.insideVoxels());
            std::fflush(stdout);
            e.result(last);
        }
        if (cuda && gpu::cudaCompiledIn() && !gpu::listDevices().empty()) {
            auto context = std::make_shared<gpu::GpuContext>(v);
            auto e = gpu::createSegmenter(Method::Snake3d, gpu::Backend::Cuda, context);
            for (int warm = 0; warm < 2; ++warm) {
                e->start(c.request);
                e->run(iterations);
            }
            e->start(c.request);
            const double before = e->figures().msDevice.value_or(0);
            std::vector<double> per;
            double previous = before;
            while (!e->finished()) {
                e->step(1);
                const double now = e->figures().msDevice.value_or(0);
                per.push_back(now - previous);
                previous = now;
            }
            LabelMap labels;
            e->result(labels);
            std::size_t differing = 0;
            for (std::size_t i = 0; i < labels.voxelCount(); ++i) differing += labels.data()[i] != last.data()[i];
            std::printf("%-28s %-8s %8s %14.3f %14.2f %12s  (events; labels differing from the CPU: %zu)\n", c.name.c_str(), "cuda",
                        "-", median(per), before, "", differing);
        }
        if (!dumpDir.empty()) dump(dumpDir, c, v, last, iterations, 1);
    }
    return 0;
}
