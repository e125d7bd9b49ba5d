/// @brief The CUDA region snake against SnakeCpu: the same polygon and GL after every step, the same
/// finished step, labels and contours, on noisy discs, squares, several rectangles, random images
/// and through propagation. The stage program it runs is also checked on the host (SnakeHostExec,
/// no GPU needed), in order and backwards; the device tests skip without a CUDA device.
#include "SnakeHostProgram.h"
#include "SnakeReplicaHost.h"
#include "SyntheticVolumes.h"

#include "lucent/core/Errors.h"
#include "lucent/core/seg/SnakeCpu.h"
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/gpu/SegmenterFactory.h"
#include "lucent/io/VolumeFile.h"
#include "RealData.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <random>
#include <sstream>

using namespace lucent;

namespace {

bool haveDevice() { return !gpu::listDevices().empty(); }

#define REQUIRE_DEVICE() \
    if (!haveDevice()) GTEST_SKIP() << "no CUDA device"

enum class Shape { Disc, Square, Bars };

/// An int16 slice (or `depth` slices) with `shape` at 120 over 80 and Gaussian noise of `sigma`.
Volume scene(int w, int h, int depth, Shape shape, double sigma, unsigned seed) {
    Geometry g;
    g.dims = {w, h, depth};
    Volume v(g, PixelType::Int16);
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, sigma);
    for (int k = 0; k < depth; ++k)
        for (int j = 0; j < h; ++j)
            for (int i = 0; i < w; ++i) {
                bool in = false;
                const double r = 0.3 * std::min(w, h) * (depth > 1 ? 1.0 - 0.08 * std::abs(k - depth / 2) : 1.0);
                if (shape == Shape::Disc) in = std::hypot(i - 0.55 * w, j - 0.45 * h) <= r;
                if (shape == Shape::Square) in = std::abs(i - w / 2) < w / 4 && std::abs(j - h / 2) < h / 4;
                if (shape == Shape::Bars)
                    in = (std::abs(i - w / 4) < w / 8 && std::abs(j - h / 3) < h / 6) ||
                         (std::abs(i - 3 * w / 4) < w / 10 && std::abs(j - 2 * h / 3) < h / 5) ||
                         (std::abs(i - w / 2) < w / 12 && std::abs(j - h / 2) < h / 3);
                v.setValue(g.index(i, j, k), std::round((in ? 120 : 80) + noise(rng)));
            }
    return v;
}

SegmentationRequest snakeRequest(const Volume& v, std::array<int, 4> rect, int stepMax, int minSegment, int slice = 0) {
    SegmentationRequest r;
    r.volume = &v;
    r.snake.slice = slice;
    r.snake.rect = rect;
    r.snake.stepMax = stepMax;
    r.snake.minSegment = minSegment;
    return r;
}

std::vector<PixelPoint> rectangle(const std::array<int, 4>& r) {
    return {{r[0], r[1]}, {r[2], r[1]}, {r[2], r[3]}, {r[0], r[3]}};
}

using Order = lucent::testing::SnakeHostExec::Order;

/// A host program (SnakeHostProgram or SnakeReplicaHost) against SnakeCpu, `perLaunch` iterations a
/// launch: the same polygon, GL and end after every launch, the same GL history at the end.
template <class Program>
void expectSameAsCpu(const SegmentationRequest& r, Program& program, int perLaunch, const std::string& what) {
    SnakeCpu cpu;
    cpu.start(r);
    ASSERT_EQ(program.state().gl, cpu.gl()) << what;
    int steps = 0;
    while (!cpu.finished()) {
        cpu.step(perLaunch);
        program.launch(perLaunch);
        steps += perLaunch;
        ASSERT_EQ(program.state().needRoom, 0) << what;  // SnakeHostProgram grows; the replica has room for all
        ASSERT_EQ(program.polygon(), cpu.polygon()) << what << ", step " << steps;
        ASSERT_EQ(program.state().gl, cpu.gl()) << what << ", step " << steps;
        ASSERT_EQ(program.state().sliceDone != 0, cpu.finished()) << what << ", step " << steps;
        ASSERT_LT(steps, 20000) << what;
    }
    EXPECT_EQ(program.glHistory(), cpu.slices().back().glHistory) << what;
}

