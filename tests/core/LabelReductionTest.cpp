/// @brief The 3D pane's coarse label copy: the factor for a cell budget, block majorities on cases
/// counted by hand, edge blocks, the cells' grid in patient space, and a ball's volume kept.
#include "lucent/core/LabelReduction.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace lucent;

TEST(LabelReduction, FactorIsTheSmallestWithinTheBudget) {
    const std::size_t budget = std::size_t(1) << 21;
    LabelReduction p = planLabelReduction({256, 256, 108}, budget);
    EXPECT_EQ(p.factor, 2);  // 7.1 M voxels; 128 x 128 x 54 = 0.88 M cells
    EXPECT_EQ(p.cells, (std::array<int, 3>{128, 128, 54}));
    EXPECT_EQ(planLabelReduction({1024, 1024, 1024}, budget).factor, 8);  // 2^30 / 8^3 = 2^21
    EXPECT_EQ(planLabelReduction({512, 512, 400}, budget).factor, 4);     // f = 3: 171 x 171 x 134 = 3.9 M
    p = planLabelReduction({100, 100, 20}, budget);
    EXPECT_EQ(p.factor, 1);
    EXPECT_EQ(p.cells, (std::array<int, 3>{100, 100, 20}));
    EXPECT_EQ(planLabelReduction({7, 5, 3}, 1).cells, (std::array<int, 3>{1, 1, 1})) << "a budget of one cell";
}

TEST(LabelReduction, ACellIsLabelledWhenHalfItsBlockIsWithTheMajorityLabel) {
    Geometry g;
    g.dims = {5, 2, 2};  // blocks of 2: two full blocks along x, then an edge block one voxel wide
    LabelMap m(g);
    const LabelReduction plan = planLabelReduction(g.dims, 3);
    ASSERT_EQ(plan.factor, 2);
    // Block 0 (x 0..1): 4 of 8 voxels labelled, 3 of them 5 and one 7 -> labelled 5.
    m.at(0, 0, 0) = 5;
    m.at(1, 0, 0) = 7;
    m.at(0, 1, 1) = 5;
    m.at(1, 1, 1) = 5;
    // Block 1 (x 2..3): 3 of 8 labelled -> background.
    m.at(2, 0, 0) = m.at(3, 0, 0) = m.at(2, 1, 0) = 2;
    // Edge block (x 4): 2 of its 4 voxels labelled, 9 and 9 -> 9.
    m.at(4, 0, 0) = m.at(4, 1, 1) = 9;
    LabelMap out;
    reduceLabels(m, plan, out);
    ASSERT_EQ(out.geometry().dims, (std::array<int, 3>{3, 1, 1}));
    EXPECT_EQ(out.at(0, 0, 0), 5);
    EXPECT_EQ(out.at(1, 0, 0), 0);
    EXPECT_EQ(out.at(2, 0, 0), 9);
}

TEST(LabelReduction, FactorOneIsACopy) {
    Geometry g;
    g.dims = {9, 7, 5};
    LabelMap m(g);
    for (std::size_t i = 0; i < m.voxelCount(); ++i) m[i] = std::uint8_t((i * 37) % 5);
    LabelMap out;
    reduceLabels(m, planLabelReduction(g.dims, 1000), out);
    ASSERT_EQ(out.voxelCount(), m.voxelCount());
    for (std::size_t i = 0; i < m.voxelCount(); ++i) ASSERT_EQ(out[i], m[i]) << i;
    EXPECT_TRUE(out.geometry().sameGrid(g));
}

TEST(LabelReduction, CellsSitOnTheCentresOfTheirBlocksInPatientSpace) {
    Geometry g;
    g.dims = {40, 30, 20};
    g.spacing = {0.5, 0.8, 2.0};
    g.origin = {-10, 4, 30};
    const double c = std::cos(0.4), s = std::sin(0.4);
    g.direction = Mat3::fromColumns({c, s, 0}, {-s, c, 0}, {0, 0, 1});
    const LabelReduction plan = planLabelReduction(g.dims, 14 * 10 * 7);  // ceil(40/3) x ceil(30/3) x ceil(20/3)
    ASSERT_EQ(plan.factor, 3);
    const Geometry r = reducedGeometry(g, plan);
    for (const Vec3 cell : {Vec3{0, 0, 0}, Vec3{5, 2, 3}, Vec3{12, 9, 5}}) {
        const Vec3 fineCentre{cell.x * 3 + 1, cell.y * 3 + 1, cell.z * 3 + 1};
        EXPECT_LT(norm(r.voxelToPatient(cell) - g.voxelToPatient(fineCentre)), 1e-9);
    }
}

TEST(LabelReduction, ABallKeepsItsVolume) {
    Geometry g;
    g.dims = {64, 64, 64};
    LabelMap m(g);
    std::size_t fine = 0;
    for (int k = 0; k < 64; ++k)
        for (int j = 0; j < 64; ++j)
            for (int i = 0; i < 64; ++i)
                if ((i - 30.3) * (i - 30.3) + (j - 33.1) * (j - 33.1) + (k - 31.7) * (k - 31.7) < 20.0 * 20.0) {
                    m.at(i, j, k) = 4;
                    ++fine;
                }
    LabelMap out;
    reduceLabels(m, planLabelReduction(g.dims, 16 * 16 * 16), out);
    ASSERT_EQ(out.geometry().dims, (std::array<int, 3>{16, 16, 16}));
    const double coarse = double(out.count(4)) * 64.0;  // 4^3 voxels a cell
    EXPECT_NEAR(coarse, double(fine), 0.1 * double(fine)) << "a ball of " << fine << " voxels";
    EXPECT_EQ(out.count(4) + out.count(0), out.voxelCount());
}
