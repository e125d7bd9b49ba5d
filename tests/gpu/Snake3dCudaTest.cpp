/// @brief The CUDA 3D snake against the CPU engine on the same requests: the same labels, changed
/// boxes, iteration counts and means after every step (steps of 1 and of 7 iterations), on noisy
/// volumes of odd sizes (partial words, rows of one to four words), box and bubble starts, smoothing
/// 0..3, with and without a clip of the values, an ROI and a mask, runs to convergence, the real CT head
/// (with the brain window's clip across both frontal horns too); float volumes and a refused
/// allocation fall back to the CPU; the level set the viewer's scrubber copies after every step, and a
/// scrubbed box uploaded into the context's labels. Skipped without a CUDA device.
#include "lucent/core/Errors.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/io/VolumeFile.h"
#include "RealData.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>

using namespace lucent;

namespace {

bool haveDevice() { return !gpu::listDevices().empty(); }

#define REQUIRE_DEVICE() \
    if (!haveDevice()) GTEST_SKIP() << "no CUDA device"

/// Two blobs (100) on 0 with Gaussian noise of `sigma`, int16 or float.
Volume blobs(std::array<int, 3> dims, PixelType type, unsigned seed, double sigma = 35) {
    Geometry g;
    g.dims = dims;
    g.spacing = {0.9, 1.0, 1.3};
    Volume v(g, type);
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, sigma);
    const double cx = dims[0] * 0.35, cy = dims[1] * 0.5, cz = dims[2] * 0.5, r = std::min({dims[0], dims[1], dims[2]}) * 0.3;
    for (int k = 0; k < dims[2]; ++k)
        for (int j = 0; j < dims[1]; ++j)
            for (int i = 0; i < dims[0]; ++i) {
                const bool in = std::hypot(i - cx, j - cy, k - cz) < r || std::hypot(i - dims[0] * 0.75, j - cy, k - cz) < r * 0.6;
                v.setValue(g.index(i, j, k), std::round((in ? 100 : 0) + noise(rng)));
            }
    return v;
}

std::size_t differing(const LabelMap& a, const LabelMap& b) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.voxelCount(); ++i) n += a.data()[i] != b.data()[i];
    return n;
}

/// Both engines step by `stride` iterations until finished; everything a step reports must agree.
void expectSameRun(const SegmentationRequest& r, int stride) {
    auto cpu = gpu::createSegmenter(Method::Snake3d, gpu::Backend::Cpu);
    auto cuda = gpu::createSegmenter(Method::Snake3d, gpu::Backend::Cuda);
    cpu->start(r);
    cuda->start(r);
    LabelMap a, b;
    for (int guard = 0; guard < 10000 && !cpu->finished(); ++guard) {
        const StepReport x = cpu->step(stride), y = cuda->step(stride);
        ASSERT_EQ(x.iterations, y.iterations);
        ASSERT_EQ(x.finished, y.finished) << "iteration " << x.iterations;
        ASSERT_EQ(x.convergence, y.convergence) << "iteration " << x.iterations;
        ASSERT_EQ(x.changed.has_value(), y.changed.has_value()) << "iteration " << x.iterations;
        if (x.changed) {
            ASSERT_EQ(x.changed->lo, y.changed->lo) << "iteration " << x.iterations;
            ASSERT_EQ(x.changed->hi, y.changed->hi) << "iteration " << x.iterations;
        }
        cpu->result(a);
        cuda->result(b);
        ASSERT_EQ(differing(a, b), 0u) << "iteration " << x.iterations;
        // The level set the viewer's scrubber copies after every step: the same words from the device.
        std::vector<std::uint64_t> wa, wb;
        VoxelBox da, db;
        ASSERT_TRUE(cpu->copyLevelSet(wa, da));
        ASSERT_TRUE(cuda->copyLevelSet(wb, db));
        ASSERT_EQ(da.lo, db.lo);
        ASSERT_EQ(da.hi, db.hi);
        ASSERT_EQ(wa, wb) << "iteration " << x.iterations;
    }
    EXPECT_TRUE(cuda->finished());
    const MethodFigures fa = cpu->figures(), fb = cuda->figures();
    EXPECT_EQ(fa.meanInside, fb.meanInside);
    EXPECT_EQ(fa.meanOutside, fb.meanOutside);
    EXPECT_EQ(fa.converged, fb.converged);
}

}  // namespace

