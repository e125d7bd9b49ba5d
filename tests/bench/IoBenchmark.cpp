/// @brief Volume file reading: writes int16 volumes of the given sizes in every format, then reads each
/// in a child process (its own peak RSS) and prints GB/s and peak RSS; with --lucent, the CLI's `info`,
/// `convert` and `segment` on the same files (peak RSS against volume + mask).
/// usage: lucent_bench_io DIR [--sizes 0.5,2] [--formats nii,mhd,nrrd,nii.gz,nrrd.gz] [--runs 3]
///        [--lucent build/bin/lucent]
/// DIR/files.tsv lists the files for the peer: python3 tests/bench/io_peers.py DIR (numpy.fromfile, gzip).
#include "lucent/core/ParallelFor.h"
#include "lucent/io/NrrdFormat.h"
#include "lucent/io/VolumeFile.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace lucent;

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string p; std::getline(in, p, ',');) out.push_back(p);
    return out;
}

/// 1024 x 1024 x nz int16 (nz from the size): a ball of 300 in a background of 100, both with a
/// cheap pseudo-random texture of +-15 (incompressible enough that gzip has work to do).
Volume phantom(double gigabytes) {
    Geometry g;
    const int nz = std::max(1, int(std::lround(gigabytes * double(1u << 30) / (1024.0 * 1024 * 2))));
    g.dims = {1024, 1024, nz};
    Volume v(g, PixelType::Int16);
    const double c[3] = {512, 512, nz / 2.0}, r = std::min(300.0, nz / 2.5);
    parallelFor(std::size_t(nz), 0, [&](std::size_t k) {
        std::uint32_t h = std::uint32_t(k) * 2654435761u + 1;
        for (int j = 0; j < 1024; ++j)
            for (int i = 0; i < 1024; ++i) {
                h ^= h << 13;
                h ^= h >> 17;
                h ^= h << 5;
                const double d2 = (i - c[0]) * (i - c[0]) + (j - c[1]) * (j - c[1]) + (k - c[2]) * (k - c[2]);
                v.int16Data()[g.index(i, j, int(k))] = std::int16_t((d2 <= r * r ? 300 : 100) + int(h % 31) - 15);
            }
    });
    return v;
}

struct ChildRun {
    double ms = -1;       ///< wall time the child measured (or the whole child for a command)
    double peakMiB = 0;   ///< its peak RSS
    int status = 0;
};

/// Runs `body` in a child process; it returns milliseconds, sent back through a pipe.
template <typename Body>
ChildRun inChild(Body&& body) {
    int fds[2];
    if (::pipe(fds) != 0) return {};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        double ms = -1;
        try {
            ms = body();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "  failed: %s\n", e.what());
        }
        (void)!::write(fds[1], &ms, sizeof ms);
        ::_exit(ms < 0 ? 1 : 0);
    }
    ::close(fds[1]);
    ChildRun run;
    (void)!::read(fds[0], &run.ms, sizeof run.ms);
    ::close(fds[0]);
    rusage usage{};
    ::wait4(pid, &run.status, 0, &usage);
    run.peakMiB = double(usage.ru_maxrss) / 1024.0;
    return run;
}

/// Runs a command (argv) as a child; its wall time and peak RSS.
ChildRun command(const std::vector<std::string>& argv) {
    const auto t0 = Clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        if (!std::freopen("/dev/null", "w", stdout)) ::_exit(127);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    ChildRun run;
    rusage usage{};
    ::wait4(pid, &run.status, 0, &usage);
    run.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    run.peakMiB = double(usage.ru_maxrss) / 1024.0;
    return run;
}

std::string write(const Volume& v, const std::string& dir, const std::string& format, std::ofstream& manifest) {
    const auto& d = v.geometry().dims;
    // A gzip NRRD is still a .nrrd (its header says gzip).
    const std::string path =
        dir + "/v" + std::to_string(d[2]) + (format == "nrrd.gz" ? std::string("-gz.nrrd") : "." + format);
    if (format == "nrrd.gz")
        io::NrrdFormat::write(io::fromVolume(v), path, true);
    else
        io::writeVolumeFile(v, path);
    // Where the voxels start, for the peer (a .mhd's are its .raw from 0; a NRRD's follow its header).
    std::string data = path;
    std::uint64_t offset = 0;
    if (format == "mhd") data = std::filesystem::path(path).replace_extension(".raw").string();
    if (format == "nii") offset = 352;
    if (format.starts_with("nrrd")) {
        std::ifstream in(path, std::ios::binary);
        std::string head(4096, '\0');
        in.read(head.data(), std::streamsize(head.size()));
        offset = head.find("\n\n") + 2;
    }
    manifest << format << '\t' << data << '\t' << offset << '\t' << d[0] << ' ' << d[1] << ' ' << d[2] << '\n';
    return path;
}

}  // namespace