/// The block-0 stage program on the host, node arrays of `capacity` (grown as needed).
void expectProgramEqualsCpu(const SegmentationRequest& r, int capacity, Order order, int perLaunch,
                            const std::string& what) {
    lucent::testing::SnakeHostProgram program(*r.volume, r.snake.slice, snakeBounds(r), snakeStartPolygon(r),
                                              r.snake.stepMax, r.snake.minSegment, capacity, order);
    expectSameAsCpu(r, program, perLaunch, what);
}

/// The replicated-decision program (one block, items cut as over `spread` blocks) on the host, with
/// room for every node; returns the nodes it summed in move phases.
long long expectReplicaEqualsCpu(const SegmentationRequest& r, Order order, int perLaunch, const std::string& what,
                                 int spread = 40, bool useCache = true) {
    lucent::testing::SnakeReplicaHost program(*r.volume, r.snake.slice, snakeBounds(r), snakeStartPolygon(r),
                                              r.snake.stepMax, r.snake.minSegment, 1 << 14, order, spread, useCache);
    expectSameAsCpu(r, program, perLaunch, what);
    return program.nodesSummed();
}

std::string contours(const Segmenter& e) {
    std::ostringstream out;
    JsonWriter json(out);
    e.writeContours(json);
    return out.str();
}

std::size_t differing(const LabelMap& a, const LabelMap& b) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.voxelCount(); ++i) n += a[i] != b[i];
    return n;
}

/// SnakeCuda and SnakeCpu step by step (`perStep` iterations a call): the same report after every
/// call, then the same labels, contours and figures.
void expectSameSnake(const SegmentationRequest& r, int perStep, const std::string& what) {
    auto cpu = gpu::createSegmenter(Method::Snake, gpu::Backend::Cpu);
    auto cuda = gpu::createSegmenter(Method::Snake, gpu::Backend::Cuda);
    cpu->start(r);
    cuda->start(r);
    EXPECT_STREQ(cuda->backend(), "cuda");
    ASSERT_EQ(cuda->figures().gl, cpu->figures().gl) << what << ": first GL";
    for (int call = 1;; ++call) {
        const StepReport a = cpu->step(perStep), b = cuda->step(perStep);
        ASSERT_EQ(b.polygon, a.polygon) << what << ", call " << call;
        ASSERT_EQ(b.polygonSlice, a.polygonSlice) << what << ", call " << call;
        ASSERT_EQ(b.convergence, a.convergence) << what << ", call " << call;
        ASSERT_EQ(b.iterations, a.iterations) << what << ", call " << call;
        ASSERT_EQ(b.finished, a.finished) << what << ", call " << call;
        ASSERT_EQ(b.progress, a.progress) << what << ", call " << call;
        ASSERT_EQ(b.changed.has_value(), a.changed.has_value()) << what << ", call " << call;
        if (a.changed) {
            ASSERT_EQ(b.changed->lo, a.changed->lo) << what << ", call " << call;
            ASSERT_EQ(b.changed->hi, a.changed->hi) << what << ", call " << call;
        }
        if (a.finished) break;
        ASSERT_LT(call, 20000) << what;
    }
    LabelMap la, lb;
    cpu->result(la);
    cuda->result(lb);
    EXPECT_GT(la.count(1), 0u) << what;
    EXPECT_EQ(differing(la, lb), 0u) << what;
    EXPECT_EQ(contours(*cuda), contours(*cpu)) << what;
    EXPECT_EQ(cuda->figures().nodes, cpu->figures().nodes) << what;
    EXPECT_EQ(cuda->figures().slices, cpu->figures().slices) << what;
    EXPECT_TRUE(cuda->figures().msDevice.has_value()) << what;
}

/// A random int16 image of rectangles, noise and sometimes texture, with a random start.
SegmentationRequest randomCase(unsigned seed, Volume& v) {
    std::mt19937 rng(seed);
    auto pick = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
    const int w = pick(20, 200), h = pick(20, 200);
    Geometry g;
    g.dims = {w, h, 1};
    v = Volume(g, PixelType::Int16);
    std::normal_distribution<double> noise(0, pick(0, 60));
    std::vector<std::array<int, 5>> boxes(std::size_t(pick(1, 6)));
    for (auto& b : boxes) b = {pick(0, w), pick(0, h), pick(2, w / 2 + 2), pick(2, h / 2 + 2), pick(-100, 200)};
    const bool texture = seed % 7 == 3;
    for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i) {
            double value = 80 + (texture ? ((i / 3 + j / 3) % 2) * 60 : 0);
            for (const auto& b : boxes)
                if (std::abs(i - b[0]) < b[2] && std::abs(j - b[1]) < b[3]) value += b[4];
            v.setValue(g.index(i, j, 0), std::round(value + noise(rng)));
        }
    const int x0 = pick(0, w - 3), y0 = pick(0, h - 3), x1 = pick(x0 + 2, w - 1), y1 = pick(y0 + 2, h - 1);
    const int stepMax = pick(1, 40), minSegment = pick(1, 20);
    return snakeRequest(v, {x0, y0, x1, y1}, stepMax, minSegment);
}

