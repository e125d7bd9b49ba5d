/// @brief Voxel <-> patient transforms on an oblique grid, grid comparison, JSON escaping.
#include "lucent/core/Geometry.h"
#include "lucent/core/JsonWriter.h"
#include "lucent/core/ParallelFor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <sstream>
#include <stdexcept>

using namespace lucent;

namespace {
Geometry oblique() {
    Geometry g;
    g.dims = {64, 48, 30};
    g.spacing = {0.5, 0.75, 2.0};
    g.origin = {-10, 20, 5};
    const double a = 0.3;
    const Vec3 r{std::cos(a), std::sin(a), 0}, c{-std::sin(a), std::cos(a), 0};
    g.direction = Mat3::fromColumns(r, c, cross(r, c));
    return g;
}
}  // namespace

TEST(Geometry, VoxelToPatientFollowsDirectionAndSpacing) {
    const Geometry g = oblique();
    const Vec3 p = g.voxelToPatient({2, 0, 0});
    EXPECT_NEAR(p.x, -10 + 2 * 0.5 * std::cos(0.3), 1e-12);
    EXPECT_NEAR(p.y, 20 + 2 * 0.5 * std::sin(0.3), 1e-12);
    EXPECT_NEAR(p.z, 5, 1e-12);
    const Vec3 q = g.voxelToPatient({0, 0, 3});
    EXPECT_NEAR(q.z, 5 + 6.0, 1e-12);
}

TEST(Geometry, RoundTripsThroughPatientSpace) {
    const Geometry g = oblique();
    for (Vec3 ijk : {Vec3{0, 0, 0}, Vec3{63, 47, 29}, Vec3{12.25, 3.5, 17.75}}) {
        const Vec3 back = g.patientToVoxel(g.voxelToPatient(ijk));
        EXPECT_NEAR(back.x, ijk.x, 1e-9);
        EXPECT_NEAR(back.y, ijk.y, 1e-9);
        EXPECT_NEAR(back.z, ijk.z, 1e-9);
    }
}

TEST(Geometry, SameGridDetectsShiftsAndSpacing) {
    const Geometry g = oblique();
    Geometry h = g;
    EXPECT_TRUE(g.sameGrid(h));
    h.origin.x += 0.01;
    EXPECT_FALSE(g.sameGrid(h));
    h = g;
    h.spacing.z = 2.1;
    EXPECT_FALSE(g.sameGrid(h));
    h = g;
    h.dims[2] = 31;
    EXPECT_FALSE(g.sameGrid(h));
}

TEST(JsonWriter, EscapesAndNests) {
    std::ostringstream s;
    JsonWriter json(s, false);
    json.beginObject().key("a\"b").value("line\nbreak\x01").key("n").array(std::vector<double>{1, 2.5}).endObject();
    EXPECT_EQ(s.str(), "{\"a\\\"b\":\"line\\nbreak\\u0001\",\"n\":[1,2.5]}");
}

TEST(ParallelFor, VisitsEveryIndexOnceAndRethrows) {
    std::vector<std::atomic<int>> seen(1000);
    parallelFor(seen.size(), 4, [&](std::size_t i) { seen[i]++; });
    for (auto& s : seen) EXPECT_EQ(s.load(), 1);
    EXPECT_THROW(parallelFor(100, 3, [](std::size_t i) { if (i == 42) throw std::runtime_error("x"); }),
                 std::runtime_error);
}
