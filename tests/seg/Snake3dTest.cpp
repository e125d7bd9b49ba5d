/// @brief The 3D snake's CPU engine: step for step equal to an independent morphological Chan-Vese
/// (Snake3dReference.h) on random volumes; on noisy phantoms with a known answer, an ellipsoid and a
/// ball in one box come out as two objects and a torus keeps its hole (Dice >= 0.95); runs to
/// convergence end on a fixed point or a period-2 cycle; the same voxels on any thread count; the
/// start's and domain's rules and errors; a clip clamps the values as the reference sees them, and keeps
/// bone in the domain's margin from taking all soft tissue; on the real CT head and a real T1 MR a box
/// around a lateral ventricle finds CSF (across both frontal horns of the CT, with the brain window's clip).
#include "Snake3dReference.h"

#include "lucent/core/seg/Snake3dCpu.h"
#include "lucent/core/seg/Snake3dStart.h"
#include "lucent/io/VolumeFile.h"
#include "RealData.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <random>
#include <stdexcept>

using namespace lucent;

namespace {

/// The body of the right-hand lateral ventricle of the CT head (cranium.mhd), found by looking at it:
/// voxels of the smoothed volume between -5 and 12 HU form the ventricles (k 40..72, j 75..161,
/// i 95..164, joined at the midline i ~ 129); the box holds the right one's body on slices 50..68
/// (43 % of its voxels below 15 HU, against 28 % in the domain around it). A box around the whole
/// C-shaped ventricle (i 128..168, j 72..162, k 38..75) holds more brain than CSF and finds the brain,
/// as scikit-image's morphological_chan_vese does from it.
constexpr VoxelBox kVentricleBox{{130, 85, 50}, {160, 150, 68}};

using Shape = std::function<bool(double, double, double)>;

/// An int16 volume: 100 inside `shape`, 0 outside, Gaussian noise of `sigma`.
Volume phantom(std::array<int, 3> dims, const Shape& shape, double sigma, unsigned seed) {
    Geometry g;
    g.dims = dims;
    Volume v(g, PixelType::Int16);
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, sigma);
    for (int k = 0; k < dims[2]; ++k)
        for (int j = 0; j < dims[1]; ++j)
            for (int i = 0; i < dims[0]; ++i)
                v.int16Data()[g.index(i, j, k)] = std::int16_t(std::lround((shape(i, j, k) ? 100 : 0) + noise(rng)));
    return v;
}

LabelMap run(const SegmentationRequest& r, Snake3dCpu* engine = nullptr) {
    Snake3dCpu local;
    Snake3dCpu& e = engine ? *engine : local;
    e.start(r);
    e.run(16);
    LabelMap out;
    e.result(out);
    return out;
}

double dice(const LabelMap& m, const Volume& v, const Shape& truth, const Shape& part) {
    const Geometry& g = v.geometry();
    std::size_t both = 0, a = 0, b = 0;
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                if (!part(i, j, k)) continue;
                const bool x = m.at(i, j, k) != 0, y = truth(i, j, k);
                both += x && y;
                a += x;
                b += y;
            }
    return 2.0 * double(both) / double(a + b);
}

/// 26-connected components of the labelled voxels (a plain flood fill).
int components(const LabelMap& m) {
    const Geometry& g = m.geometry();
    std::vector<std::uint8_t> seen(g.voxelCount(), 0);
    int count = 0;
    std::vector<std::array<int, 3>> stack;
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                if (!m.at(i, j, k) || seen[g.index(i, j, k)]) continue;
                ++count;
                stack.push_back({i, j, k});
                seen[g.index(i, j, k)] = 1;
                while (!stack.empty()) {
                    const auto [x, y, z] = stack.back();
                    stack.pop_back();
                    for (int dz = -1; dz <= 1; ++dz)
                        for (int dy = -1; dy <= 1; ++dy)
                            for (int dx = -1; dx <= 1; ++dx) {
                                const int a = x + dx, b = y + dy, c = z + dz;
                                if (!g.contains(a, b, c) || !m.at(a, b, c) || seen[g.index(a, b, c)]) continue;
                                seen[g.index(a, b, c)] = 1;
                                stack.push_back({a, b, c});
                            }
                }
            }
    return count;
}