/// randomCase with a random domain (SnakeParams::domain) and a rectangle that may stick out of it
/// (it is clipped) but keeps at least 3 pixels each way inside.
SegmentationRequest randomDomainCase(unsigned seed, Volume& v) {
    SegmentationRequest r = randomCase(seed, v);
    std::mt19937 rng(seed * 7 + 1);
    auto pick = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
    std::array<int, 4> domain, rect;
    for (int axis = 0; axis < 2; ++axis) {
        const int size = v.geometry().dims[axis];
        const int lo = pick(0, size - 3), hi = pick(lo + 2, size - 1);
        const int from = pick(lo - 5, hi - 2), to = pick(std::max(from, lo) + 2, hi + 5);
        domain[axis] = lo;
        domain[axis + 2] = hi;
        rect[axis] = from;
        rect[axis + 2] = to;
    }
    r.snake.domain = domain;
    r.snake.rect = rect;
    return r;
}

/// The lateral ventricles' box on axial slice 64 of the real CT head (SnakeDomainTest.cpp says how
/// it was chosen) as rectangle and domain; nullopt when the head was not fetched.
std::optional<Volume> realCtHead() {
    const std::string path = lucent::testing::realData(lucent::testing::kRealCtHead);
    if (path.empty()) return std::nullopt;
    return io::readVolumeFile(path);
}
SegmentationRequest ventricles(const Volume& ct) {
    SegmentationRequest r = snakeRequest(ct, {100, 78, 161, 166}, 32, 8, 64);
    r.snake.domain = r.snake.rect;
    return r;
}

}  // namespace

TEST(SnakeProgram, OnTheHostEqualsSnakeCpuWithADomain) {
    // The checkpoints cover the domain only and the nodes stay in it: the same steps as SnakeCpu
    // on random images with random domains, and on the real CT head's ventricles.
    for (unsigned seed = 3000; seed < 3040; ++seed) {
        Volume v;
        const SegmentationRequest r = randomDomainCase(seed, v);
        const Order order = seed % 3 == 0 ? Order::Backward : seed % 3 == 1 ? Order::Shuffled : Order::Forward;
        expectProgramEqualsCpu(r, seed % 2 ? 8 : 4096, order, 1 + int(seed % 4), "domain " + std::to_string(seed));
    }
    const Volume bars = scene(234, 162, 1, Shape::Bars, 25, 5);
    SegmentationRequest r = snakeRequest(bars, {2, 2, 231, 159}, 32, 8);
    r.snake.domain = {30, 20, 150, 120};
    expectProgramEqualsCpu(r, 64, Order::Shuffled, 1, "bars in a domain");
    if (const auto ct = realCtHead()) expectProgramEqualsCpu(ventricles(*ct), 64, Order::Forward, 3, "ventricles");
}

TEST(SnakeReplica, OnTheHostEqualsSnakeCpuWithADomain) {
    for (unsigned seed = 3000; seed < 3040; ++seed) {
        Volume v;
        const SegmentationRequest r = randomDomainCase(seed, v);
        const Order order = seed % 3 == 0 ? Order::Backward : seed % 3 == 1 ? Order::Shuffled : Order::Forward;
        const int spread = std::array<int, 4>{1, 7, 40, 300}[seed % 4];
        expectReplicaEqualsCpu(r, order, 1 + int(seed % 4), "domain " + std::to_string(seed), spread, seed % 5 != 0);
    }
    if (const auto ct = realCtHead()) expectReplicaEqualsCpu(ventricles(*ct), Order::Shuffled, 2, "ventricles");
}

