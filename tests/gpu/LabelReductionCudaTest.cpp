/// @brief The 3D pane's coarse label copy made on the device equals the host's, cell for cell
/// (edge blocks, mixed labels, ties), so a CUDA run's 3D view shows what a CPU run's would.
#include "lucent/core/LabelReduction.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/GpuContext.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace lucent;

TEST(CudaLabelReduction, EqualsTheHostCellForCell) {
    if (gpu::listDevices().empty()) GTEST_SKIP() << "no CUDA device";
    Geometry g;
    g.dims = {203, 97, 61};  // no axis a multiple of the factors below: edge blocks everywhere
    Volume v(g, PixelType::Int16);
    LabelMap labels(g);
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                const double d = std::hypot(i - 90.0, j - 50.0, 1.7 * (k - 30.0));
                // Two labels sharing a ragged border, and scattered voxels that make ties.
                std::uint8_t l = d < 40 ? (i + j % 3 < 90 ? 1 : 3) : 0;
                if ((i * 31 + j * 17 + k * 7) % 11 == 0) l = std::uint8_t((i + k) % 4);
                labels.at(i, j, k) = l;
            }
    gpu::GpuContext context(v);
    context.uploadLabels(labels);
    for (std::size_t budget : {std::size_t(1) << 24, std::size_t(100000), std::size_t(20000), std::size_t(900)}) {
        const LabelReduction plan = planLabelReduction(g.dims, budget);
        SCOPED_TRACE(plan.factor);
        LabelMap host, device;
        reduceLabels(labels, plan, host);
        context.downloadReducedLabels(plan, device);
        ASSERT_EQ(device.voxelCount(), host.voxelCount());
        EXPECT_TRUE(device.geometry().sameGrid(host.geometry()));
        std::size_t differ = 0, labelled = 0;
        for (std::size_t i = 0; i < host.voxelCount(); ++i) {
            differ += host[i] != device[i];
            labelled += host[i] != 0;
        }
        EXPECT_EQ(differ, 0u);
        EXPECT_GT(labelled, host.voxelCount() / 20) << "the case has labelled cells";
    }
}
