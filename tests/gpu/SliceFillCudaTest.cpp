/// @brief The CUDA fill between slices equals the CPU's voxel for voxel (signed distance): synthetic
/// shapes on each axis with anisotropic voxels (branching, starting between slices, two labels
/// meeting, other labels in the way) and labels drawn on the real CT head; the figures too; the
/// fallback to the CPU, cancellation and the backend rules.
#include "lucent/core/Errors.h"
#include "lucent/core/SliceFill.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/SliceFillBackend.h"
#include "lucent/io/VolumeFile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

using namespace lucent;

#define REQUIRE_DEVICE()                                                             \
    do {                                                                             \
        if (gpu::listDevices().empty()) GTEST_SKIP() << "no CUDA device or driver"; \
    } while (0)

namespace {

SliceFillOptions distanceOn(int axis, std::vector<std::uint8_t> labels = {}) {
    SliceFillOptions o;
    o.axis = axis;
    o.method = FillMethod::SignedDistance;
    o.labels = std::move(labels);
    return o;
}

/// Fills `drawn` on both backends; expects the same voxels and figures; returns the filled voxels.
std::size_t expectSame(const LabelMap& drawn, const SliceFillOptions& options, const std::string& what) {
    SCOPED_TRACE(what);
    LabelMap cpu = drawn, cuda = drawn;
    const gpu::SliceFillRun a = gpu::fillBetweenSlices(cpu, options, Backend::Cpu);
    const gpu::SliceFillRun b = gpu::fillBetweenSlices(cuda, options, Backend::Cuda);
    EXPECT_EQ(a.backend, "cpu");
    EXPECT_EQ(b.backend, "cuda");
    std::size_t differ = 0, added = 0;
    for (std::size_t n = 0; n < cpu.voxelCount(); ++n) {
        differ += cpu[n] != cuda[n];
        added += cpu[n] != drawn[n];
    }
    EXPECT_EQ(differ, 0u) << "of " << cpu.voxelCount() << " voxels";
    EXPECT_EQ(a.report.axis, b.report.axis);
    EXPECT_EQ(a.report.labels.size(), b.report.labels.size());
    for (std::size_t n = 0; n < std::min(a.report.labels.size(), b.report.labels.size()); ++n) {
        EXPECT_EQ(a.report.labels[n].label, b.report.labels[n].label);
        EXPECT_EQ(a.report.labels[n].labelledSlices, b.report.labels[n].labelledSlices);
        EXPECT_EQ(a.report.labels[n].filledSlices, b.report.labels[n].filledSlices);
        EXPECT_EQ(a.report.labels[n].voxelsAdded, b.report.labels[n].voxelsAdded);
    }
    return added;
}

/// Two labels on a 71 x 64 x 58 grid of 0.7 x 1.1 x 1.6 mm voxels: a wobbling ellipsoid (1), a tube
/// that splits in two (2) touching it, a blob that exists only between labelled slices of k (1), and a
/// wall of label 3 across the ellipsoid that the fill must not overwrite. Kept on every 5th slice of
/// `axis` for labels 1 and 2 (label 3 whole).
LabelMap synthetic(int axis) {
    Geometry g;
    g.dims = {71, 64, 58};
    g.spacing = {0.7, 1.1, 1.6};
    LabelMap m(g);
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                const double x = (i - 30) / 22.0, y = (j - 30) / 18.0, z = (k - 28) / 22.0;
                const double wobble = 1 + 0.15 * std::sin(3 * std::atan2(y, x) + 5 * z);
                std::uint8_t v = x * x + y * y + z * z <= wobble * wobble ? 1 : 0;
                const double split = k > 30 ? (k - 30) * 0.5 : 0;
                for (double cy : {32 - split, 32 + split})
                    if (std::hypot(i - 58.0, j - cy) < 4.5 && k > 4 && k < 54 && v == 0) v = 2;
                if (std::hypot(i - 12.0, j - 52.0, (k - 21.0) * 1.5) < 5) v = 1;
                if (i == 40 && j > 20 && j < 44) v = 3;
                const int s = axis == 0 ? i : axis == 1 ? j : k;
                if ((v == 1 || v == 2) && s % 5 != 2) v = 0;
                m.at(i, j, k) = v;
            }
    return m;
}

}  // namespace

TEST(CudaSliceFill, SyntheticShapesOnEachAxisEqualTheCpu) {
    REQUIRE_DEVICE();
    for (int axis = 0; axis < 3; ++axis) {
        const LabelMap drawn = synthetic(axis);
        EXPECT_GT(expectSame(drawn, distanceOn(axis), "axis " + std::string(axisName(axis))), 1000u);
        expectSame(drawn, distanceOn(axis, {2}), "label 2 alone on axis " + std::string(axisName(axis)));
    }
    expectSame(synthetic(2), distanceOn(-1), "the sparse axis");
}

