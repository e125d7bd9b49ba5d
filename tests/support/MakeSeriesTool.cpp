/// @brief lucent_make_series: writes synthetic DICOM series for the CLI tests and the load benchmark.
/// usage: lucent_make_series OUT_DIR [--size X Y Z] [--jpegls] [--oblique] [--gap K] [--localiser] [--time-frames N]
#include "SyntheticDicom.h"

#include "lucent/core/ParallelFor.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

using namespace lucent::testing;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: lucent_make_series OUT_DIR [--size X Y Z] [--jpegls] [--oblique] [--gap K] [--localiser] "
                     "[--time-frames N]\n";
        return 2;
    }
    const std::string out = argv[1];
    SeriesSpec spec;
    int gap = -1;
    bool localiser = false;
    int timeFrames = 0;
    for (int a = 2; a < argc; ++a) {
        const std::string arg = argv[a];
        if (arg == "--size" && a + 3 < argc) {
            spec.columns = std::atoi(argv[++a]);
            spec.rows = std::atoi(argv[++a]);
            spec.slices = std::atoi(argv[++a]);
        } else if (arg == "--jpegls") {
            spec.encoding = Encoding::JpegLs;
        } else if (arg == "--oblique") {
            spec.rowCosine = {std::cos(0.3), std::sin(0.3), 0};
            spec.columnCosine = {-std::sin(0.3) * std::cos(0.2), std::cos(0.3) * std::cos(0.2), std::sin(0.2)};
        } else if (arg == "--gap" && a + 1 < argc) {
            gap = std::atoi(argv[++a]);
        } else if (arg == "--localiser") {
            localiser = true;
        } else if (arg == "--time-frames" && a + 1 < argc) {
            timeFrames = std::atoi(argv[++a]);
        } else {
            std::cerr << "unknown argument " << arg << "\n";
            return 2;
        }
    }
    spec.isSigned = true;
    spec.bitsStored = 12;
    spec.intercept = -1024;
    spec.isSigned = false;
    std::filesystem::create_directories(out);
    if (timeFrames > 0) {
        // A multi-temporal series (TemporalPositionIdentifier): signed 16 bits hold every frame's
        // values (time frame f stores storedValue + temporalOffset(f)).
        spec.bitsStored = 16;
        spec.isSigned = true;
        writeTemporalSeries(spec, timeFrames, TemporalTags::PositionIdentifier, out);
        std::cout << out << "\n";
        return 0;
    }
    // One file per slice, written in parallel: the benchmark series has 400.
    lucent::parallelFor(spec.slices, 0, [&](std::size_t k) {
        if (int(k) == gap) return;
        char name[32];
        std::snprintf(name, sizeof name, "/IM%05zu.dcm", (k * 7919) % 100000);
        writeSlice(spec, int(k), spec.position(int(k)), int(spec.slices - k), out + name);
    });
    if (localiser) {
        SeriesSpec loc = spec;
        loc.rowCosine = {0, 1, 0};
        loc.columnCosine = {0, 0, -1};
        writeSlice(loc, 0, loc.position(0), 1000, out + "/localiser.dcm");
    }
    std::cout << out << "\n";
    return 0;
}
