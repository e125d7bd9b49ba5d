/// @brief Small 3-vector and 3x3 matrix of doubles for image geometry (LPS millimetres).
#pragma once

#include <array>
#include <cmath>

namespace lucent {

/// A point or direction in patient space, or a continuous voxel index.
struct Vec3 {
    double x = 0, y = 0, z = 0;

    constexpr double operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
    constexpr double& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
    friend constexpr Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
    friend constexpr Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
    friend constexpr Vec3 operator*(Vec3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
    friend constexpr Vec3 operator*(double s, Vec3 a) { return a * s; }
    friend constexpr bool operator==(Vec3 a, Vec3 b) = default;
};

constexpr double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
constexpr Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double norm(Vec3 a) { return std::sqrt(dot(a, a)); }
inline Vec3 normalized(Vec3 a) {
    const double n = norm(a);
    return n > 0 ? a * (1.0 / n) : a;
}

/// 3x3 matrix stored by columns: col[0], col[1], col[2].
struct Mat3 {
    std::array<Vec3, 3> col{Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}};

    static Mat3 fromColumns(Vec3 a, Vec3 b, Vec3 c) { return Mat3{{a, b, c}}; }
    double at(int row, int column) const { return col[column][row]; }
    Vec3 operator*(Vec3 v) const { return col[0] * v.x + col[1] * v.y + col[2] * v.z; }
    double determinant() const { return dot(col[0], cross(col[1], col[2])); }
    Mat3 transposed() const {
        return fromColumns({col[0].x, col[1].x, col[2].x}, {col[0].y, col[1].y, col[2].y},
                           {col[0].z, col[1].z, col[2].z});
    }
    /// General inverse (direction matrices are orthonormal, but files may carry sheared ones).
    Mat3 inverse() const {
        const double det = determinant();
        const Vec3 r0 = cross(col[1], col[2]) * (1.0 / det);
        const Vec3 r1 = cross(col[2], col[0]) * (1.0 / det);
        const Vec3 r2 = cross(col[0], col[1]) * (1.0 / det);
        // r0, r1, r2 are the rows of the inverse.
        return Mat3::fromColumns(r0, r1, r2).transposed();
    }
    friend bool operator==(const Mat3&, const Mat3&) = default;
};

}  // namespace lucent