TEST(CudaSnake3d, EqualsTheCpuStepForStepOnOddSizesStartsAndSmoothings) {
    REQUIRE_DEVICE();
    const std::array<std::array<int, 3>, 4> sizes{{{70, 40, 30}, {130, 33, 21}, {64, 64, 64}, {201, 50, 17}}};
    for (std::size_t n = 0; n < sizes.size(); ++n) {
        const Volume v = blobs(sizes[n], PixelType::Int16, unsigned(n + 1));
        const auto& d = sizes[n];
        for (int smoothing : {0, 1, 2, 3}) {
            SegmentationRequest r;
            r.volume = &v;
            r.snake3d.smoothing = smoothing;
            r.snake3d.iterations = smoothing == 1 ? 0 : 25;  // smoothing 1: until convergence
            if (smoothing % 2 == 0) {
                r.snake3d.box = VoxelBox{{d[0] / 8, d[1] / 8, d[2] / 8}, {d[0] - 1 - d[0] / 8, d[1] - 1 - d[1] / 8, d[2] - 1 - d[2] / 8}};
            } else {
                r.seeds = {{int(d[0] * 0.35), d[1] / 2, d[2] / 2}, {int(d[0] * 0.75), d[1] / 2, d[2] / 2}};
                r.snake3d.radiiMm = {3.0, 2.0};
            }
            SCOPED_TRACE("size " + std::to_string(n) + ", smoothing " + std::to_string(smoothing));
            expectSameRun(r, 1);
            expectSameRun(r, 7);
            // The values clamped (bounds rounded to 15 and 86 on int16): the same decisions on both.
            r.snake3d.clip = ValueRange{15.4, 85.6};
            expectSameRun(r, 3);
        }
    }
}

TEST(CudaSnake3d, RoiMaskAndMarginLikeTheCpu) {
    REQUIRE_DEVICE();
    const Volume v = blobs({96, 80, 40}, PixelType::Int16, 9);
    LabelMap mask(v.geometry());
    for (std::size_t i = 0; i < mask.voxelCount(); ++i) mask.data()[i] = (i * 2654435761u >> 7) % 5 != 0;
    SegmentationRequest r;
    r.volume = &v;
    r.snake3d.box = VoxelBox{{20, 20, 10}, {70, 60, 30}};
    r.roi = VoxelBox{{10, 12, 4}, {90, 70, 36}};
    r.mask = &mask;
    expectSameRun(r, 3);
    r.roi.reset();
    r.snake3d.marginMm = 4.0;
    expectSameRun(r, 3);
    r.snake3d.clip = ValueRange{-10, 60};
    expectSameRun(r, 3);
}

TEST(CudaSnake3d, WritesTheContextLabelBufferOnTheDevice) {
    REQUIRE_DEVICE();
    const Volume v = blobs({80, 60, 40}, PixelType::Int16, 4);
    SegmentationRequest r;
    r.volume = &v;
    r.snake3d.box = VoxelBox{{10, 8, 5}, {70, 52, 35}};
    auto context = std::make_shared<gpu::GpuContext>(v);
    auto cuda = gpu::createSegmenter(Method::Snake3d, gpu::Backend::Cuda, context);
    auto cpu = gpu::createSegmenter(Method::Snake3d, gpu::Backend::Cpu);
    cuda->start(r);
    cpu->start(r);
    cuda->run(5);
    cpu->run(5);
    cuda->writeLabels(context->labelSink());
    LabelMap onDevice, reference;
    context->downloadLabels(onDevice);
    cpu->result(reference);
    EXPECT_EQ(differing(onDevice, reference), 0u);
    EXPECT_EQ(context->countLabels(), reference.voxelCount() - std::size_t(std::count(reference.data(), reference.data() + reference.voxelCount(), 0)));
}

TEST(CudaSnake3d, AScrubbedBoxUploadsIntoTheLabelBufferAndNothingElse) {
    // The viewer shows a scrubbed state of a CUDA run by uploading its box into the context's labels.
    REQUIRE_DEVICE();
    const Volume v = blobs({70, 50, 30}, PixelType::Int16, 6);
    auto context = std::make_shared<gpu::GpuContext>(v);
    LabelMap before(v.geometry());
    std::mt19937 rng(9);
    for (std::size_t i = 0; i < before.voxelCount(); ++i) before.data()[i] = std::uint8_t(rng() % 2);
    context->uploadLabels(before);
    const VoxelBox box{{3, 7, 2}, {66, 41, 28}};  // rows of 64, not a multiple of anything
    std::vector<std::uint8_t> bytes(box.voxelCount());
    for (auto& b : bytes) b = std::uint8_t(2 + rng() % 3);
    context->uploadLabels(bytes.data(), box);
    LabelMap after;
    context->downloadLabels(after);
    const Geometry& g = v.geometry();
    std::size_t wrong = 0, n = 0;
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                const std::size_t at = g.index(i, j, k);
                const std::uint8_t want = box.contains(i, j, k) ? bytes[n++] : before.data()[at];
                wrong += after.data()[at] != want;
            }
    EXPECT_EQ(n, bytes.size());
    EXPECT_EQ(wrong, 0u);
    EXPECT_THROW(context->uploadLabels(bytes.data(), VoxelBox{{0, 0, 0}, {70, 0, 0}}), GpuError) << "a box past the volume";
}

