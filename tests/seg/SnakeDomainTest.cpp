/// @brief The region snake's domain (SnakeParams::domain): a run with a domain is, by definition,
/// the run on the slice cropped to it (polygons translated, node for node, GL to the bit); the
/// starting rectangle is clipped to it; a box around a dark disk inside a bright disk finds the
/// dark disk with a domain and the bright disk without; on the real CT head a box around the
/// lateral ventricles finds CSF, not the brain.
#include "SyntheticVolumes.h"

#include "lucent/core/seg/SnakeCpu.h"
#include "lucent/io/VolumeFile.h"
#include "RealData.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>

using namespace lucent;

namespace {

constexpr int kW = 200, kH = 180;
bool bigDisc(int i, int j) { return std::hypot(i - 100.0, j - 90.0) <= 60.0; }
bool darkDisc(int i, int j) { return std::hypot(i - 112.0, j - 84.0) <= 14.0; }

/// `depth` slices: a dark disc (40) inside a bright disc (160) on mid-grey (100), noise of 10. The
/// bright disc against the grey is the slice's strongest two-region split.
Volume discs(PixelType type, int depth = 1) {
    Geometry g;
    g.dims = {kW, kH, depth};
    Volume v(g, type);
    std::mt19937 rng(17);
    std::normal_distribution<double> noise(0, 10);
    for (int k = 0; k < depth; ++k)
        for (int j = 0; j < kH; ++j)
            for (int i = 0; i < kW; ++i)
                v.setValue(g.index(i, j, k), std::round((darkDisc(i, j)  ? 40
                                                         : bigDisc(i, j) ? 160
                                                                         : 100) +
                                                        noise(rng)));
    return v;
}

LabelMap truth(bool (*inside)(int, int)) {
    Geometry g;
    g.dims = {kW, kH, 1};
    LabelMap m(g);
    for (int j = 0; j < kH; ++j)
        for (int i = 0; i < kW; ++i) m.at(i, j, 0) = inside(i, j);
    return m;
}

// A box around the dark disc (centre 112, 84, radius 14) with 4 pixels to spare, and the domain:
// that box grown by 12 pixels, all of it inside the bright disc (its far corner is 42 pixels from
// the bright disc's centre, radius 60).
constexpr std::array<int, 4> kBox{94, 66, 130, 102};
constexpr std::array<int, 4> kDomain{82, 54, 142, 114};

SegmentationRequest request(const Volume& v, std::array<int, 4> rect, std::optional<std::array<int, 4>> domain) {
    SegmentationRequest r;
    r.volume = &v;
    r.snake.rect = rect;
    r.snake.domain = domain;
    r.snake.stepMax = 16;
    r.snake.minSegment = 6;
    return r;
}

LabelMap run(const SegmentationRequest& r) {
    SnakeCpu engine;
    engine.start(r);
    engine.run();
    LabelMap out;
    engine.result(out);
    return out;
}

/// The voxels of `v` inside `box` (i0, j0, i1, j1 on every slice) as a volume of their own.
Volume crop(const Volume& v, const std::array<int, 4>& box) {
    Geometry g;
    g.dims = {box[2] - box[0] + 1, box[3] - box[1] + 1, v.geometry().dims[2]};
    Volume c(g, v.pixelType());
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) c.setValue(g.index(i, j, k), v.value(i + box[0], j + box[1], k));
    return c;
}

std::vector<PixelPoint> moved(std::vector<PixelPoint> polygon, int dx, int dy) {
    for (auto& p : polygon) p = {p.x + dx, p.y + dy};
    return polygon;
}

/// The run with `domain` on `r.volume` and the run on the volume cropped to it (rectangle moved
/// alike): the same polygon and GL after every step, the same slices at the end.
void expectSameAsCropped(SegmentationRequest r, const std::array<int, 4>& domain, const std::string& what) {
    const Volume cropped = crop(*r.volume, domain);
    SegmentationRequest c = r;
    c.volume = &cropped;
    const auto& q = r.snake.rect;
    c.snake.rect = {q[0] - domain[0], q[1] - domain[1], q[2] - domain[0], q[3] - domain[1]};
    r.snake.domain = domain;
    SnakeCpu a, b;
    a.start(r);
    b.start(c);
    ASSERT_EQ(a.polygon(), moved(b.polygon(), domain[0], domain[1])) << what;
    ASSERT_EQ(a.gl(), b.gl()) << what;
    for (int step = 1; !b.finished(); ++step) {
        const StepReport ra = a.step(1), rb = b.step(1);
        ASSERT_EQ(a.polygon(), moved(b.polygon(), domain[0], domain[1])) << what << ", step " << step;
        ASSERT_EQ(ra.convergence, rb.convergence) << what << ", step " << step;
        ASSERT_EQ(ra.polygonSlice, rb.polygonSlice) << what << ", step " << step;
        ASSERT_EQ(a.finished(), b.finished()) << what << ", step " << step;
        ASSERT_LT(step, 5000) << what;
    }
    ASSERT_EQ(a.slices().size(), b.slices().size()) << what;
    for (std::size_t s = 0; s < a.slices().size(); ++s) {
        EXPECT_EQ(a.slices()[s].slice, b.slices()[s].slice) << what;
        EXPECT_EQ(a.slices()[s].polygon, moved(b.slices()[s].polygon, domain[0], domain[1])) << what;
        EXPECT_EQ(a.slices()[s].glHistory, b.slices()[s].glHistory) << what;
    }
}

}  // namespace

