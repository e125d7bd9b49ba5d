/// @brief Fill between slices (issue 41): a 512 x 512 x 400 label drawn on 40 slices of k (every 10th)
/// filled by both methods; median and worst of R runs, peak host memory, and the Dice of the fill
/// against the whole shape. --dump writes the drawn slices and the whole shape as raw uint8 files for
/// the Python peer (tests/bench/slice_fill_peer.py: scipy's distance transforms, signed-distance
/// interpolation). Rows for the CPU, and for CUDA where a device is, with the device memory the CUDA
/// fill held; then the plan alone (the host's pass over the map that every row includes).
/// usage: lucent_bench_slice_fill [--size 512,512,400] [--step 10] [--runs R] [--threads N] [--dump DIR]
///        [--backend cpu|cuda|auto] (without it: cpu, then cuda where a device is)
#include "lucent/core/ParallelFor.h"
#include "lucent/core/SliceFill.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/gpu/SliceFillBackend.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace lucent;

namespace {

using Clock = std::chrono::steady_clock;

double peakMiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

/// An organ-sized blob: an ellipsoid (0.36, 0.30, 0.45 of the grid) whose radius swells and dips with
/// the angle and the height, so that slices differ in shape, not only in size; and a tube that splits
/// in two below the middle (a vessel), both label 1.
LabelMap wholeShape(int nx, int ny, int nz) {
    Geometry g;
    g.dims = {nx, ny, nz};
    LabelMap m(g);
    parallelFor(std::size_t(nz), 0, [&](std::size_t kk) {
        const int k = int(kk);
        const double z = (k - nz / 2.0) / (0.45 * nz);
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                const double x = (i - nx * 0.42) / (0.36 * nx), y = (j - ny / 2.0) / (0.30 * ny);
                const double wobble = 1 + 0.12 * std::sin(3 * std::atan2(y, x) + 4 * z);
                bool in = x * x + y * y + z * z <= wobble * wobble;
                const double t = double(k) / nz;  // the vessel, at the right of the blob
                const double off = t > 0.5 ? (t - 0.5) * 0.25 * nx : 0.0;
                for (double cy : {ny / 2.0 - off, ny / 2.0 + off}) {
                    const double dx = i - nx * 0.85, dy = j - cy, r = 0.025 * nx;
                    in = in || (dx * dx + dy * dy <= r * r && t > 0.05 && t < 0.95);
                }
                if (in) m.at(i, j, k) = 1;
            }
    });
    return m;
}

/// CPU time of the process so far (user + system, all threads), in ms: on a shared machine the wall
/// time depends on the neighbours, this does not.
double cpuMs() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

double dice(const LabelMap& a, const LabelMap& b) {
    std::size_t both = 0, na = 0, nb = 0;
    for (std::size_t n = 0; n < a.voxelCount(); ++n) na += a[n] == 1, nb += b[n] == 1, both += a[n] == 1 && b[n] == 1;
    return 2.0 * double(both) / double(na + nb);
}

void dump(const std::string& path, const LabelMap& m) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(m.data()), std::streamsize(m.voxelCount()));
}

