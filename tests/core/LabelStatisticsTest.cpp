/// @brief Per-label statistics against a direct two-pass computation, on int16 and float volumes,
/// and the CSV form (header, quoting, C-locale numbers).
#include "lucent/core/LabelStatistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

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
