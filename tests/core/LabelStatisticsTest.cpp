/// @brief Per-label statistics against a direct two-pass computation, on int16 and float volumes,
/// the same figures on any thread count, filled slices left out, and the CSV form (header, quoting,
/// C-locale numbers).
#include "lucent/core/LabelStatistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <tuple>

using namespace lucent;

namespace {

Geometry anisotropic() {
    Geometry g;
    g.dims = {23, 17, 11};
    g.spacing = {0.5, 0.75, 2.0};
    return g;
}

struct Direct {
    std::size_t n = 0;
    double mean = 0, sd = 0, min = 1e300, max = -1e300;
};

/// Two passes per label over the whole map: the textbook definition.
std::map<int, Direct> direct(const Volume& v, const LabelMap& m) {
    std::map<int, Direct> out;
    for (std::size_t i = 0; i < m.voxelCount(); ++i)
        if (m[i]) {
            Direct& d = out[m[i]];
            ++d.n;
            d.mean += v.value(i);
            d.min = std::min(d.min, v.value(i));
            d.max = std::max(d.max, v.value(i));
        }
    for (auto& [l, d] : out) d.mean /= double(d.n);
    for (std::size_t i = 0; i < m.voxelCount(); ++i)
        if (m[i]) out[m[i]].sd += (v.value(i) - out[m[i]].mean) * (v.value(i) - out[m[i]].mean);
    for (auto& [l, d] : out) d.sd = std::sqrt(d.sd / double(d.n));
    return out;
}

void expectMatches(const Volume& v, const LabelMap& m) {
    const auto stats = computeLabelStatistics(v, m);
    const auto expected = direct(v, m);
    ASSERT_EQ(stats.size(), expected.size());
    std::size_t row = 0;
    for (const auto& [label, d] : expected) {
        const auto& s = stats[row++];
        EXPECT_EQ(s.value, label);
        EXPECT_EQ(s.voxels, d.n);
        EXPECT_DOUBLE_EQ(s.millilitres, double(d.n) * 0.5 * 0.75 * 2.0 / 1000.0);
        EXPECT_NEAR(s.mean, d.mean, 1e-9 * (1 + std::abs(d.mean)));
        EXPECT_NEAR(s.stddev, d.sd, 1e-9 * (1 + d.sd));
        EXPECT_EQ(s.min, d.min);
        EXPECT_EQ(s.max, d.max);
    }
}

}  // namespace

TEST(LabelStatistics, KnownAnswerOnASmallMap) {
    Geometry g;
    g.dims = {4, 1, 1};
    g.spacing = {1, 2, 5};
    Volume v(g, PixelType::Int16);
    LabelMap m(g);
    const int values[] = {10, 20, 30, -1000};
    for (int i = 0; i < 4; ++i) v.setValue(std::size_t(i), values[i]);
    m[0] = m[1] = 3;
    m[2] = 5;
    const auto s = computeLabelStatistics(v, m);
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0].value, 3);
    EXPECT_EQ(s[0].voxels, 2u);
    EXPECT_DOUBLE_EQ(s[0].millilitres, 2 * 10 / 1000.0);
    EXPECT_DOUBLE_EQ(s[0].mean, 15.0);
    EXPECT_DOUBLE_EQ(s[0].stddev, 5.0);
    EXPECT_EQ(s[1].value, 5);
    EXPECT_DOUBLE_EQ(s[1].stddev, 0.0);
    EXPECT_DOUBLE_EQ(s[1].min, 30.0);
}

TEST(LabelStatistics, MatchesADirectComputationOnRandomMaps) {
    std::mt19937 rng(7);
    for (PixelType type : {PixelType::Int16, PixelType::Float32}) {
        Volume v(anisotropic(), type);
        LabelMap m(anisotropic());
        std::normal_distribution<double> hu(-1000, 300);  // a big offset, as CT air has
        std::uniform_int_distribution<int> label(0, 6);
        for (std::size_t i = 0; i < v.voxelCount(); ++i) {
            v.setValue(i, type == PixelType::Int16 ? std::round(hu(rng)) : hu(rng));
            const int l = label(rng);
            m[i] = std::uint8_t(l == 6 ? 200 : l);
        }
        SCOPED_TRACE(pixelTypeName(type));
        expectMatches(v, m);
    }
}