/// The engine's level set unpacked to one byte a voxel of its domain.
std::vector<std::uint8_t> unpack(const Snake3dCpu& e) {
    const Snake3dShape s = snake3dShape(e.domain());
    std::vector<std::uint8_t> out(std::size_t(s.nx) * s.ny * s.nz);
    for (int z = 0; z < s.nz; ++z)
        for (int y = 0; y < s.ny; ++y)
            for (int x = 0; x < s.nx; ++x)
                out[(std::size_t(z) * s.ny + y) * s.nx + x] =
                    e.words()[std::size_t(s.rowOf(y, z)) + std::size_t(x / 64)] >> (x % 64) & 1u;
    return out;
}

/// The reference's inputs for a request: the domain's values and start, one byte a voxel.
struct ReferenceInput {
    snake3dref::Grid grid;
    std::vector<double> image;
    std::vector<std::uint8_t> start;
};

/// The value the run sees: clamped to the clip, whose bounds are rounded to whole values on int16 data
/// (the documented rule, written here apart from the engine's Snake3dClamp).
double seen(const SegmentationRequest& r, double v) {
    if (!r.snake3d.clip) return v;
    double lo = r.snake3d.clip->lower, hi = r.snake3d.clip->upper;
    if (r.volume->pixelType() == PixelType::Int16) lo = double(std::lround(lo)), hi = double(std::lround(hi));
    return std::clamp(v, lo, hi);
}

ReferenceInput referenceInput(const SegmentationRequest& r) {
    const VoxelBox d = snake3dDomain(r);
    ReferenceInput in{{d.hi[0] - d.lo[0] + 1, d.hi[1] - d.lo[1] + 1, d.hi[2] - d.lo[2] + 1}, {}, {}};
    const Geometry& g = r.volume->geometry();
    for (int k = d.lo[2]; k <= d.hi[2]; ++k)
        for (int j = d.lo[1]; j <= d.hi[1]; ++j)
            for (int i = d.lo[0]; i <= d.hi[0]; ++i) {
                in.image.push_back(seen(r, r.volume->value(i, j, k)));
                bool s = r.snake3d.box && r.snake3d.box->contains(i, j, k);
                for (std::size_t n = 0; n < r.seeds.size(); ++n) {
                    const auto& c = r.seeds[n];
                    const double x = (i - c.i) * g.spacing.x, y = (j - c.j) * g.spacing.y, z = (k - c.k) * g.spacing.z;
                    const double radius = snake3dRadius(r.snake3d, n);
                    s = s || x * x + y * y + z * z <= radius * radius;
                }
                in.start.push_back(s);
            }
    return in;
}

}  // namespace

TEST(Snake3d, EqualsAnIndependentMorphologicalChanVeseStepForStep) {
    // Random blobs in noise, a domain that is not a multiple of 64 wide (70: a partial second word),
    // int16 and float, smoothing 0..3, a box start and a two-bubble start on anisotropic voxels.
    for (PixelType type : {PixelType::Int16, PixelType::Float32})
        for (int smoothing : {0, 1, 2, 3}) {
            const Shape blob = [](double i, double j, double k) {
                return std::hypot(i - 30, j - 12, (k - 8) * 1.5) < 9 || std::hypot(i - 52, j - 10, k - 6) < 6;
            };
            const Volume iv = phantom({70, 24, 16}, blob, 45, 7 + smoothing);
            Geometry g = iv.geometry();
            g.spacing = {0.8, 1.0, 1.7};
            Volume v(g, type);
            for (std::size_t n = 0; n < g.voxelCount(); ++n)
                v.setValue(n, iv.value(n) + (type == PixelType::Float32 ? 0.25 : 0));
            SegmentationRequest r;
            r.volume = &v;
            r.snake3d.smoothing = smoothing;
            r.snake3d.iterations = 12;
            if (smoothing % 2 == 0) {
                r.snake3d.box = VoxelBox{{8, 2, 1}, {66, 21, 14}};  // across the first word
                r.roi = VoxelBox{{0, 0, 0}, {69, 23, 15}};
            } else {
                r.seeds = {{30, 12, 8}, {52, 10, 6}};
                r.snake3d.radiiMm = {4.0, 3.0};
            }
            const ReferenceInput in = referenceInput(r);
            const auto states = snake3dref::run(in.image, in.start, in.grid, r.snake3d.iterations, smoothing);
            Snake3dCpu e;
            e.start(r);
            ASSERT_EQ(unpack(e), in.start);
            for (int it = 0; it < r.snake3d.iterations; ++it) {
                e.step(1);
                ASSERT_EQ(unpack(e), states[std::size_t(it)]) << "iteration " << it + 1 << ", smoothing " << smoothing;
            }
            EXPECT_TRUE(e.finished());
        }
}