TEST(SnakeProgram, OnTheHostEqualsSnakeCpuOnDiscSquareAndBars) {
    // The stage program SnakeCuda runs, on the host: its parallel loops in order, backwards and
    // shuffled (no result may depend on the order), with node arrays that must grow many times.
    const Volume disc = scene(160, 140, 1, Shape::Disc, 15, 3);
    const Volume square = scene(197, 151, 1, Shape::Square, 20, 4);
    const Volume bars = scene(234, 162, 1, Shape::Bars, 25, 5);
    const char* names[] = {"in order", "backwards", "shuffled"};
    for (Order order : {Order::Forward, Order::Backward, Order::Shuffled})
        for (int capacity : {8, 1024}) {
            const std::string how = std::string(names[int(order)]) + ", room " + std::to_string(capacity);
            expectProgramEqualsCpu(snakeRequest(disc, {5, 7, 151, 136}, 16, 6), capacity, order, 1, "disc " + how);
            expectProgramEqualsCpu(snakeRequest(square, {10, 4, 180, 140}, 24, 7), capacity, order, 3, "square " + how);
            expectProgramEqualsCpu(snakeRequest(bars, {2, 2, 231, 159}, 32, 8), capacity, order, 1, "bars " + how);
        }
}

TEST(SnakeProgram, OnTheHostEqualsSnakeCpuOnRandomImages) {
    // Random boxes, noise and textures: moves that a node earlier in the phase makes cross or stop
    // paying off, insertions that block each other, degenerate starts (thin rectangles, d = 1).
    for (unsigned seed = 1000; seed < 1060; ++seed) {
        Volume v;
        const SegmentationRequest r = randomCase(seed, v);
        const Order order = seed % 3 == 0 ? Order::Backward : seed % 3 == 1 ? Order::Shuffled : Order::Forward;
        expectProgramEqualsCpu(r, seed % 2 ? 8 : 4096, order, 1 + int(seed % 4), "random " + std::to_string(seed));
    }
}

TEST(SnakeProgram, OnTheHostEqualsSnakeCpuOnTheRealCtHead) {
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    const Volume v = io::readVolumeFile(path);
    expectProgramEqualsCpu(snakeRequest(v, {30, 30, 225, 225}, 16, 8, 54), 64, Order::Shuffled, 1, "CT head slice 54");
    expectProgramEqualsCpu(snakeRequest(v, {60, 40, 200, 230}, 32, 6, 20), 4096, Order::Forward, 9, "CT head slice 20");
}

TEST(SnakeReplica, OnTheHostEqualsSnakeCpuOnDiscSquareAndBars) {
    // The replicated-decision program SnakeCuda runs for small polygons, as one block on the host:
    // its loops in order, backwards and shuffled.
    const Volume disc = scene(160, 140, 1, Shape::Disc, 15, 3);
    const Volume square = scene(197, 151, 1, Shape::Square, 20, 4);
    const Volume bars = scene(234, 162, 1, Shape::Bars, 25, 5);
    const char* names[] = {"in order", "backwards", "shuffled"};
    for (Order order : {Order::Forward, Order::Backward, Order::Shuffled}) {
        const std::string how = names[int(order)];
        expectReplicaEqualsCpu(snakeRequest(disc, {5, 7, 151, 136}, 16, 6), order, 1, "disc " + how);
        expectReplicaEqualsCpu(snakeRequest(square, {10, 4, 180, 140}, 24, 7), order, 3, "square " + how);
        expectReplicaEqualsCpu(snakeRequest(bars, {2, 2, 231, 159}, 32, 8), order, 1, "bars " + how);
    }
}

TEST(SnakeReplica, OnTheHostEqualsSnakeCpuOnRandomImages) {
    for (unsigned seed = 1000; seed < 1060; ++seed) {
        Volume v;
        const SegmentationRequest r = randomCase(seed, v);
        const Order order = seed % 3 == 0 ? Order::Backward : seed % 3 == 1 ? Order::Shuffled : Order::Forward;
        // Items split over 1 (whole), 7, 40 or 300 blocks' worth of parts.
        const int spread = std::array<int, 4>{1, 7, 40, 300}[seed % 4];
        const bool cache = seed % 5 != 0;  // the candidate cache on, and every fifth case off
        expectReplicaEqualsCpu(r, order, 1 + int(seed % 4), "random " + std::to_string(seed), spread, cache);
    }
}