namespace {

/// The figure as `segment --stats` prints it (JsonWriter's %.10g).
std::string printed(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

/// The textbook figures in long double, over the voxels whose slice `counted` accepts: exact
/// integer sums of int16 values, then a second pass for the spread.
template <class Counted>
std::map<int, Direct> reference(const Volume& v, const LabelMap& m, Counted counted) {
    std::map<int, long double> sum, spread;
    std::map<int, Direct> out;
    const std::size_t slice = m.geometry().sliceSize();
    for (std::size_t i = 0; i < m.voxelCount(); ++i)
        if (m[i] && counted(int(i / slice))) {
            Direct& d = out[m[i]];
            ++d.n;
            sum[m[i]] += v.value(i);
            d.min = std::min(d.min, v.value(i));
            d.max = std::max(d.max, v.value(i));
        }
    for (std::size_t i = 0; i < m.voxelCount(); ++i)
        if (m[i] && counted(int(i / slice))) {
            const long double d = v.value(i) - sum[m[i]] / (long double)out[m[i]].n;
            spread[m[i]] += d * d;
        }
    for (auto& [l, d] : out) {
        d.mean = double(sum[l] / (long double)d.n);
        d.sd = double(std::sqrt(spread[l] / (long double)d.n));
    }
    return out;
}

/// A volume of several partition pieces: values (CT-like by default: -1000 +- 300) under labels in runs of
/// random length (as masks have), with noisy stretches of single voxels.
std::pair<Volume, LabelMap> largeRandom(PixelType type, std::uint32_t seed, double mean = -1000, double sd = 300) {
    Geometry g;
    g.dims = {301, 257, 41};  // 3.2 M voxels: 4 pieces of 2^20, the last cut short
    g.spacing = {0.5, 0.75, 2.0};
    Volume v(g, type);
    LabelMap m(g);
    std::mt19937 rng(seed);
    std::normal_distribution<double> hu(mean, sd);
    std::uniform_int_distribution<int> label(0, 5), run(1, 3000);
    for (std::size_t i = 0; i < v.voxelCount();) {
        const std::uint8_t l = std::uint8_t(label(rng) * 50);
        const std::size_t end = std::min(v.voxelCount(), i + std::size_t(run(rng) % 4 == 0 ? 1 : run(rng)));
        for (; i < end; ++i) {
            m[i] = l;
            v.setValue(i, type == PixelType::Int16 ? std::clamp(std::round(hu(rng)), -32768.0, 32767.0) : hu(rng));
        }
    }
    return {std::move(v), std::move(m)};
}

}  // namespace

TEST(LabelStatistics, PrintedFiguresEqualAnIndependentReferenceOnAnyThreadCount) {
    // A small spread on a large offset as well: sums of squares about zero would lose it.
    for (const auto& [type, mean, sd] : {std::tuple{PixelType::Int16, -1000.0, 300.0},
                                         std::tuple{PixelType::Float32, -1000.0, 300.0},
                                         std::tuple{PixelType::Float32, 30000.0, 1.0}}) {
        SCOPED_TRACE(std::string(pixelTypeName(type)) + " " + std::to_string(mean));
        const auto [v, m] = largeRandom(type, 11, mean, sd);
        const auto expected = reference(v, m, [](int) { return true; });
        const auto one = computeLabelStatistics(v, m, 1);
        ASSERT_EQ(one.size(), expected.size());
        std::size_t row = 0;
        for (const auto& [label, d] : expected) {
            const LabelStatistics& s = one[row++];
            EXPECT_EQ(s.value, label);
            EXPECT_EQ(s.voxels, d.n);
            EXPECT_EQ(printed(s.mean), printed(d.mean)) << "label " << label;
            EXPECT_EQ(printed(s.stddev), printed(d.sd)) << "label " << label;
            EXPECT_EQ(s.min, d.min);
            EXPECT_EQ(s.max, d.max);
            EXPECT_EQ(s.filledVoxels, 0u);
        }
        // The same bits whatever the thread count: the partition and its merge order are the grid's.
        for (unsigned threads : {2u, 3u, 8u}) {
            const auto other = computeLabelStatistics(v, m, threads);
            ASSERT_EQ(other.size(), one.size());
            for (std::size_t r = 0; r < one.size(); ++r) {
                EXPECT_EQ(other[r].voxels, one[r].voxels);
                EXPECT_EQ(other[r].mean, one[r].mean) << threads << " threads";
                EXPECT_EQ(other[r].stddev, one[r].stddev) << threads << " threads";
                EXPECT_EQ(other[r].min, one[r].min);
                EXPECT_EQ(other[r].max, one[r].max);
            }
        }
    }
}

TEST(LabelStatistics, FilledSlicesAreCountedApartAndLeftOutOfEveryFigure) {
    auto [v, m] = largeRandom(PixelType::Int16, 5);
    const int nz = v.geometry().dims[2];
    // A DICOM series with gaps: slices 3-9 and 40 were filled in with the lowest value (air).
    std::vector<std::string> files(std::size_t(nz), "slice.dcm");
    for (int k : {3, 4, 5, 6, 7, 8, 9, 40}) files[std::size_t(k)].clear();
    v.metadata().sliceFiles = files;
    auto isFilled = [&](int k) { return files[std::size_t(k)].empty(); };
    const std::size_t slice = v.geometry().sliceSize();
    for (std::size_t i = 0; i < v.voxelCount(); ++i) {
        if (isFilled(int(i / slice))) v.setValue(i, -2048);
        if (int(i / slice) == 5) m[i] = 253;  // a label drawn only on filler (after 250, the last of the others)
    }
    EXPECT_EQ(v.metadata().filledSlices(), (std::vector<int>{3, 4, 5, 6, 7, 8, 9, 40}));
    const auto expected = reference(v, m, [&](int k) { return !isFilled(k); });
    std::map<int, std::size_t> inFilled;
    for (std::size_t i = 0; i < m.voxelCount(); ++i)
        if (m[i] && isFilled(int(i / slice))) ++inFilled[m[i]];
    const auto stats = computeLabelStatistics(v, m, 2);
    ASSERT_EQ(stats.size(), expected.size() + 1);  // 253 is listed with no measured voxel
    std::size_t row = 0;
    for (const auto& [label, d] : expected) {
        const LabelStatistics& s = stats[row++];
        ASSERT_EQ(s.value, label);
        EXPECT_EQ(s.voxels, d.n);
        EXPECT_DOUBLE_EQ(s.millilitres, double(d.n) * 0.5 * 0.75 * 2.0 / 1000.0);
        EXPECT_EQ(s.filledVoxels, inFilled[label]);
        EXPECT_GT(s.filledVoxels, 0u);
        EXPECT_EQ(printed(s.mean), printed(d.mean));
        EXPECT_EQ(printed(s.stddev), printed(d.sd));
        EXPECT_EQ(s.min, d.min);  // never the filler's -2048
        EXPECT_EQ(s.max, d.max);
    }
    const LabelStatistics& onlyFiller = stats.back();
    EXPECT_EQ(onlyFiller.value, 253);
    EXPECT_EQ(onlyFiller.voxels, 0u);
    EXPECT_EQ(onlyFiller.filledVoxels, slice);
    EXPECT_EQ(labelStatisticsCsv({onlyFiller}, LabelTable{}), "value,name,voxels,ml,mean,sd,min,max\n253,Label 253,0,0,,,,\n");
}

TEST(LabelStatistics, CountsOfEveryValueOnAnyThreadCount) {
    const auto [v, m] = largeRandom(PixelType::Int16, 9);
    std::array<std::size_t, 256> expected{};
    for (std::size_t i = 0; i < m.voxelCount(); ++i) ++expected[m[i]];
    EXPECT_GT(expected[250], 0u);
    for (unsigned threads : {1u, 3u}) EXPECT_EQ(countLabels(m, threads), expected) << threads << " threads";
}

TEST(LabelStatistics, RefusesAnotherGrid) {
    Geometry g = anisotropic();
    Volume v(g, PixelType::Int16);
    g.dims[2] = 3;
    EXPECT_THROW(computeLabelStatistics(v, LabelMap(g)), std::invalid_argument);
}

TEST(LabelStatistics, CsvHasAHeaderNamesAndQuoting) {
    LabelStatistics a;
    a.value = 1;
    a.voxels = 3;
    a.millilitres = 0.0015;
    a.mean = -12.5;
    a.stddev = 2.25;
    a.min = -15;
    a.max = -10;
    LabelStatistics b = a;
    b.value = 4;
    LabelTable table;
    LabelInfo info;
    info.value = 1;
    info.name = "Liver, \"left\"";
    table.set(info);
    EXPECT_EQ(labelStatisticsCsv({a, b}, table),
              "value,name,voxels,ml,mean,sd,min,max\n"
              "1,\"Liver, \"\"left\"\"\",3,0.0015,-12.5,2.25,-15,-10\n"
              "4,Label 4,3,0.0015,-12.5,2.25,-15,-10\n");
}