TEST(Snake3d, AClipClampsTheValuesAsTheReferenceSeesThemStepForStep) {
    // The blobs (0 and 100 in noise of 45) clamped to 10.4..70.6: int16 rounds the bounds to 10 and 71,
    // float keeps them. The reference is given the clamped values: the same states, iteration by iteration.
    const Shape blob = [](double i, double j, double k) {
        return std::hypot(i - 30, j - 12, (k - 8) * 1.5) < 9 || std::hypot(i - 52, j - 10, k - 6) < 6;
    };
    for (PixelType type : {PixelType::Int16, PixelType::Float32}) {
        const Volume iv = phantom({70, 24, 16}, blob, 45, 21);
        Volume v(iv.geometry(), type);
        for (std::size_t n = 0; n < iv.geometry().voxelCount(); ++n)
            v.setValue(n, iv.value(n) + (type == PixelType::Float32 ? 0.25 : 0));
        SegmentationRequest r;
        r.volume = &v;
        r.snake3d.box = VoxelBox{{8, 2, 1}, {66, 21, 14}};
        r.snake3d.iterations = 12;
        r.snake3d.clip = ValueRange{10.4, 70.6};
        const ReferenceInput in = referenceInput(r);
        const auto states = snake3dref::run(in.image, in.start, in.grid, r.snake3d.iterations, 1);
        Snake3dCpu e;
        e.start(r);
        for (int it = 0; it < r.snake3d.iterations; ++it) {
            e.step(1);
            ASSERT_EQ(unpack(e), states[std::size_t(it)]) << "iteration " << it + 1 << ", type " << int(type);
        }
        // The means are the clamped values': within the clip.
        const MethodFigures f = e.figures();
        ASSERT_TRUE(f.meanInside && f.meanOutside);
        EXPECT_GE(*f.meanInside, 10.0);
        EXPECT_LE(*f.meanOutside, 71.0);
        // A clip wider than the values changes nothing, word for word.
        Snake3dCpu wide, none;
        r.snake3d.clip = ValueRange{-40000, 40000};
        wide.start(r);
        wide.run();
        r.snake3d.clip.reset();
        none.start(r);
        none.run();
        EXPECT_EQ(wide.words(), none.words());
        EXPECT_EQ(wide.figures().meanInside, none.figures().meanInside);
    }
}