/// One row: `runs` fills of `drawn` by `method` on `backend`, median and worst wall time (the CUDA
/// fill's includes the map's upload and download and the host's pass finding the labelled slices).
void measure(const LabelMap& drawn, const LabelMap& whole, Backend backend, FillMethod method, unsigned threads,
             int runs) {
    const char* name = method == FillMethod::Morphological ? "morphological" : "signed distance";
    if (backend == Backend::Cuda && !gpu::hasCudaSliceFill(method)) {
        std::printf("  cuda %-16s no CUDA version (the CPU row is the figure)\n", name);
        return;
    }
    if (backend == Backend::Cuda) {  // the device's context and the first launches, outside the timed runs
        LabelMap m = drawn;
        SliceFillOptions options;
        options.axis = 2, options.method = method, options.threads = threads;
        gpu::fillBetweenSlices(m, options, backend);
    }
    std::vector<double> times, cpu;
    double quality = 0;
    std::size_t deviceBytes = 0;
    std::string used;
    for (int r = 0; r < runs; ++r) {
        LabelMap m = drawn;  // copied outside the timed part
        SliceFillOptions options;
        options.axis = 2;
        options.method = method;
        options.threads = threads;
        const double c0 = cpuMs();
        const auto t0 = Clock::now();
        const gpu::SliceFillRun run = gpu::fillBetweenSlices(m, options, backend);
        times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        cpu.push_back(cpuMs() - c0);
        deviceBytes = std::max(deviceBytes, run.deviceBytes);
        used = run.backend;
        if (r == 0) quality = dice(m, whole);
    }
    std::sort(times.begin(), times.end());
    std::sort(cpu.begin(), cpu.end());
    std::printf(
        "  %-4s %-16s median %7.1f ms  worst %7.1f ms  (CPU time median %7.1f ms)  Dice %.4f  peak host memory "
        "%.0f MiB  device memory %.0f MiB\n",
        used.c_str(), name, times[times.size() / 2], times.back(), cpu[cpu.size() / 2], quality, peakMiB(),
        double(deviceBytes) / 1048576.0);
}

}  // namespace

int main(int argc, char** argv) {
    int nx = 512, ny = 512, nz = 400, step = 10, runs = 5;
    unsigned threads = 0;
    std::string dumpDir;
    std::vector<Backend> backends{Backend::Cpu};
    if (!gpu::listDevices().empty()) backends.push_back(Backend::Cuda);
    for (int a = 1; a + 1 < argc; a += 2) {
        const std::string k = argv[a], v = argv[a + 1];
        if (k == "--size")
            std::sscanf(v.c_str(), "%d,%d,%d", &nx, &ny, &nz);
        else if (k == "--step")
            step = std::atoi(v.c_str());
        else if (k == "--runs")
            runs = std::atoi(v.c_str());
        else if (k == "--threads")
            threads = unsigned(std::atoi(v.c_str()));
        else if (k == "--dump")
            dumpDir = v;
        else if (k == "--backend")
            backends = {gpu::parseBackend(v)};
    }
    const LabelMap whole = wholeShape(nx, ny, nz);
    LabelMap drawn = whole;
    int labelled = 0;
    for (int k = 0; k < nz; ++k) {
        const bool keep = (k - step / 2) % step == 0 && k >= step / 2;
        labelled += keep;
        if (!keep) std::fill(drawn.data() + std::size_t(k) * nx * ny, drawn.data() + std::size_t(k + 1) * nx * ny, 0);
    }
    if (!dumpDir.empty()) {
        dump(dumpDir + "/slice_fill_drawn.raw", drawn);
        dump(dumpDir + "/slice_fill_whole.raw", whole);
    }
    std::printf("fill between slices: %d x %d x %d, %d labelled slices of k (every %d), %u threads, %d runs\n", nx, ny,
                nz, labelled, step, threads ? threads : defaultThreadCount(), runs);
    for (Backend backend : backends)
        for (FillMethod method : {FillMethod::Morphological, FillMethod::SignedDistance})
            measure(drawn, whole, backend, method, threads, runs);
    {  // the pass over the map both backends start from (inside each row above): the CUDA rows' host share
        std::vector<double> times;
        SliceFillOptions options;
        options.axis = 2, options.threads = threads;
        for (int r = 0; r < runs; ++r) {
            const auto t0 = Clock::now();
            const SliceFillPlan plan = planSliceFill(drawn, options);
            times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            if (plan.gaps == 0) std::printf("  (no gaps)\n");
        }
        std::sort(times.begin(), times.end());
        std::printf("  plan alone (labelled slices found, one pass over the map): median %.1f ms  worst %.1f ms\n",
                    times[times.size() / 2], times.back());
    }
    LabelMap m = drawn;
    SliceFillOptions options;
    options.threads = threads;
    const auto t0 = Clock::now();
    const SliceFillReport report = fillBetweenSlices(m, options);
    std::printf("  without an axis (the sparse axis found: %s): %.1f ms\n", axisName(report.axis),
                std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    return 0;
}
