/// @brief portableExp (FuzzyAffinity.h) against std::exp over every argument the affinity can pass.
#include "lucent/core/seg/FuzzyAffinity.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

using namespace lucent;

namespace {

/// |portableExp(x) / std::exp(x) - 1| over `xs`; both are normal doubles for x >= -708.
double worstRelativeError(const std::vector<double>& xs) {
    double worst = 0;
    for (double x : xs) {
        const double want = std::exp(x);
        worst = std::max(worst, std::abs(portableExp(x) / want - 1.0));
    }
    return worst;
}

}  // namespace

// The affinity passes x = -(m^2) / (2 S^2) and -(d^2) / (2 D^2): any x <= 0 (S and D are floored,
// so |x| may be huge). Bound: the Taylor series to r^12 on |r| <= ln2/2 leaves
// (ln2/2)^13 / 13! / e^(-ln2/2) < 2.4e-16 relative; the two-part ln 2 makes the reduction error
// below 1e-19 in r; the last Horner fma and ldexp add at most one rounding (1.1e-16) each, and
// std::exp is itself within 1 ulp (2.2e-16). Sum: below 6e-16, so 1e-15 (the header's claim) is
// a bound that a wrong coefficient, a lost term or a bad reduction constant would all break.
TEST(PortableExp, WithinOneInTenToTheFifteenOfStdExpOnNormalResults) {
    std::vector<double> xs;
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int n = 0; n < (1 << 21); ++n) xs.push_back(-708.0 * (n + unit(rng)) / (1 << 21));  // dense on [-708, 0]
    for (int e = -1074; e <= 0; ++e) xs.push_back(-std::ldexp(1.0 + unit(rng), e));          // tiny |x|: e^x near 1
    // Around the reduction's rounding boundaries x = -(k + 1/2) ln 2, where |r| is largest.
    for (int k = 0; k < 1021; ++k) {
        const double b = -(k + 0.5) * 0.6931471805599453;
        for (double s = b - 4e-13 * (k + 1); s <= b + 4e-13 * (k + 1); s += 1e-13 * (k + 1)) xs.push_back(s);
    }
    EXPECT_LT(worstRelativeError(xs), 1e-15);
}

TEST(PortableExp, SubnormalResultsWithinOneUnitOfTheGrid) {
    // Below x = -708.4 e^x is subnormal (DBL_MIN = e^-708.396): each side rounds once onto the
    // 2^-1074 grid, so they may differ by one unit on top of the relative error (1e-15 of the value,
    // up to two units near DBL_MIN). portableExp gives 0 from -745 on, where std::exp still gives
    // 2^-1074 down to about -745.13: one unit.
    const double unit = std::numeric_limits<double>::denorm_min();
    double worstExcess = -1;  // the largest |difference| - allowed, in grid units
    for (double x = -708.4; x > -746.0; x -= 1e-5) {
        const double want = std::exp(x), allowed = unit + 1e-15 * want;
        worstExcess = std::max(worstExcess, (std::abs(portableExp(x) - want) - allowed) / unit);
    }
    EXPECT_LE(worstExcess, 0.0);
}

TEST(PortableExp, EdgesOfItsDomain) {
    EXPECT_EQ(portableExp(0.0), 1.0);
    EXPECT_EQ(portableExp(-0.0), 1.0);
    EXPECT_EQ(portableExp(1e-300), 1.0) << "positive arguments are clamped: affinity exponents never are";
    EXPECT_EQ(portableExp(-745.0), 0.0);
    EXPECT_EQ(portableExp(-1e9), 0.0);
    EXPECT_EQ(portableExp(-HUGE_VAL), 0.0);
    EXPECT_EQ(portableExp(std::nan("")), 0.0);
}

TEST(PortableExp, AffinityFactorsRoundToTheSameFloatsAsStdExp) {
    // What the engines keep is float(exp(x)): over the range where that float is not zero
    // (x > -104), a relative error of 1e-15 flips it only for doubles within 1e-15 of a float
    // rounding boundary, and then by one float unit.
    int differ = 0;
    for (double x = -104.0; x <= 0.0; x += 1.0 / 4096) {
        const float a = static_cast<float>(portableExp(x)), b = static_cast<float>(std::exp(x));
        if (a != b) {
            ++differ;
            EXPECT_EQ(std::nextafter(a, b), b) << "x " << x;
        }
    }
    EXPECT_LE(differ, 2) << "of 425985 samples";
}