TEST(Snake3d, BoneInTheDomainsMarginTakesAllSoftTissueUnlessTheValuesAreClipped) {
    // A dark ball (5) in soft tissue (35), noise of 8, and a plate of bone (1000) one voxel thick in the
    // domain's margin (i 47; the box 20..44 grows by 3). The bone lifts the outside's mean: every soft voxel
    // is nearer the inside's, so the surface takes the soft tissue. Clamped to 0..80 (a brain window) the
    // bone weighs 80 and the ball is what differs.
    const Shape ball = [](double i, double j, double k) { return std::hypot(i - 32, j - 32, k - 24) <= 9; };
    Geometry g;
    g.dims = {64, 64, 48};
    Volume v(g, PixelType::Int16);
    std::mt19937 rng(4);
    std::normal_distribution<double> noise(0, 8);
    for (int k = 0; k < 48; ++k)
        for (int j = 0; j < 64; ++j)
            for (int i = 0; i < 64; ++i)
                v.int16Data()[g.index(i, j, k)] =
                    std::int16_t(std::lround((i >= 47 ? 1000 : ball(i, j, k) ? 5 : 35) + noise(rng)));
    SegmentationRequest r;
    r.volume = &v;
    r.snake3d.box = VoxelBox{{20, 20, 12}, {44, 44, 36}};
    const VoxelBox domain = snake3dDomain(r);
    ASSERT_EQ(domain.hi[0], 47) << "the bone lies in the domain's margin";
    const Shape inDomain = [&](double i, double j, double k) { return domain.contains(int(i), int(j), int(k)); };
    const auto soft = [&](int i, int j, int k) { return i < 47 && !ball(i, j, k); };
    const LabelMap plain = run(r);
    std::size_t softVoxels = 0, softInside = 0;
    for (int k = domain.lo[2]; k <= domain.hi[2]; ++k)
        for (int j = domain.lo[1]; j <= domain.hi[1]; ++j)
            for (int i = domain.lo[0]; i <= domain.hi[0]; ++i) {
                if (!soft(i, j, k)) continue;
                ++softVoxels;
                softInside += plain.at(i, j, k) != 0;
            }
    const double softTaken = double(softInside) / double(softVoxels), ballPlain = dice(plain, v, ball, inDomain);
    r.snake3d.clip = ValueRange{0, 80};
    Snake3dCpu e;
    const LabelMap clipped = run(r, &e);
    const double ballClipped = dice(clipped, v, ball, inDomain);
    std::printf("bone in the margin: unclipped, %.1f %% of the soft tissue inside, the ball's Dice %.4f; clipped to "
                "0..80: the ball's Dice %.4f\n", 100 * softTaken, ballPlain, ballClipped);
    EXPECT_GT(softTaken, 0.9) << "without the clip the surface holds the soft tissue";
    EXPECT_LT(ballPlain, 0.5);
    EXPECT_GE(ballClipped, 0.95);
    EXPECT_EQ(components(clipped), 1);
    EXPECT_TRUE(e.converged());
}

TEST(Snake3d, AnEllipsoidAndABallInOneBoxComeOutAsTwoObjects) {
    const Shape ellipsoid = [](double i, double j, double k) {
        return std::pow((i - 30) / 16, 2) + std::pow((j - 40) / 12, 2) + std::pow((k - 32) / 10, 2) <= 1;
    };
    const Shape ball = [](double i, double j, double k) { return std::hypot(i - 72, j - 40, k - 32) <= 10; };
    const Shape both = [&](double i, double j, double k) { return ellipsoid(i, j, k) || ball(i, j, k); };
    const Volume v = phantom({100, 80, 64}, both, 30, 3);
    SegmentationRequest r;
    r.volume = &v;
    r.snake3d.box = VoxelBox{{8, 22, 16}, {88, 58, 48}};
    Snake3dCpu e;
    const LabelMap m = run(r, &e);
    EXPECT_TRUE(e.converged());
    const Shape left = [](double i, double, double) { return i < 52; }, right = [](double i, double, double) { return i >= 52; };
    const double dEllipsoid = dice(m, v, ellipsoid, left), dBall = dice(m, v, ball, right);
    std::printf("ellipsoid Dice %.4f, ball Dice %.4f, %d iterations\n", dEllipsoid, dBall, e.iterations());
    EXPECT_GE(dEllipsoid, 0.95);
    EXPECT_GE(dBall, 0.95);
    EXPECT_EQ(components(m), 2);
}

TEST(Snake3d, ATorusKeepsItsHole) {
    const Shape torus = [](double i, double j, double k) {
        const double ring = std::hypot(i - 48, j - 48) - 20;
        return ring * ring + (k - 32) * (k - 32) <= 7.0 * 7.0;
    };
    const Volume v = phantom({96, 96, 64}, torus, 30, 5);
    SegmentationRequest r;
    r.volume = &v;
    r.snake3d.box = VoxelBox{{22, 22, 20}, {74, 74, 44}};
    Snake3dCpu e;
    const LabelMap m = run(r, &e);
    const double d = dice(m, v, torus, [](double, double, double) { return true; });
    std::printf("torus Dice %.4f, %d iterations\n", d, e.iterations());
    EXPECT_GE(d, 0.95);
    EXPECT_EQ(components(m), 1);
    // The hole goes through: the torus's axis is outside at every slice of the domain.
    for (int k = 0; k < 64; ++k) EXPECT_EQ(m.at(48, 48, k), 0) << "k " << k;
}

