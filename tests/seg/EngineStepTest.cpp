/// @brief What the live viewer needs of every region engine, on every backend present (CPU always,
/// CUDA where a device is): steps that only grow, inside the box each step reports; labels written
/// for a box only; incremental updates (fc threshold, wider srg interval) equal to fresh runs.
#include "SyntheticVolumes.h"

#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/gpu/SegmenterFactory.h"

#include <gtest/gtest.h>

using namespace lucent;
using lucent::testing::shapeVolume;

namespace {

std::vector<gpu::Backend> backends() {
    std::vector<gpu::Backend> out{gpu::Backend::Cpu};
    if (!gpu::listDevices().empty() && gpu::hasCudaEngine(Method::RegionGrowing)) out.push_back(gpu::Backend::Cuda);
    return out;
}

/// Two blobs joined by a thin winding tube, so growth takes many steps.
Volume tubeVolume() {
    return shapeVolume({60, 50, 30},
                       [](int i, int j, int k) {
                           const bool a = (i - 12) * (i - 12) + (j - 12) * (j - 12) + (k - 15) * (k - 15) <= 64;
                           const bool b = (i - 47) * (i - 47) + (j - 37) * (j - 37) + (k - 15) * (k - 15) <= 64;
                           const bool tube = k == 15 && ((j == 12 && i >= 12 && i <= 30) || (i == 30 && j >= 12 && j <= 37) ||
                                                         (j == 37 && i >= 30 && i <= 47));
                           return a || b || tube;
                       },
                       200, 0, 10);
}

SegmentationRequest request(const Volume& v, Method m) {
    SegmentationRequest r;
    r.volume = &v;
    r.seeds = {{12, 12, 15}};
    r.regionGrowing = {150, 250, 6};
    r.fuzzyConnectedness.threshold = 0.4;
    (void)m;
    return r;
}

}  // namespace

TEST(EngineSteps, GrowMonotonicallyInsideTheReportedBoxes) {
    const Volume tube = tubeVolume();
    // For fc a volume of connected voxels well over the CPU engine's 65536 settled voxels a step.
    const Volume block = shapeVolume({80, 70, 40}, [](int i, int, int) { return i < 70; }, 200, 0, 10);
    for (gpu::Backend backend : backends())
        for (Method method : {Method::RegionGrowing, Method::FuzzyConnectedness}) {
            const Volume& v = method == Method::RegionGrowing ? tube : block;
            const Geometry& g = v.geometry();
            auto engine = gpu::createSegmenter(method, backend);
            engine->start(request(v, method));
            LabelMap before, after;
            engine->result(before);
            int steps = 0;
            for (StepReport rep; !rep.finished && steps < 100000; ++steps) {
                rep = engine->step(1);
                engine->result(after);
                for (std::size_t i = 0; i < after.voxelCount(); ++i) {
                    if (after[i] == before[i]) continue;
                    ASSERT_GT(after[i], before[i]) << engine->backend() << " " << methodName(method);
                    ASSERT_TRUE(rep.changed) << engine->backend() << " " << methodName(method) << ": change without a box";
                    ASSERT_TRUE(rep.changed->contains(int(i % g.dims[0]), int(i / g.dims[0] % g.dims[1]), int(i / g.sliceSize())))
                        << engine->backend() << " " << methodName(method) << ": change outside the box";
                }
                before = after;
            }
            EXPECT_GT(steps, 2)
                << engine->backend() << " " << methodName(method) << ": growth is observable";
            EXPECT_GT(after.count(1), 1000u);
        }
}

TEST(EngineSteps, FuzzyCMeansReportsTheVoxelsItsIterationsRelabel) {
    // A ramp of values: the cluster borders move while the centres settle, so iterations relabel.
    const Volume ramp = shapeVolume({64, 8, 8}, [](int, int, int) { return false; }, 0, 0, 0);
    Volume v = ramp;
    const Geometry& g = v.geometry();
    for (std::size_t i = 0; i < v.voxelCount(); ++i) v.setValue(i, double(i % std::size_t(g.dims[0])) * (i % 7 == 0 ? 30 : 10));
    const bool cuda = !gpu::listDevices().empty() && gpu::hasCudaEngine(Method::FuzzyCMeans);
    for (gpu::Backend backend : cuda ? std::vector{gpu::Backend::Cpu, gpu::Backend::Cuda} : std::vector{gpu::Backend::Cpu}) {
        SegmentationRequest r;
        r.volume = &v;
        r.fuzzyCMeans.clusters = 3;
        r.fuzzyCMeans.epsilon = 1e-6;
        auto engine = gpu::createSegmenter(Method::FuzzyCMeans, backend);
        engine->start(r);
        LabelMap before(g), after(g);
        engine->writeLabels(LabelSink::host(before), nullptr);
        int relabelled = 0;
        for (StepReport rep; !rep.finished;) {
            rep = engine->step(1);
            engine->writeLabels(LabelSink::host(after), nullptr);
            for (std::size_t i = 0; i < after.voxelCount(); ++i) {
                if (after[i] == before[i]) continue;
                ++relabelled;
                ASSERT_TRUE(rep.changed) << engine->backend() << ": iteration " << rep.iterations << " relabelled without a box";
                ASSERT_TRUE(rep.changed->contains(int(i % g.dims[0]), int(i / g.dims[0] % g.dims[1]), int(i / g.sliceSize())));
            }
            before = after;
        }
        EXPECT_GT(relabelled, 0) << engine->backend() << ": the case must relabel something to show anything";
    }
}