TEST(SnakeReplica, TheCandidateCacheSumsOnlyNodesThatWentStale) {
    // The same evolution with and without the cache (both equal to SnakeCpu): with it, far fewer
    // nodes are summed, as many nodes keep their place and neighbours once the polygon settles. The
    // cache lives in a launch's shared memory: the whole evolution in one launch.
    const Volume disc = scene(160, 140, 1, Shape::Disc, 15, 3);
    const SegmentationRequest r = snakeRequest(disc, {5, 7, 151, 136}, 16, 6);
    const long long with = expectReplicaEqualsCpu(r, Order::Shuffled, 64, "disc, cache", 40, true);
    const long long without = expectReplicaEqualsCpu(r, Order::Shuffled, 64, "disc, no cache", 40, false);
    EXPECT_GT(with, 0);
    // This small disc moves many of its few nodes: a third fewer (328 of 511); the paper-size
    // images of the benchmark sum about one node in seven.
    EXPECT_LT(3 * with, 2 * without) << "summed " << with << " nodes with the cache, " << without << " without";
}

TEST(SnakeReplica, OnTheHostEqualsSnakeCpuOnTheRealCtHead) {
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    const Volume v = io::readVolumeFile(path);
    expectReplicaEqualsCpu(snakeRequest(v, {30, 30, 225, 225}, 16, 8, 54), Order::Shuffled, 1, "CT head slice 54");
}

TEST(SnakeReplica, StopsForRoomBeforeThePolygonCouldOutgrowIt) {
    // With room for 24 nodes an iteration starts only with at most 12: then the launch stops, asking
    // for room, with the polygon, GL and history of the CPU engine after as many iterations.
    const Volume disc = scene(160, 140, 1, Shape::Disc, 15, 3);
    const SegmentationRequest r = snakeRequest(disc, {5, 7, 151, 136}, 16, 6);
    SnakeCpu cpu;
    cpu.start(r);
    lucent::testing::SnakeReplicaHost program(disc, 0, snakeBounds(r), rectangle(r.snake.rect), 16, 6, 24);
    int steps = 0;
    for (;;) {
        const int done = program.launch(1);
        if (program.state().needRoom) {
            EXPECT_EQ(done, 0);
            break;
        }
        ASSERT_EQ(done, 1);
        cpu.step(1);
        ++steps;
        ASSERT_EQ(program.polygon(), cpu.polygon()) << "step " << steps;
        ASSERT_FALSE(cpu.finished());
    }
    EXPECT_GT(2 * int(program.polygon().size()), 24);
    EXPECT_EQ(program.polygon(), cpu.polygon());
    EXPECT_EQ(program.state().gl, cpu.gl());
    EXPECT_GT(steps, 2);
}

TEST(CudaSnake, SameStepsAsCpuOnDiscSquareAndBars) {
    REQUIRE_DEVICE();
    const Volume disc = scene(512, 512, 1, Shape::Disc, 20, 3);
    const Volume square = scene(301, 257, 1, Shape::Square, 25, 4);
    const Volume bars = scene(234, 162, 1, Shape::Bars, 25, 5);
    expectSameSnake(snakeRequest(disc, {20, 20, 490, 490}, 64, 8), 1, "disc 512, one step a call");
    expectSameSnake(snakeRequest(disc, {200, 180, 330, 300}, 16, 8), 7, "disc 512 from inside, 7 steps a call");
    expectSameSnake(snakeRequest(square, {3, 3, 297, 253}, 32, 6), 1, "square");
    expectSameSnake(snakeRequest(square, {100, 2, 110, 250}, 8, 4), 64, "square from a thin rectangle");
    expectSameSnake(snakeRequest(bars, {2, 2, 231, 159}, 32, 8), 1, "bars");
    expectSameSnake(snakeRequest(bars, {40, 30, 200, 140}, 4, 3), 5, "bars, small steps");
}

TEST(CudaSnake, SameStepsAsCpuOnRandomImages) {
    REQUIRE_DEVICE();
    for (unsigned seed = 2000; seed < 2030; ++seed) {
        Volume v;
        const SegmentationRequest r = randomCase(seed, v);
        expectSameSnake(r, 1 + int(seed % 5), "random " + std::to_string(seed));
    }
}