TEST(Snake3d, RunsToConvergenceEndOnAFixedPointOrAPeriodTwoCycle) {
    const Shape ball = [](double i, double j, double k) { return std::hypot(i - 20, j - 20, k - 12) <= 8; };
    for (int smoothing : {1, 2}) {
        const Volume v = phantom({40, 40, 24}, ball, 20, 11);
        SegmentationRequest r;
        r.volume = &v;
        r.snake3d.box = VoxelBox{{6, 6, 2}, {34, 34, 22}};
        r.snake3d.smoothing = smoothing;
        Snake3dCpu e;
        e.start(r);
        e.run(1);
        ASSERT_TRUE(e.converged());
        const int n = e.iterations();
        // The reference from the start, two iterations further: the last state comes back.
        const ReferenceInput in = referenceInput(r);
        const auto states = snake3dref::run(in.image, in.start, in.grid, n + 2, smoothing);
        EXPECT_EQ(unpack(e), states[std::size_t(n - 1)]);
        EXPECT_EQ(states[std::size_t(n + 1)], states[std::size_t(n - 1)]) << "smoothing " << smoothing;
        // ...and it did not repeat itself earlier (the run stopped at the first repetition).
        if (n >= 4) EXPECT_NE(states[std::size_t(n - 2)], states[std::size_t(n - 4)]);
        if (n >= 3 && smoothing % 2 == 0) EXPECT_NE(states[std::size_t(n - 2)], states[std::size_t(n - 3)]);
        std::printf("smoothing %d: converged after %d iterations, %lld voxels inside\n", smoothing, n, e.insideVoxels());
        EXPECT_GT(e.insideVoxels(), 1000);
    }
}

TEST(Snake3d, TheSameVoxelsOnAnyThreadCountAndStepSize) {
    // 170 voxels a row (3 words) over a 160 x 160 domain: enough words for 3 threads (the engine
    // gives a thread at least 16384 words).
    const Shape ball = [](double i, double j, double k) { return std::hypot(i - 80, j - 80, k - 80) <= 40; };
    const Volume v = phantom({170, 160, 160}, ball, 35, 13);
    SegmentationRequest r;
    r.volume = &v;
    r.snake3d.box = VoxelBox{{20, 20, 20}, {150, 140, 140}};
    r.snake3d.iterations = 12;
    r.threads = 1;
    Snake3dCpu one;
    one.start(r);
    one.run(1);
    r.threads = 3;
    Snake3dCpu three;
    three.start(r);
    three.run(5);
    EXPECT_EQ(one.words(), three.words());
    EXPECT_EQ(one.iterations(), three.iterations());
    EXPECT_EQ(one.insideVoxels(), three.insideVoxels());
}

TEST(Snake3d, StepsReportTheBoxOfTheVoxelsTheyChanged) {
    const Shape ball = [](double i, double j, double k) { return std::hypot(i - 20, j - 20, k - 12) <= 8; };
    const Volume v = phantom({40, 40, 24}, ball, 30, 17);
    SegmentationRequest r;
    r.volume = &v;
    r.snake3d.box = VoxelBox{{6, 6, 2}, {34, 34, 22}};
    Snake3dCpu e;
    e.start(r);
    LabelMap before;
    e.result(before);
    while (!e.finished()) {
        const StepReport s = e.step(1);
        LabelMap after;
        e.result(after);
        VoxelBox truth = VoxelBox::none();
        for (int k = 0; k < 24; ++k)
            for (int j = 0; j < 40; ++j)
                for (int i = 0; i < 40; ++i)
                    if (before.at(i, j, k) != after.at(i, j, k)) truth.add(i, j, k);
        ASSERT_EQ(s.changed.has_value(), !truth.empty());
        if (s.changed) {
            EXPECT_TRUE(s.changed->lo == truth.lo && s.changed->hi == truth.hi);
        }
        before = after;
    }
}

