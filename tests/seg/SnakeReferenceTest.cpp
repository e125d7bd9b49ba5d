/// @brief The region snake's criterion against a brute-force one: at every step, the polygon the
/// engine reports is rasterised here (point in polygon on pixel centres), the two regions' variances
/// summed with plain loops, and GL = 1/2 (N_B log var_B + N_T log var_T) (paper 003) compared with
/// the GL the engine reports; GL never rises from step to step.
#include "lucent/core/seg/SnakeCpu.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <optional>
#include <random>
#include <vector>

using namespace lucent;

namespace {

using Polygon = std::vector<std::array<double, 2>>;

/// Pixel (i, y) lies inside when the ray from the point (i, y) towards +x crosses an odd number of
/// edges; an edge counts on rows min y <= y < max y (a vertex on the ray counts once) and only
/// where it crosses strictly right of i. That is the rule SnakeGeometry.h documents (inside when
/// ceil(x_left) <= i < ceil(x_right)), written as a crossing-number test in exact integers.
bool inside(const Polygon& polygon, long long i, long long y) {
    bool odd = false;
    for (std::size_t s = 0; s < polygon.size(); ++s) {
        const auto& a = polygon[s];
        const auto& b = polygon[(s + 1) % polygon.size()];
        const long long px = std::llround(a[0]), py = std::llround(a[1]), qx = std::llround(b[0]),
                        qy = std::llround(b[1]);
        if (y < std::min(py, qy) || y >= std::max(py, qy)) continue;
        // crossing x - i = num / den, den = qy - py != 0 here.
        const long long num = (px - i) * (qy - py) + (y - py) * (qx - px), den = qy - py;
        if (num != 0 && (num > 0) == (den > 0)) odd = !odd;
    }
    return odd;
}

struct Region {
    std::vector<double> values;
    /// Maximum-likelihood variance (divided by N), two passes.
    double variance() const {
        double mean = 0, var = 0;
        for (double z : values) mean += z;
        mean /= double(values.size());
        for (double z : values) var += (z - mean) * (z - mean);
        return var / double(values.size());
    }
};

/// GL of the polygon on slice 0, and its mask; with a domain (i0, j0, i1, j1) over its pixels only.
double bruteGl(const Volume& v, const Polygon& polygon, std::vector<std::uint8_t>* mask = nullptr,
               std::optional<std::array<int, 4>> domain = std::nullopt) {
    const auto& d = v.geometry().dims;
    const std::array<int, 4> box = domain ? *domain : std::array<int, 4>{0, 0, d[0] - 1, d[1] - 1};
    Region target, background;
    if (mask) mask->assign(std::size_t(d[0]) * d[1], 0);
    for (int y = box[1]; y <= box[3]; ++y)
        for (int i = box[0]; i <= box[2]; ++i) {
            const bool in = inside(polygon, i, y);
            (in ? target : background).values.push_back(v.value(i, y, 0));
            if (mask) (*mask)[std::size_t(y) * d[0] + i] = in;
        }
    const double nt = double(target.values.size()), nb = double(background.values.size());
    return 0.5 * (nb * std::log(background.variance()) + nt * std::log(target.variance()));
}

/// 24 x 24: a bright square (150) on 50, Gaussian noise of 10.
Volume squareImage(PixelType type) {
    Geometry g;
    g.dims = {24, 24, 1};
    Volume v(g, type);
    std::mt19937 rng(29);
    std::normal_distribution<double> noise(0, 10);
    for (int y = 0; y < 24; ++y)
        for (int i = 0; i < 24; ++i) {
            const bool in = i >= 8 && i < 17 && y >= 6 && y < 16;
            v.setValue(g.index(i, y, 0), (in ? 150 : 50) + noise(rng));
        }
    return v;
}

struct SquareRun {
    int steps = 0;
    bool finished = false;
    std::size_t mostNodes = 0;
};

/// Runs the snake on the square for `maxSteps` steps or to its end, checking each step's GL against
/// the brute force and that it never rises; leaves the engine cancelled (its labels are then the
/// last polygon's).
SquareRun checkEverySteps(SnakeCpu& engine, const Volume& v, int maxSteps,
                          std::optional<std::array<int, 4>> domain = std::nullopt) {
    SegmentationRequest r;
    r.volume = &v;
    r.snake.domain = domain;
    r.snake.rect = {2, 2, 21, 21};
    r.snake.stepMax = 4;
    r.snake.minSegment = 4;
    engine.start(r);
    Polygon start;
    for (const auto& p : engine.polygon()) start.push_back({double(p.x), double(p.y)});
    double previous = engine.gl();
    EXPECT_NEAR(previous, bruteGl(v, start, nullptr, domain), 1e-9 * std::abs(previous));
    SquareRun run;
    while (!run.finished && run.steps < maxSteps) {
        const StepReport s = engine.step(1);
        ++run.steps;
        const double want = bruteGl(v, s.polygon, nullptr, domain);
        for (const auto& p : s.polygon)
            if (domain)
                EXPECT_TRUE(p[0] >= (*domain)[0] && p[0] <= (*domain)[2] && p[1] >= (*domain)[1] &&
                            p[1] <= (*domain)[3]);
        EXPECT_NEAR(s.convergence, want, 1e-9 * std::abs(want)) << "step " << run.steps;
        EXPECT_LE(s.convergence, previous) << "step " << run.steps;
        previous = s.convergence;
        run.mostNodes = std::max(run.mostNodes, s.polygon.size());
        run.finished = s.finished;
    }
    engine.cancel();
    return run;
}

}  // namespace