TEST(CudaSnake, TheCandidateCacheGivesTheSameSteps) {
    // The replica kernel keeps the candidates' sums of nodes that did not move, within a launch:
    // several iterations a launch so that sums are kept from phase to phase; then without it.
    REQUIRE_DEVICE();
    for (unsigned seed = 2000; seed < 2020; ++seed) {
        Volume v;
        const SegmentationRequest r = randomCase(seed, v);
        expectSameSnake(r, 4 + int(seed % 3) * 30, "random, many iterations a launch " + std::to_string(seed));
    }
    const Volume disc = scene(512, 512, 1, Shape::Disc, 20, 3);
    expectSameSnake(snakeRequest(disc, {20, 20, 490, 490}, 64, 8), 64, "disc 512, 64 iterations a launch");
    ::setenv("LUCENT_SNAKE_CACHE", "0", 1);
    expectSameSnake(snakeRequest(disc, {20, 20, 490, 490}, 64, 8), 64, "disc 512 without the cache");
    ::unsetenv("LUCENT_SNAKE_CACHE");
}

TEST(CudaSnake, GrowsItsNodeArraysLikeAFreshRun) {
    // The block-0 program alone (the replica kernel off), as polygons too large for a block's
    // shared memory run.
    REQUIRE_DEVICE();
    const Volume bars = scene(234, 162, 1, Shape::Bars, 25, 5);
    ::setenv("LUCENT_SNAKE_REPLICA", "0", 1);
    ::setenv("LUCENT_SNAKE_NODES", "8", 1);  // room for 8 nodes: the arrays grow several times
    expectSameSnake(snakeRequest(bars, {2, 2, 231, 159}, 32, 4), 1, "bars with room for 8 nodes");
    ::unsetenv("LUCENT_SNAKE_NODES");
    // The leader's scratch in global memory (what polygons of more than 768 nodes use).
    ::setenv("LUCENT_SNAKE_LEADER_SHARED", "0", 1);
    expectSameSnake(snakeRequest(bars, {2, 2, 231, 159}, 32, 4), 3, "bars, leader scratch in global memory");
    ::unsetenv("LUCENT_SNAKE_LEADER_SHARED");
    const Volume disc = scene(512, 512, 1, Shape::Disc, 20, 3);
    expectSameSnake(snakeRequest(disc, {20, 20, 490, 490}, 64, 8), 1, "disc 512, block-0 program");
    ::unsetenv("LUCENT_SNAKE_REPLICA");
}

TEST(CudaSnake, MovesFromTheReplicaKernelToTheBlockZeroProgramMidSlice) {
    // A replica of 16 nodes: once an iteration could take the polygon past them, the slice goes on
    // with the block-0 program on the same state, whose arrays then grow; propagation starts the next
    // slices with polygons too large for the replica.
    REQUIRE_DEVICE();
    ::setenv("LUCENT_SNAKE_REPLICA_NODES", "16", 1);
    ::setenv("LUCENT_SNAKE_NODES", "8", 1);
    const Volume bars = scene(234, 162, 1, Shape::Bars, 25, 5);
    expectSameSnake(snakeRequest(bars, {2, 2, 231, 159}, 32, 4), 1, "bars, replica of 16 nodes");
    const Volume v = scene(97, 83, 3, Shape::Disc, 12, 9);
    SegmentationRequest r = snakeRequest(v, {2, 3, 94, 80}, 16, 4, 1);
    r.snake.propagate = true;
    expectSameSnake(r, 4, "propagating disc, replica of 16 nodes");
    ::unsetenv("LUCENT_SNAKE_NODES");
    ::unsetenv("LUCENT_SNAKE_REPLICA_NODES");
    // Fewer blocks than a phase has nodes: a block works on several items a stage.
    ::setenv("LUCENT_SNAKE_REPLICA_BLOCKS", "3", 1);
    const Volume disc = scene(512, 512, 1, Shape::Disc, 20, 3);
    expectSameSnake(snakeRequest(disc, {20, 20, 490, 490}, 64, 8), 2, "disc 512 on 3 blocks");
    ::unsetenv("LUCENT_SNAKE_REPLICA_BLOCKS");
}

TEST(CudaSnake, PropagatesThroughSlicesLikeTheCpu) {
    REQUIRE_DEVICE();
    const Volume v = scene(150, 130, 13, Shape::Disc, 12, 9);
    SegmentationRequest r = snakeRequest(v, {10, 10, 140, 120}, 32, 8, 6);
    r.snake.propagate = true;
    expectSameSnake(r, 1, "propagate, one step a call");
    expectSameSnake(r, 50, "propagate, 50 steps a call (slices change inside a call)");
}