TEST(EngineSteps, BoxOnlyWritesLeaveTheRestAlone) {
    const Volume v = tubeVolume();
    for (gpu::Backend backend : backends()) {
        auto engine = gpu::createSegmenter(Method::RegionGrowing, backend);
        engine->start(request(v, Method::RegionGrowing));
        engine->run();
        LabelMap full, part(v.geometry());
        engine->result(full);
        std::fill(part.data(), part.data() + part.voxelCount(), std::uint8_t(7));
        const VoxelBox box{{8, 5, 10}, {33, 20, 18}};
        engine->writeLabels(LabelSink::host(part), &box);
        const Geometry& g = v.geometry();
        for (int k = 0; k < g.dims[2]; ++k)
            for (int j = 0; j < g.dims[1]; ++j)
                for (int i = 0; i < g.dims[0]; ++i) {
                    // Label kernels write whole groups of 4 along x: the box widens to a multiple of 4.
                    const bool inBox = box.contains(i, j, k);
                    const bool widened = j >= box.lo[1] && j <= box.hi[1] && k >= box.lo[2] && k <= box.hi[2] &&
                                         i >= (box.lo[0] & ~3) && i <= box.hi[0] + 3;
                    const std::uint8_t got = part.at(i, j, k);
                    if (inBox) ASSERT_EQ(got, full.at(i, j, k)) << engine->backend();
                    else if (!widened) ASSERT_EQ(got, 7) << engine->backend() << " wrote outside the box at " << i << "," << j << "," << k;
                    else ASSERT_TRUE(got == 7 || got == full.at(i, j, k)) << engine->backend();
                }
    }
}

TEST(EngineSteps, UpdatesEqualFreshRuns) {
    const Volume v = tubeVolume();
    for (gpu::Backend backend : backends()) {
        auto fc = gpu::createSegmenter(Method::FuzzyConnectedness, backend);
        SegmentationRequest r = request(v, Method::FuzzyConnectedness);
        fc->start(r);
        fc->run();
        for (double t : {0.2, 0.7, 0.95}) {
            r.fuzzyConnectedness.threshold = t;
            ASSERT_EQ(fc->update(r), UpdateOutcome::Relabelled);
            LabelMap relabelled, fresh;
            fc->result(relabelled);
            auto other = gpu::createSegmenter(Method::FuzzyConnectedness, gpu::Backend::Cpu);
            other->start(r);
            other->run();
            other->result(fresh);
            EXPECT_EQ(lucent::testing::dice(relabelled, fresh), 1.0) << fc->backend() << " threshold " << t;
            EXPECT_EQ(relabelled.count(1), fresh.count(1));
        }
        r.seeds.push_back({47, 37, 15});
        EXPECT_EQ(fc->update(r), UpdateOutcome::Restarted) << "new seeds change the estimated affinity";

        auto srg = gpu::createSegmenter(Method::RegionGrowing, backend);
        SegmentationRequest s = request(v, Method::RegionGrowing);
        const double seedValue = v.value(12, 12, 15);
        s.regionGrowing = {seedValue - 1, seedValue + 1, 6};  // too narrow for the noisy blob: a few voxels
        srg->start(s);
        srg->run();
        LabelMap narrow;
        srg->result(narrow);
        s.regionGrowing = {150, 250, 6};
        ASSERT_EQ(srg->update(s), UpdateOutcome::Continued);
        srg->run();
        LabelMap grown, fresh;
        srg->result(grown);
        auto other = gpu::createSegmenter(Method::RegionGrowing, gpu::Backend::Cpu);
        other->start(s);
        other->run();
        other->result(fresh);
        EXPECT_LT(narrow.count(1), grown.count(1));
        EXPECT_EQ(lucent::testing::dice(grown, fresh), 1.0) << srg->backend();
        EXPECT_EQ(grown.count(1), fresh.count(1));
    }
}