TEST(CudaSliceFill, LabelsDrawnOnTheRealCtEqualTheCpu) {
    REQUIRE_DEVICE();
    const char* data = std::getenv("LUCENT_DATA");
    const std::string path = std::string(data ? data : "") + "/cranium/cranium.mhd";
    if (!data || !std::filesystem::exists(path)) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh";
    const Volume ct = io::readVolumeFile(path);
    const Geometry& g = ct.geometry();
    for (int axis : {2, 1}) {
        // Bone (1) and soft tissue (2) by their HU, as a threshold brush would draw them, on every
        // 7th slice of the axis: ragged shapes with holes, many regions, ones that end between slices.
        LabelMap drawn(g);
        for (int k = 0; k < g.dims[2]; ++k)
            for (int j = 0; j < g.dims[1]; ++j)
                for (int i = 0; i < g.dims[0]; ++i) {
                    const int s = axis == 0 ? i : axis == 1 ? j : k;
                    if (s % 7 != 3) continue;
                    const double hu = ct.value(i, j, k);
                    drawn.at(i, j, k) = hu > 300 ? 1 : hu > 0 && hu < 80 ? 2 : 0;
                }
        EXPECT_GT(expectSame(drawn, distanceOn(axis), "CT head, axis " + std::string(axisName(axis))), 10000u);
    }
}

TEST(CudaSliceFill, WithTooLittleMemoryAutoFillsOnTheCpuAndSaysSo) {
    REQUIRE_DEVICE();
    const LabelMap drawn = synthetic(2);
    LabelMap cpu = drawn, fallback = drawn;
    gpu::fillBetweenSlices(cpu, distanceOn(2), Backend::Cpu);
    setenv("LUCENT_GPU_MEMORY_LIMIT_MB", "0.01", 1);
    const gpu::SliceFillRun run = gpu::fillBetweenSlices(fallback, distanceOn(2), Backend::Auto);
    LabelMap strict = drawn;
    EXPECT_THROW(gpu::fillBetweenSlices(strict, distanceOn(2), Backend::Cuda), GpuError);
    unsetenv("LUCENT_GPU_MEMORY_LIMIT_MB");
    EXPECT_EQ(run.backend, "cpu");
    EXPECT_NE(run.notice.find("GPU out of memory"), std::string::npos) << run.notice;
    EXPECT_TRUE(std::equal(cpu.data(), cpu.data() + cpu.voxelCount(), fallback.data()));
    EXPECT_TRUE(std::equal(drawn.data(), drawn.data() + drawn.voxelCount(), strict.data())) << "nothing half-filled";
}

TEST(CudaSliceFill, ACancelLeavesTheMapAsItWasAndProgressCountsGaps) {
    REQUIRE_DEVICE();
    const LabelMap drawn = synthetic(2);
    LabelMap m = drawn;
    std::size_t lastDone = 0, lastTotal = 0;
    EXPECT_THROW(gpu::fillBetweenSlices(m, distanceOn(2), Backend::Cuda,
                                        [&](std::size_t done, std::size_t total) {
                                            lastDone = done, lastTotal = total;
                                            return false;
                                        }),
                 Cancelled);
    EXPECT_EQ(lastDone, 1u);
    EXPECT_TRUE(std::equal(drawn.data(), drawn.data() + drawn.voxelCount(), m.data()));
    std::size_t calls = 0;
    gpu::fillBetweenSlices(m, distanceOn(2), Backend::Cuda, [&](std::size_t done, std::size_t total) {
        ++calls;
        lastDone = done, lastTotal = total;
        return true;
    });
    EXPECT_EQ(lastDone, lastTotal);
    EXPECT_EQ(calls, planSliceFill(drawn, distanceOn(2)).gaps);
}

TEST(CudaSliceFill, BackendRules) {
    LabelMap m = synthetic(2);
    SliceFillOptions morphological = distanceOn(2);
    morphological.method = FillMethod::Morphological;
    EXPECT_FALSE(gpu::hasCudaSliceFill(FillMethod::Morphological));
    EXPECT_EQ(gpu::hasCudaSliceFill(FillMethod::SignedDistance), gpu::cudaCompiledIn());
    // The morphological method has no CUDA version: cuda says so, auto fills on the CPU.
    EXPECT_THROW(gpu::fillBetweenSlices(m, morphological, Backend::Cuda), std::invalid_argument);
    EXPECT_EQ(gpu::fillBetweenSlices(m, morphological, Backend::Auto).backend, "cpu");
    if (gpu::listDevices().empty()) {
        LabelMap n = synthetic(2);
        EXPECT_THROW(gpu::fillBetweenSlices(n, distanceOn(2), Backend::Cuda), std::invalid_argument);
        EXPECT_EQ(gpu::fillBetweenSlices(n, distanceOn(2), Backend::Auto).backend, "cpu");
    }
}