TEST(CudaSnake, RoiMaskAndTheContextLabelBuffer) {
    REQUIRE_DEVICE();
    const Volume v = scene(120, 100, 3, Shape::Square, 15, 2);
    SegmentationRequest r = snakeRequest(v, {5, 5, 110, 90}, 16, 6, 1);
    r.snake.propagate = true;
    r.roi = VoxelBox{{10, 8, 0}, {90, 70, 2}};
    LabelMap mask(v.geometry());
    for (std::size_t i = 0; i < mask.voxelCount(); ++i) mask[i] = (i / 7) % 4 != 0;
    r.mask = &mask;
    expectSameSnake(r, 3, "roi and mask");
    // Labels written into the context's device buffer (what the viewer draws) equal the CPU's.
    auto context = std::make_shared<gpu::GpuContext>(v);
    auto cuda = gpu::createSegmenter(Method::Snake, gpu::Backend::Cuda, context);
    auto cpu = gpu::createSegmenter(Method::Snake, gpu::Backend::Cpu);
    cuda->start(r);
    cuda->run();
    cpu->start(r);
    cpu->run();
    cuda->writeLabels(context->labelSink());
    LabelMap onDevice, expected;
    context->downloadLabels(onDevice);
    cpu->result(expected);
    EXPECT_EQ(differing(onDevice, expected), 0u);
    const VoxelBox box{{7, 20, 1}, {60, 41, 1}};  // a box: at least its voxels are written
    LabelMap partial(v.geometry());
    cuda->writeLabels(LabelSink::host(partial), &box);
    for (int j = box.lo[1]; j <= box.hi[1]; ++j)
        for (int i = box.lo[0]; i <= box.hi[0]; ++i) ASSERT_EQ(partial.at(i, j, 1), expected.at(i, j, 1));
}

TEST(CudaSnake, RealCtHeadEqualsCpu) {
    // Real int16 CT values (-1024..3071 HU): the head's outline on two slices.
    REQUIRE_DEVICE();
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    const Volume v = io::readVolumeFile(path);
    expectSameSnake(snakeRequest(v, {30, 30, 225, 225}, 16, 8, 54), 1, "CT head slice 54");
    expectSameSnake(snakeRequest(v, {60, 40, 200, 230}, 32, 6, 20), 9, "CT head slice 20");
}

TEST(CudaSnake, SameStepsAsCpuWithADomain) {
    // The checkpoint scan reads the domain's rows out of the slice (both scans), the stages keep
    // the nodes in it; through propagation, both kernels and the real CT head's ventricles.
    REQUIRE_DEVICE();
    for (unsigned seed = 3000; seed < 3030; ++seed) {
        Volume v;
        const SegmentationRequest r = randomDomainCase(seed, v);
        expectSameSnake(r, 1 + int(seed % 5), "domain " + std::to_string(seed));
    }
    for (const char* scan : {"row", "warp"}) {
        ::setenv("LUCENT_SNAKE_SCAN", scan, 1);
        for (unsigned seed = 3030; seed < 3036; ++seed) {
            Volume v;
            const SegmentationRequest r = randomDomainCase(seed, v);
            expectSameSnake(r, 3, std::string(scan) + " scan, domain " + std::to_string(seed));
        }
    }
    ::unsetenv("LUCENT_SNAKE_SCAN");
    const Volume v = scene(150, 130, 13, Shape::Disc, 12, 9);
    SegmentationRequest r = snakeRequest(v, {10, 10, 140, 120}, 32, 8, 6);
    r.snake.propagate = true;
    r.snake.domain = {33, 17, 131, 101};  // odd offsets: rows start off the 16-byte grid
    expectSameSnake(r, 2, "propagating in a domain");
    ::setenv("LUCENT_SNAKE_REPLICA", "0", 1);
    expectSameSnake(r, 5, "propagating in a domain, block-0 program");
    ::unsetenv("LUCENT_SNAKE_REPLICA");
    const Volume wide = scene(3001, 61, 1, Shape::Bars, 25, 9);  // a block per row's scan from 2048 wide
    SegmentationRequest w = snakeRequest(wide, {4, 3, 2990, 57}, 8, 24);
    w.snake.domain = {7, 2, 2601, 58};
    expectSameSnake(w, 4, "3001 wide, a domain 2595 wide");
    if (const auto ct = realCtHead()) expectSameSnake(ventricles(*ct), 1, "CT head ventricles");
}