int main(int argc, char** argv) {
    // DIR first: an option in its place (--help) would have become a folder of gigabytes of volumes.
    if (argc < 2 || std::string(argv[1]).starts_with("-")) {
        std::fprintf(stderr, "usage: lucent_bench_io DIR [--sizes 0.5,2] [--formats ...] [--runs 3] [--lucent PATH]\n");
        return 2;
    }
    const std::string dir = argv[1];
    std::string sizes = "0.5,2", formats = "nii,mhd,nrrd,nii.gz,nrrd.gz", lucent;
    int runs = 3;
    for (int a = 2; a < argc; ++a) {
        const std::string k = argv[a];
        if (a + 1 < argc && k == "--sizes") sizes = argv[++a];
        else if (a + 1 < argc && k == "--formats") formats = argv[++a];
        else if (a + 1 < argc && k == "--runs") runs = std::atoi(argv[++a]);
        else if (a + 1 < argc && k == "--lucent") lucent = argv[++a];
    }
    std::filesystem::create_directories(dir);
    std::ofstream manifest(dir + "/files.tsv");
    std::printf("threads %u\n%-8s %-22s %9s %9s %10s %10s\n", defaultThreadCount(), "format", "volume", "GB",
                "read GB/s", "best ms", "peak MiB");
    for (const std::string& size : split(sizes)) {
        std::vector<std::pair<std::string, std::string>> files;
        std::size_t volumeBytes = 0;
        std::array<int, 3> dims{};
        {
            const Volume v = phantom(std::atof(size.c_str()));
            volumeBytes = v.byteSize();
            dims = v.geometry().dims;
            for (const std::string& f : split(formats)) files.emplace_back(f, write(v, dir, f, manifest));
        }
        manifest.flush();
        const std::string shape = std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]);
        for (const auto& [format, path] : files) {
            inChild([&] { return double(io::readVolumeFile(path).voxelCount() > 0); });  // into the page cache
            double best = 1e300, peak = 0;
            for (int r = 0; r < runs; ++r) {
                const ChildRun run = inChild([&] {
                    const auto t0 = Clock::now();
                    const Volume v = io::readVolumeFile(path);
                    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
                });
                if (run.ms >= 0) best = std::min(best, run.ms);
                peak = std::max(peak, run.peakMiB);
            }
            std::printf("%-8s %-22s %9.2f %9.2f %10.0f %10.0f\n", format.c_str(), shape.c_str(),
                        double(volumeBytes) / 1e9, double(volumeBytes) / 1e6 / best, best, peak);
            std::fflush(stdout);
        }
        if (!lucent.empty()) {
            const double volMiB = double(volumeBytes) / (1 << 20), maskMiB = volMiB / 2;
            const std::string& src = files.front().second;
            const std::string seed = "512,512," + std::to_string(dims[2] / 2);
            const std::vector<std::pair<std::string, std::vector<std::string>>> commands = {
                {"info", {lucent, "info", src}},
                {"convert", {lucent, "convert", src, "-o", dir + "/out.nii"}},
                {"segment srg", {lucent, "segment", src, "--method", "srg", "--seed", seed, "--lower", "200", "--upper",
                                 "400", "--backend", "cpu", "-o", dir + "/mask.nii"}},
            };
            for (const auto& [name, argv2] : commands) {
                const ChildRun run = command(argv2);
                const double base = name == "segment srg" ? volMiB + maskMiB : volMiB;
                std::printf("  lucent %-12s %s: exit %d, %.0f ms, peak %.0f MiB = %.2f x %s\n", name.c_str(),
                            files.front().first.c_str(), WEXITSTATUS(run.status), run.ms, run.peakMiB,
                            run.peakMiB / base, name == "segment srg" ? "(volume + mask)" : "the volume");
                std::fflush(stdout);
            }
            std::filesystem::remove(dir + "/out.nii");
            std::filesystem::remove(dir + "/mask.nii");
        }
    }
    std::printf("files kept in %s for the peer (io_peers.py); remove them when done\n", dir.c_str());
    return 0;
}