TEST(SnakeDomain, ABoxAroundTheDarkDiscFindsItWithADomainAndTheBrightDiscWithout) {
    const Volume v = discs(PixelType::Int16);
    const LabelMap dark = truth(darkDisc), bright = truth(bigDisc);
    const LabelMap within = run(request(v, kBox, kDomain));
    const LabelMap whole = run(request(v, kBox, std::nullopt));
    const double d1 = lucent::testing::dice(within, dark), d2 = lucent::testing::dice(whole, bright);
    std::printf("snake domain: Dice with the dark disc %.3f (domain), with the bright disc %.3f (whole slice)\n", d1,
                d2);
    EXPECT_GT(d1, 0.9);
    EXPECT_GT(d2, 0.9);
    EXPECT_LT(lucent::testing::dice(whole, dark), 0.5);
}

TEST(SnakeDomain, ARunWithADomainIsTheRunOnTheCroppedSliceNodeForNode) {
    for (PixelType type : {PixelType::Int16, PixelType::Float32}) {
        const std::string name = type == PixelType::Int16 ? "int16" : "float";
        const Volume v = discs(type);
        expectSameAsCropped(request(v, kBox, std::nullopt), kDomain, name + ", box inside the domain");
        // The rectangle is the domain's own border: the nodes start on its edges and stay within.
        expectSameAsCropped(request(v, kDomain, std::nullopt), kDomain, name + ", box on the domain's border");
        // A domain on the slice's edge and a box touching it.
        expectSameAsCropped(request(v, {0, 0, 60, 50}, std::nullopt), {0, 0, 70, 60}, name + ", domain at 0, 0");
        expectSameAsCropped(request(v, {150, 120, 199, 179}, std::nullopt), {140, 110, 199, 179},
                            name + ", domain at the far corner");
    }
}

TEST(SnakeDomain, PropagationKeepsTheDomainOnEverySlice) {
    const Volume v = discs(PixelType::Int16, 5);
    SegmentationRequest r = request(v, kBox, std::nullopt);
    r.snake.slice = 2;
    r.snake.propagate = true;
    expectSameAsCropped(r, kDomain, "propagating");
    r.snake.domain = kDomain;
    SnakeCpu engine;
    engine.start(r);
    engine.run();
    EXPECT_EQ(engine.slices().size(), 5u);
}

TEST(SnakeDomain, TheStartingRectangleIsClippedToTheDomain) {
    // A rectangle larger than the domain starts on the domain's border: the run is the one whose
    // rectangle is the domain.
    const Volume v = discs(PixelType::Int16);
    SnakeCpu a, b;
    a.start(request(v, {10, 5, 190, 170}, kDomain));
    b.start(request(v, kDomain, kDomain));
    EXPECT_EQ(a.polygon(), b.polygon());
    EXPECT_EQ(a.polygon().front(), (PixelPoint{kDomain[0], kDomain[1]}));
    a.run();
    b.run();
    EXPECT_EQ(a.polygon(), b.polygon());
}

TEST(SnakeDomain, ARectangleOutsideTheDomainIsRefusedNamingBoth) {
    const Volume v = discs(PixelType::Int16);
    SnakeCpu engine;
    try {
        engine.start(request(v, {10, 10, 40, 40}, kDomain));
        FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("10,10,40,40"), std::string::npos) << m;
        EXPECT_NE(m.find("82,54,142,114"), std::string::npos) << m;
    }
    EXPECT_THROW(engine.start(request(v, kBox, std::array<int, 4>{150, 10, 210, 40})), std::invalid_argument);
    EXPECT_THROW(engine.start(request(v, kBox, std::array<int, 4>{100, 80, 101, 120})), std::invalid_argument);
}

TEST(SnakeDomain, ABoxAroundTheVentriclesOfTheRealCtHeadFindsCsfNotTheBrain) {
    LUCENT_REAL_DATA_OR_SKIP(path, lucent::testing::kRealCtHead);
    const Volume ct = io::readVolumeFile(path);
    // Axial slice 64 dumped as an image (window -10..90 HU) and as a map of pixels below 12 HU: the
    // lateral ventricles are the dark X from i = 106 to 155 and j = 84 to 160, inside the brain
    // (20-40 HU). The box holds them with 5 or 6 pixels of brain to spare on every side; it is both
    // the starting rectangle and the domain, as `lucent segment --roi` gives it.
    const std::array<int, 4> box{100, 78, 161, 166};
    SegmentationRequest r;
    r.volume = &ct;
    r.snake.slice = 64;
    r.snake.rect = box;
    auto meanAndCount = [&](const LabelMap& m) {
        double sum = 0;
        std::size_t n = 0;
        for (int j = 0; j < 256; ++j)
            for (int i = 0; i < 256; ++i)
                if (m.at(i, j, 64)) {
                    sum += ct.value(i, j, 64);
                    ++n;
                }
        return std::pair{n ? sum / double(n) : 0.0, n};
    };
    const auto [brainMean, brainPixels] = meanAndCount(run(r));  // no domain: the brain, as the issue says
    r.snake.domain = box;
    const auto [mean, pixels] = meanAndCount(run(r));
    std::printf("CT head slice 64: with the domain %zu pixels at %.1f HU; without %zu pixels at %.1f HU\n", pixels,
                mean, brainPixels, brainMean);
    EXPECT_LT(mean, 10.0);  // CSF: 0-15 HU; the brain around is 20-40 HU
    EXPECT_GT(pixels, 500u);
    EXPECT_LT(pixels * 4, brainPixels);
}