TEST(CudaSnake, FloatVolumesRunOnTheCpu) {
    REQUIRE_DEVICE();
    Geometry g;
    g.dims = {60, 50, 1};
    Volume f(g, PixelType::Float32);
    for (std::size_t i = 0; i < f.voxelCount(); ++i)
        f.setValue(i, (i % 60 > 20 && i / 60 > 15 ? 2.5 : 1.0) + 0.01 * (i % 7));
    const SegmentationRequest r = snakeRequest(f, {2, 2, 57, 47}, 8, 4);
    auto cuda = gpu::createSegmenter(Method::Snake, gpu::Backend::Cuda);
    EXPECT_THROW(cuda->start(r), GpuError);
    auto automatic = gpu::createSegmenter(Method::Snake, gpu::Backend::Auto);
    automatic->start(r);
    automatic->run();
    EXPECT_STREQ(automatic->backend(), "cpu");
    EXPECT_NE(gpu::fallbackNotice(*automatic).find("int16"), std::string::npos) << gpu::fallbackNotice(*automatic);
}

TEST(CudaSnake, BothCheckpointScansGiveTheSameSteps) {
    // The block per row (rows of 2048 pixels or more, in tiles of 16384) and the warp per row write
    // the same records: each forced on random images, then wide slices of odd width whose rows take
    // one tile and two.
    REQUIRE_DEVICE();
    for (const char* scan : {"row", "warp"}) {
        ::setenv("LUCENT_SNAKE_SCAN", scan, 1);
        for (unsigned seed = 2040; seed < 2050; ++seed) {
            Volume v;
            const SegmentationRequest r = randomCase(seed, v);
            expectSameSnake(r, 3, std::string(scan) + " scan, random " + std::to_string(seed));
        }
    }
    ::unsetenv("LUCENT_SNAKE_SCAN");
    const Volume oneTile = scene(3001, 61, 1, Shape::Bars, 25, 9);
    expectSameSnake(snakeRequest(oneTile, {4, 3, 2990, 57}, 8, 24), 4, "3001 wide");
    const Volume twoTiles = scene(16411, 29, 1, Shape::Square, 25, 10);
    expectSameSnake(snakeRequest(twoTiles, {5, 2, 16400, 26}, 8, 64), 4, "16411 wide");
}

TEST(CudaSnake, SmallCasesForTheSanitizers) {
    // What device-check.sh runs under compute-sanitizer: both checkpoint scans, every stage of the
    // program (moves in three phases, insertions, growing arrays), propagation and the label kernel,
    // on 8 blocks so that the instrumented run stays short.
    REQUIRE_DEVICE();
    ::setenv("LUCENT_SNAKE_BLOCKS", "8", 1);
    ::setenv("LUCENT_SNAKE_REPLICA_BLOCKS", "4", 1);
    ::setenv("LUCENT_SNAKE_REPLICA_NODES", "16", 1);  // both kernels, and the move from one to the other
    ::setenv("LUCENT_SNAKE_NODES", "8", 1);
    const Volume v = scene(47, 39, 3, Shape::Disc, 10, 7);
    SegmentationRequest r = snakeRequest(v, {2, 3, 44, 35}, 8, 4, 1);
    r.snake.propagate = true;
    expectSameSnake(r, 2, "small propagate");
    ::unsetenv("LUCENT_SNAKE_NODES");
    ::unsetenv("LUCENT_SNAKE_REPLICA_NODES");
    const Volume bars = scene(61, 43, 1, Shape::Bars, 20, 8);
    expectSameSnake(snakeRequest(bars, {1, 1, 59, 41}, 4, 3), 3, "small bars");
    ::setenv("LUCENT_SNAKE_SCAN", "row", 1);  // the block per row's scan, which wide slices take
    expectSameSnake(snakeRequest(bars, {1, 1, 59, 41}, 4, 3), 3, "small bars, a block per row's scan");
    ::unsetenv("LUCENT_SNAKE_SCAN");
    ::setenv("LUCENT_SNAKE_CACHE", "0", 1);  // every node summed in every phase
    expectSameSnake(snakeRequest(bars, {1, 1, 59, 41}, 4, 3), 16, "small bars, no candidate cache");
    ::unsetenv("LUCENT_SNAKE_CACHE");
    ::unsetenv("LUCENT_SNAKE_BLOCKS");
    ::unsetenv("LUCENT_SNAKE_REPLICA_BLOCKS");
}