class SnakeReference : public ::testing::TestWithParam<PixelType> {};

TEST_P(SnakeReference, EveryStepsGlEqualsTheBruteForceGlAndNeverRises) {
    const Volume v = squareImage(GetParam());
    SnakeCpu engine;
    const SquareRun run = checkEverySteps(engine, v, 200);
    EXPECT_TRUE(run.finished) << "within 200 steps";
    EXPECT_GT(run.steps, 3);
    EXPECT_GT(run.mostNodes, 4u) << "nodes were added";
    // The labels are the rasterised last polygon, and it holds the square.
    Polygon last;
    for (const auto& p : engine.polygon()) last.push_back({double(p.x), double(p.y)});
    std::vector<std::uint8_t> mask;
    bruteGl(v, last, &mask);
    LabelMap out;
    engine.result(out);
    std::size_t differ = 0, square = 0;
    for (int y = 0; y < 24; ++y)
        for (int i = 0; i < 24; ++i) {
            differ += out.at(i, y, 0) != mask[std::size_t(y) * 24 + i];
            square += mask[std::size_t(y) * 24 + i] && i >= 8 && i < 17 && y >= 6 && y < 16;
        }
    EXPECT_EQ(differ, 0u);
    EXPECT_EQ(square, 90u);
    std::printf("snake 24x24 square: %d steps, %zu labelled\n", run.steps, out.count(1));
}

TEST_P(SnakeReference, WithADomainEveryStepsGlIsTheBruteForceGlOfTheDomainsPixels) {
    // The domain holds the square (8..16, 6..15) and a margin of background; the rectangle is
    // clipped to it. GL is over the domain's pixels only (paper 003's two regions, in the image the
    // method sees), and every node stays in it.
    const Volume v = squareImage(GetParam());
    SnakeCpu engine;
    const SquareRun run = checkEverySteps(engine, v, 200, std::array<int, 4>{4, 3, 19, 18});
    EXPECT_TRUE(run.finished) << "within 200 steps";
    EXPECT_GT(run.steps, 3);
}

INSTANTIATE_TEST_SUITE_P(Types, SnakeReference, ::testing::Values(PixelType::Int16, PixelType::Float32));

namespace {

/// The square's polygons step by step (GL bits included), run to the end or `maxSteps`.
std::vector<StepReport> runSquare(const Volume& v, int maxSteps) {
    SegmentationRequest r;
    r.volume = &v;
    r.snake.rect = {2, 2, 21, 21};
    r.snake.stepMax = 4;
    r.snake.minSegment = 4;
    SnakeCpu engine;
    engine.start(r);
    std::vector<StepReport> steps;
    while (steps.size() < std::size_t(maxSteps) && (steps.empty() || !steps.back().finished))
        steps.push_back(engine.step(1));
    return steps;
}

/// `v`'s values times `scale` in a Float32 volume.
Volume asFloat(const Volume& v, double scale) {
    Volume f(v.geometry(), PixelType::Float32);
    for (std::size_t i = 0; i < v.voxelCount(); ++i) f.setValue(i, v.value(i) * scale);
    return f;
}

}  // namespace

// Float sums are rounded: a node sliding along a straight segment (8,14 <-> 8,12 between 8,15 and
// 8,6, the same region) once "lowered" GL by ~2e-12 each way and the run never ended. It must end
// within a bound far above what int16 needs (13 steps), every step's GL still the brute force's.
TEST(SnakeReference, FloatRunOnTheSquareEnds) {
    const Volume v = squareImage(PixelType::Float32);
    SnakeCpu engine;
    const SquareRun run = checkEverySteps(engine, v, 1000);
    EXPECT_TRUE(run.finished) << run.steps << " steps";
}

// Where float sums are exact (integer values, or integers over a power of two: every sum fits in
// double's 53 bits here), the float path must take the int16 path's decisions, the ones the CUDA
// engine reproduces: the same polygon at every step. Unscaled, the sums and so GL are the same to
// the bit. Scaled by 1/8, every variance scales by exactly 1/64, GL shifts by N log(64) / 2 (plus
// rounding) and every comparison keeps its outcome: exact ties stay exact, the rest differ by far
// more than the rounding.
TEST(SnakeReference, FloatRunTakesTheInt16RunsStepsWhereItsSumsAreExact) {
    const Volume int16 = squareImage(PixelType::Int16);
    const std::vector<StepReport> want = runSquare(int16, 1000);
    ASSERT_TRUE(want.back().finished);
    for (double scale : {1.0, 0.125}) {
        const std::vector<StepReport> got = runSquare(asFloat(int16, scale), 1000);
        ASSERT_EQ(got.size(), want.size()) << "scale " << scale;
        for (std::size_t s = 0; s < want.size(); ++s) {
            ASSERT_EQ(got[s].polygon, want[s].polygon) << "scale " << scale << ", step " << s + 1;
            if (scale == 1.0) {
                ASSERT_EQ(got[s].convergence, want[s].convergence) << "step " << s + 1;
            }
        }
    }
}