TEST(CudaSnake3d, ScatteredVoxelsSetTheirLabelsAndNothingElse) {
    // A scrub step of a CUDA run sets the voxels its steps flipped, packed as index | label << 63; a voxel
    // named twice (flipped back and forth) carries one label both times.
    REQUIRE_DEVICE();
    const Volume v = blobs({70, 50, 30}, PixelType::Int16, 6);
    auto context = std::make_shared<gpu::GpuContext>(v);
    LabelMap before(v.geometry());
    std::mt19937 rng(11);
    for (std::size_t i = 0; i < before.voxelCount(); ++i) before.data()[i] = std::uint8_t(rng() % 2);
    context->uploadLabels(before);
    LabelMap want = before;
    std::vector<std::uint64_t> voxels;
    for (int n = 0; n < 20000; ++n) {
        const std::uint64_t at = rng() % before.voxelCount();
        const bool label = rng() % 2;
        voxels.push_back(at | (label ? gpu::GpuContext::kLabelBit : 0));
        if (n % 7 == 0) voxels.push_back(at | (label ? gpu::GpuContext::kLabelBit : 0));  // named twice
        want.data()[at] = std::uint8_t(label);
    }
    // A voxel named again later with the other label would be a caller's error: every name here is its last.
    for (auto& p : voxels) p = (p & ~gpu::GpuContext::kLabelBit) | (want.data()[p & ~gpu::GpuContext::kLabelBit] ? gpu::GpuContext::kLabelBit : 0);
    context->setLabelsAt(voxels.data(), voxels.size());
    LabelMap after;
    context->downloadLabels(after);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < want.voxelCount(); ++i) wrong += after.data()[i] != want.data()[i];
    EXPECT_EQ(wrong, 0u);
    const std::uint64_t outside = before.voxelCount();
    EXPECT_THROW(context->setLabelsAt(&outside, 1), GpuError) << "a voxel past the volume";
}

TEST(CudaSnake3d, FloatVolumesAndARefusedAllocationRunOnTheCpu) {
    REQUIRE_DEVICE();
    const Volume f = blobs({40, 40, 20}, PixelType::Float32, 2);
    SegmentationRequest r;
    r.volume = &f;
    r.snake3d.box = VoxelBox{{5, 5, 3}, {35, 35, 17}};
    auto automatic = gpu::createSegmenter(Method::Snake3d, gpu::Backend::Auto);
    automatic->start(r);
    automatic->run();
    EXPECT_STREQ(automatic->backend(), "cpu");
    EXPECT_NE(gpu::fallbackNotice(*automatic).find("int16"), std::string::npos) << gpu::fallbackNotice(*automatic);
    auto forced = gpu::createSegmenter(Method::Snake3d, gpu::Backend::Cuda);
    EXPECT_THROW(forced->start(r), GpuError);

    const Volume v = blobs({128, 128, 128}, PixelType::Int16, 3);  // 4 MiB
    r.volume = &v;
    r.snake3d.box = VoxelBox{{10, 10, 10}, {117, 117, 117}};
    ::setenv("LUCENT_GPU_MEMORY_LIMIT_MB", "1", 1);
    auto capped = gpu::createSegmenter(Method::Snake3d, gpu::Backend::Auto);
    capped->start(r);
    capped->run();
    ::unsetenv("LUCENT_GPU_MEMORY_LIMIT_MB");
    EXPECT_STREQ(capped->backend(), "cpu");
    EXPECT_NE(gpu::fallbackNotice(*capped).find("out of memory"), std::string::npos) << gpu::fallbackNotice(*capped);
    auto cpu = gpu::createSegmenter(Method::Snake3d, gpu::Backend::Cpu);
    cpu->start(r);
    cpu->run();
    LabelMap a, b;
    capped->result(a);
    cpu->result(b);
    EXPECT_EQ(differing(a, b), 0u);
}

TEST(CudaSnake3d, RealCtHeadEqualsCpu) {
    REQUIRE_DEVICE();
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    const Volume ct = io::readVolumeFile(path);
    SegmentationRequest r;
    r.volume = &ct;
    r.snake3d.box = VoxelBox{{130, 85, 50}, {160, 150, 68}};  // Snake3dTest's ventricle box
    expectSameRun(r, 4);
    r.snake3d.box = VoxelBox{{40, 40, 10}, {215, 215, 100}};  // most of the head: a large domain
    r.snake3d.iterations = 12;
    expectSameRun(r, 5);
    r.snake3d.clip = ValueRange{-20.5, 100.4};  // a window's range: bounds between whole values
    expectSameRun(r, 5);
    // Issue 40's box across both frontal horns, clipped to the brain window: the ventricles, on both.
    r.snake3d.box = VoxelBox{{105, 120, 53}, {152, 183, 67}};
    r.snake3d.iterations = 0;
    r.snake3d.clip = ValueRange{0, 80};
    expectSameRun(r, 4);
}