TEST(Snake3d, TheDomainIsTheRoiOrTheStartGrownByTheMargin) {
    Geometry g;
    g.dims = {100, 90, 80};
    g.spacing = {0.5, 1.0, 2.0};
    const Volume v(g, PixelType::Int16);
    SegmentationRequest r;
    r.volume = &v;
    r.snake3d.box = VoxelBox{{20, 30, 40}, {59, 49, 49}};  // largest side 40: 10% = 4 voxels
    VoxelBox d = snake3dDomain(r);
    EXPECT_EQ(d.lo, (std::array<int, 3>{16, 26, 36}));
    EXPECT_EQ(d.hi, (std::array<int, 3>{63, 53, 53}));
    r.snake3d.marginMm = 3.0;  // 6, 3 and 2 voxels
    d = snake3dDomain(r);
    EXPECT_EQ(d.lo, (std::array<int, 3>{14, 27, 38}));
    EXPECT_EQ(d.hi, (std::array<int, 3>{65, 52, 51}));
    r.seeds = {{95, 45, 10}};  // a bubble of 5 mm: 10, 5 and 2 voxels (i 85..99 clipped, j 40..50, k 8..12)
    d = snake3dDomain(r);
    EXPECT_EQ(d.lo, (std::array<int, 3>{14, 27, 6}));
    EXPECT_EQ(d.hi, (std::array<int, 3>{99, 53, 51}));
    r.roi = VoxelBox{{10, 10, 10}, {120, 60, 60}};
    d = snake3dDomain(r);
    EXPECT_EQ(d.lo, (std::array<int, 3>{10, 10, 10}));
    EXPECT_EQ(d.hi, (std::array<int, 3>{99, 60, 60}));
}

TEST(Snake3d, RefusesRequestsItCannotRun) {
    Geometry g;
    g.dims = {30, 30, 30};
    const Volume v(g, PixelType::Int16);
    auto message = [&](const std::function<void(SegmentationRequest&)>& edit) {
        SegmentationRequest r;
        r.volume = &v;
        r.snake3d.box = VoxelBox{{5, 5, 5}, {20, 20, 20}};
        edit(r);
        try {
            Snake3dCpu().start(r);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message([](auto& r) { r.snake3d.box.reset(); }).find("needs a start"), std::string::npos);
    EXPECT_NE(message([](auto& r) { r.snake3d.box->hi[0] = 30; }).find("outside the volume"), std::string::npos);
    EXPECT_NE(message([](auto& r) { r.snake3d.box->lo[1] = 25; }).find("low corner above"), std::string::npos);
    EXPECT_NE(message([](auto& r) { r.seeds = {{1, 1, 40}}; }).find("seed 1,1,40 is outside"), std::string::npos);
    EXPECT_NE(message([](auto& r) { r.seeds = {{1, 1, 1}}, r.snake3d.radiiMm = {1, 2}; }).find("2 radii for 1 seeds"),
              std::string::npos);
    EXPECT_NE(message([](auto& r) { r.snake3d.smoothing = -1; }).find("smoothing must be"), std::string::npos);
    EXPECT_NE(message([](auto& r) { r.snake3d.radiiMm = {0.0}; }).find("radius must be greater than 0"), std::string::npos);
    EXPECT_NE(message([](auto& r) { r.roi = VoxelBox{{0, 0, 0}, {29, 29, 1}}; }).find("less than 3 voxels"),
              std::string::npos);
    EXPECT_NE(message([](auto& r) { r.roi = VoxelBox{{25, 25, 25}, {29, 29, 29}}; }).find("lies outside the domain"),
              std::string::npos);
    EXPECT_EQ(message([](auto&) {}), "accepted");
}

TEST(Snake3d, ABoxAroundALateralVentricleOfTheRealCtHeadFindsCsf) {
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    const Volume ct = io::readVolumeFile(path);
    SegmentationRequest r;
    r.volume = &ct;
    r.snake3d.box = kVentricleBox;
    Snake3dCpu e;
    const LabelMap m = run(r, &e);
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t i = 0; i < m.voxelCount(); ++i)
        if (m.data()[i]) {
            sum += ct.value(i);
            ++n;
        }
    const double mean = n ? sum / double(n) : 0;
    std::printf("CT head ventricle: %zu voxels at %.1f HU after %d iterations\n", n, mean, e.iterations());
    EXPECT_LT(mean, 15.0);  // CSF: 0-15 HU; the brain around it is 20-40 HU
    EXPECT_GT(n, 2000u);
}

