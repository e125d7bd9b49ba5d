/// @brief DICOM series loading speed: 512x512x400 int16, uncompressed and JPEG-LS, all cores vs one
/// thread vs dcm2niix on the same files, in one run. Prints slices per second (median of runs).
/// usage: lucent_bench_dicom_load [WORK_DIR] [--slices N] [--runs R]
#include "SyntheticDicom.h"

#include "lucent/core/ParallelFor.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/VolumeFile.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace lucent;
namespace fs = std::filesystem;

namespace {

double seconds(const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void writeBenchSeries(const testing::SeriesSpec& spec, const std::string& dir) {
    if (fs::exists(dir + "/.complete")) return;
    fs::create_directories(dir);
    parallelFor(spec.slices, 0, [&](std::size_t k) {
        testing::writeSlice(spec, int(k), spec.position(int(k)), int(k) + 1,
                            dir + "/IM" + std::to_string(100000 + k) + ".dcm");
    });
    std::FILE* f = std::fopen((dir + "/.complete").c_str(), "w");
    if (f) std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
    std::string work = (fs::temp_directory_path() / "lucent-bench-dicom").string();
    int slices = 400, runs = 3;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        if (arg == "--slices" && a + 1 < argc) slices = std::atoi(argv[++a]);
        else if (arg == "--runs" && a + 1 < argc) runs = std::atoi(argv[++a]);
        else work = arg;
    }
    const bool haveDcm2niix = std::system("dcm2niix -v >/dev/null 2>&1") == 0 ||
                              std::system("command -v dcm2niix >/dev/null 2>&1") == 0;
    std::printf("DICOM load benchmark: 512 x 512 x %d int16 (12 bits stored, CT rescale), median of %d runs, %u hardware threads\n",
                slices, runs, defaultThreadCount());
    std::printf("%-14s %-22s %10s %12s\n", "encoding", "loader", "seconds", "slices/s");
    for (const bool jpegls : {false, true}) {
        testing::SeriesSpec spec;
        spec.columns = spec.rows = 512;
        spec.slices = slices;
        spec.bitsStored = 12;
        spec.isSigned = false;
        spec.intercept = -1024;
        spec.encoding = jpegls ? testing::Encoding::JpegLs : testing::Encoding::ExplicitLittle;
        const std::string dir = work + (jpegls ? "/jpegls" : "/uncompressed") + "-" + std::to_string(slices);
        writeBenchSeries(spec, dir);
        const char* name = jpegls ? "JPEG-LS" : "uncompressed";
        auto report = [&](const char* loader, const std::vector<double>& t) {
            std::printf("%-14s %-22s %10.3f %12.1f\n", name, loader, median(t), slices / median(t));
            std::fflush(stdout);
        };
        for (unsigned threads : {0u, 1u}) {
            io::DicomOptions options;
            options.threads = threads;
            io::ImageSource::load(dir, "", options);  // warm the page cache
            std::vector<double> t;
            for (int r = 0; r < runs; ++r)
                t.push_back(seconds([&] {
                    const Volume v = io::ImageSource::load(dir, "", options);
                    if (v.geometry().dims[2] != slices) std::abort();
                }));
            report(threads == 0 ? "lucent (all threads)" : "lucent (1 thread)", t);
        }
        {
            // Like for like with dcm2niix, which always writes its output: load and write .nii.
            const std::string out = work + "/lucent-out.nii";
            std::vector<double> t;
            for (int r = 0; r < runs; ++r)
                t.push_back(seconds([&] { io::writeVolumeFile(io::ImageSource::load(dir, ""), out); }));
            report("lucent (+ write .nii)", t);
            fs::remove(out);
        }
        if (haveDcm2niix) {
            const std::string out = work + "/d2n";
            fs::create_directories(out);
            const std::string cmd = "dcm2niix -z n -b n -f bench -o '" + out + "' '" + dir + "' >/dev/null 2>&1";
            std::vector<double> t;
            for (int r = 0; r < runs; ++r) t.push_back(seconds([&] { std::system(cmd.c_str()); }));
            if (fs::exists(out + "/bench.nii"))
                report("dcm2niix (to .nii)", t);
            else  // Debian's dcm2niix is built without JPEG-LS: it refuses these files
                std::printf("%-14s %-22s %10s %12s\n", name, "dcm2niix (to .nii)", "-", "cannot decode");
            fs::remove_all(out);
        }
    }
    return 0;
}
