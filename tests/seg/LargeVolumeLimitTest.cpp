/// @brief Volumes of 2^32 voxels and more: 64-bit index arithmetic, and the CPU engines that hold 32-bit
/// indices refuse in one line naming the limit before allocating anything (counted as resident memory and page faults).
#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/core/seg/RegionGrowingCpu.h"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>

using namespace lucent;

namespace {

/// Address space in use now (/proc/self/statm's first field).
std::uint64_t addressSpaceBytes() {
    std::ifstream in("/proc/self/statm");
    std::uint64_t pages = 0;
    in >> pages;
    return pages * std::uint64_t(::sysconf(_SC_PAGESIZE));
}

/// Caps the address space at what is in use plus `margin` while it lives: an engine that allocated
/// state for the volume fails with bad_alloc instead of taking gigabytes of a shared machine.
class AddressSpaceCap {
public:
    explicit AddressSpaceCap(std::uint64_t margin) {
        ::getrlimit(RLIMIT_AS, &m_old);
        rlimit capped = m_old;
        capped.rlim_cur = rlim_t(addressSpaceBytes() + margin);
        ::setrlimit(RLIMIT_AS, &capped);
    }
    ~AddressSpaceCap() { ::setrlimit(RLIMIT_AS, &m_old); }

private:
    rlimit m_old{};
};

double peakRssMiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

/// Page faults so far: reading an untouched volume maps a page per 4 KiB even where it adds no RSS.
std::uint64_t pageFaults() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return std::uint64_t(u.ru_minflt) + std::uint64_t(u.ru_majflt);
}

/// 2048 x 2048 x 1025 (2^32 + 2^22 voxels): the first size past 32-bit indices at 2048^2 slices.
Geometry overFourG() {
    Geometry g;
    g.dims = {2048, 2048, 1025};
    return g;
}

}  // namespace

TEST(LargeVolume, IndicesPastTwoToTheThirtyTwoAreExact) {
    const Geometry g = overFourG();
    // Computed here in 64 bits from the definition (x fastest), not by Geometry.
    const std::uint64_t last = (std::uint64_t(1024) * 2048 + 2047) * 2048 + 2047;
    EXPECT_EQ(g.voxelCount(), std::uint64_t(2048) * 2048 * 1025);
    EXPECT_GT(g.voxelCount(), std::uint64_t(1) << 32);
    EXPECT_EQ(g.index(2047, 2047, 1024), last);
    EXPECT_EQ(g.index(0, 0, 1024), std::uint64_t(1) << 32);
    EXPECT_EQ(g.sliceSize() * 1025, g.voxelCount());
}

// An 8 GiB int16 volume whose pages are never touched (calloc): each engine must refuse it by its
// size alone. Reading its values (range, estimate) or allocating state would show in the RSS.
TEST(LargeVolume, CpuEnginesWith32BitIndicesRefuseBeforeAllocating) {
    std::unique_ptr<Volume> v;
    try {
        v = std::make_unique<Volume>(overFourG(), PixelType::Int16);
    } catch (const std::bad_alloc&) {
        GTEST_SKIP() << "this machine does not lend 8 GiB of untouched address space (overcommit off)";
    }
    const double before = peakRssMiB();
    const std::uint64_t faultsBefore = pageFaults();
    const AddressSpaceCap cap(std::uint64_t(256) << 20);
    SegmentationRequest r;
    r.volume = v.get();
    r.seeds = {{1024, 1024, 512}};
    r.regionGrowing.lower = -1;
    r.regionGrowing.upper = 1;
    for (const bool fc : {false, true}) {
        std::unique_ptr<Segmenter> engine;
        if (fc)
            engine = std::make_unique<FuzzyConnectednessCpu>();
        else
            engine = std::make_unique<RegionGrowingCpu>();
        try {
            engine->start(r);
            ADD_FAILURE() << engine->backend() << " " << methodName(engine->method()) << " accepted 2^32 + 2^22 voxels";
        } catch (const std::bad_alloc&) {
            ADD_FAILURE() << methodName(engine->method()) << " allocated state for the volume before refusing it";
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("4299161600 voxels"), std::string::npos) << what;
            EXPECT_NE(what.find("limit of 2^32"), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    }
    EXPECT_LT(peakRssMiB() - before, 64.0) << "an engine allocated state before refusing";
    // 8 GiB read would be two million faults; refusing by size takes a few.
    EXPECT_LT(pageFaults() - faultsBefore, 16384u) << "an engine read the volume before refusing it";
}