TEST(Snake3d, ABoxAcrossBothFrontalHornsOfTheRealCtHeadFindsTheVentriclesWhenClippedToTheBrainWindow) {
    // Issue 40's box drawn on axial slice 60 with the viewer's default depth (15 slices): its domain (the
    // box + 10 %) reaches the bone of the anterior cranial fossa, whose values make every soft voxel the
    // inside. Clamped to the brain window W 80 L 40 (0..80 HU) the region term sees what the reader sees.
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    const Volume ct = io::readVolumeFile(path);
    SegmentationRequest r;
    r.volume = &ct;
    r.snake3d.box = VoxelBox{{105, 120, 53}, {152, 183, 67}};
    auto measure = [&](const LabelMap& m) {
        double sum = 0;
        std::size_t n = 0;
        for (std::size_t i = 0; i < m.voxelCount(); ++i)
            if (m.data()[i]) sum += ct.value(i), ++n;
        return std::pair{n, n ? sum / double(n) : 0.0};
    };
    const auto [plainVoxels, plainMean] = measure(run(r));
    r.snake3d.clip = ValueRange{0, 80};
    const auto [voxels, mean] = measure(run(r));
    std::printf("CT head frontal horns: %zu voxels at %.1f HU unclipped, %zu at %.1f HU clipped to 0..80\n",
                plainVoxels, plainMean, voxels, mean);
    EXPECT_GT(plainVoxels, 100000u) << "unclipped: the soft tissue against the bone";
    EXPECT_LT(mean, 10.0);  // CSF; the brain around it is 20-40 HU
    EXPECT_GT(voxels, 15000u);
    EXPECT_LT(voxels, 30000u);
}

TEST(Snake3d, ABoxAroundALateralVentricleOfARealMrFindsCsf) {
    // ITK's T1 brain (128 x 128 x 62, 2 x 2 x 3 mm) and its k-means label map (4 CSF, 5 grey matter,
    // 6 white matter; T1 means 47.7, 75.7, 101.4). The box: the bounding box of the CSF component
    // that lies against white matter (a lateral ventricle; the map's largest CSF components are sulci).
    LUCENT_REAL_DATA_OR_SKIP(t1Path, "itk/KmeansTest_T1UCharRaw.nii.gz");
    LUCENT_REAL_DATA_OR_SKIP(classesPath, "itk/KmeansTest_T1KmeansPrelimSegmentation.nii.gz");
    const Volume t1 = io::readVolumeFile(t1Path);
    const Volume classes = io::readVolumeFile(classesPath);
    SegmentationRequest r;
    r.volume = &t1;
    r.snake3d.box = VoxelBox{{55, 52, 16}, {74, 70, 42}};
    Snake3dCpu e;
    const LabelMap m = run(r, &e);
    double sum = 0;
    std::size_t n = 0, csf = 0;
    for (std::size_t i = 0; i < m.voxelCount(); ++i)
        if (m.data()[i]) {
            sum += t1.value(i);
            ++n;
            csf += classes.value(i) == 4;
        }
    const double mean = n ? sum / double(n) : 0;
    std::printf("MR T1 ventricle: %zu voxels at %.1f, %zu of them CSF in the k-means map\n", n, mean, csf);
    EXPECT_GT(n, 200u);
    EXPECT_LT(mean, 55.0);     // CSF, not grey (75.7) or white matter (101.4)
    EXPECT_GT(csf * 2, n);     // most of it the map's CSF
}
