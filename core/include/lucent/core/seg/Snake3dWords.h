/// @brief The 3D snake's per-word maths, shared by the CPU and CUDA engines (LUCENT_HD): the binary
/// level set of the domain packed 64 voxels a word along i, the morphological curvature operators
/// SI and IS on those words, the gradient test of the region term, and the exact threshold the
/// region term compares each voxel with. Integer operations only, so both engines take the same
/// decisions bit for bit. The values are clamped to the run's clip (Snake3dClamp) before any of it.
#pragma once

#include "lucent/core/seg/HostDevice.h"

#include <cstdint>

// The plane loops below unroll fully, so each plane's mask is a constant and the tests fold away
// (nvcc unrolls these constant-trip loops by itself; its host pass would pass a pragma on to g++).
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define LUCENT_SNAKE3D_UNROLL _Pragma("GCC unroll 32")
#else
#define LUCENT_SNAKE3D_UNROLL
#endif

namespace lucent {

/// The domain's shape in words: nx voxels a row packed into `words` 64-bit words (bit b of word w is
/// voxel i = w * 64 + b from the domain's low corner; bits past nx stay 0), ny rows a slice, nz slices.
struct Snake3dShape {
    int nx = 0, ny = 0, nz = 0, words = 0;
    LUCENT_HD long long wordCount() const { return (long long)words * ny * nz; }
    LUCENT_HD long long rowOf(int j, int k) const { return ((long long)k * ny + j) * words; }
    /// The bits of word w that hold voxels (the last word of a row may be partial).
    LUCENT_HD std::uint64_t validBits(int w) const {
        const int left = nx - w * 64;
        return left >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << left) - 1;
    }
};

/// The 27 neighbourhood words of word w of row (j, k): n[(di + 1) * 9 + (dj + 1) * 3 + (dk + 1)] holds
/// at bit b the voxel (i + di, j + dj, k + dk) of the voxel i at bit b. Outside the domain reads 0
/// (scikit-image's border_value = 0 for both erosion and dilation).
LUCENT_HD inline void snake3dNeighbourhood(const std::uint64_t* u, const Snake3dShape& s, int w, int j, int k,
                                           std::uint64_t n[27]) {
    for (int dj = -1; dj <= 1; ++dj)
        for (int dk = -1; dk <= 1; ++dk) {
            const int jj = j + dj, kk = k + dk;
            std::uint64_t c = 0, prev = 0, next = 0;
            if (jj >= 0 && jj < s.ny && kk >= 0 && kk < s.nz) {
                const std::uint64_t* row = u + s.rowOf(jj, kk);
                c = row[w];
                prev = w > 0 ? row[w - 1] : 0;
                next = w + 1 < s.words ? row[w + 1] : 0;
            }
            const int r = (dj + 1) * 3 + (dk + 1);
            n[r] = (c << 1) | (prev >> 63);   // di = -1: voxel i - 1 at bit b
            n[9 + r] = c;                     // di = 0
            n[18 + r] = (c >> 1) | (next << 63);  // di = +1
        }
}

/// The nine discrete planes through the centre of a 3 x 3 x 3 cube (scikit-image's _P3): a . d = 0 for
/// a in {e_i, e_j, e_k, (0,1,-1), (0,1,1), (1,0,-1), (1,0,1), (1,-1,0), (1,1,0)}; bit n of a mask is
/// neighbourhood entry n.
LUCENT_HD constexpr std::uint32_t snake3dPlane(int p) {
    constexpr int a[9][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 1, -1}, {0, 1, 1},
                             {1, 0, -1}, {1, 0, 1}, {1, -1, 0}, {1, 1, 0}};
    std::uint32_t mask = 0;
    for (int di = -1; di <= 1; ++di)
        for (int dj = -1; dj <= 1; ++dj)
            for (int dk = -1; dk <= 1; ++dk)
                if (a[p][0] * di + a[p][1] * dj + a[p][2] * dk == 0)
                    mask |= std::uint32_t(1) << ((di + 1) * 9 + (dj + 1) * 3 + (dk + 1));
    return mask;
}

/// SI (sup of infs): a voxel is 1 when all nine voxels of some plane through it are 1.
LUCENT_HD inline std::uint64_t snake3dSupInf(const std::uint64_t n[27]) {
    std::uint64_t out = 0;
    LUCENT_SNAKE3D_UNROLL
    for (int p = 0; p < 9; ++p) {
        const std::uint32_t plane = snake3dPlane(p);
        std::uint64_t all = ~std::uint64_t(0);
        LUCENT_SNAKE3D_UNROLL
        for (int e = 0; e < 27; ++e)
            if (plane >> e & 1u) all &= n[e];
        out |= all;
    }
    return out;
}

/// IS (inf of sups): a voxel is 1 when every plane through it holds a 1.
LUCENT_HD inline std::uint64_t snake3dInfSup(const std::uint64_t n[27]) {
    std::uint64_t out = ~std::uint64_t(0);
    LUCENT_SNAKE3D_UNROLL
    for (int p = 0; p < 9; ++p) {
        const std::uint32_t plane = snake3dPlane(p);
        std::uint64_t any = 0;
        LUCENT_SNAKE3D_UNROLL
        for (int e = 0; e < 27; ++e)
            if (plane >> e & 1u) any |= n[e];
        out &= any;
    }
    return out;
}

/// The voxels of word w of row (j, k) where numpy.gradient(u) is not zero along some axis: central
/// differences u[x+1] != u[x-1] inside, one-sided ones at the domain's faces (u[1] != u[0], u[n-1] !=
/// u[n-2]). The region term moves only these voxels.
LUCENT_HD inline std::uint64_t snake3dGradient(const std::uint64_t n[27], const Snake3dShape& s, int w, int j, int k) {
    const std::uint64_t c = n[9 + 4], left = n[4], right = n[18 + 4];
    std::uint64_t first = w == 0 ? 1u : 0u;
    const int lastBit = (s.nx - 1) - w * 64;
    std::uint64_t last = lastBit >= 0 && lastBit < 64 ? std::uint64_t(1) << lastBit : 0u;
    if (first & last) first = last = 0;  // a row of one voxel has no gradient (never: nx >= 3)
    std::uint64_t g = ((left ^ right) & ~(first | last)) | ((c ^ right) & first) | ((c ^ left) & last);
    // j: rows (j - 1, k) = n[9 + 1] and (j + 1, k) = n[9 + 7]; k: n[9 + 3] and n[9 + 5].
    const std::uint64_t jm = n[9 + 1], jp = n[9 + 7], km = n[9 + 3], kp = n[9 + 5];
    g |= j == 0 ? (jp ^ c) : j == s.ny - 1 ? (c ^ jm) : (jp ^ jm);
    g |= k == 0 ? (kp ^ c) : k == s.nz - 1 ? (c ^ km) : (kp ^ km);
    return g & s.validBits(w);
}

/// The values the run sees (Snake3dParams::clip): every value the sums add and the region term compares
/// is clamped to [lo, hi] first. On int16 data the bounds are whole numbers (snake3dClamp rounds them) so
/// that the sums stay exact int64 ones; without a clip they are the int16 range, where the clamp changes
/// nothing. Float data (CPU only) clamps to the range's own bounds (infinite without a clip).
struct Snake3dClamp {
    long long lo = -32768, hi = 32767;
    double lower = -__builtin_huge_val(), upper = __builtin_huge_val();
    LUCENT_HD long long operator()(long long v) const { return v < lo ? lo : v > hi ? hi : v; }
    /// Float data: NaN stays NaN (no comparison holds), as the engine without a clip sees it.
    LUCENT_HD double operator()(double v) const { return v < lower ? lower : v > upper ? upper : v; }
};

/// The region term's rule for one iteration, from the exact region sums: c1 = S1 / N1 inside, c0 =
/// S0 / N0 outside (0 for an empty region, as scikit-image's 1e-8 gives). A voxel of value v with a
/// gradient becomes 1 when (v - c1)^2 < (v - c0)^2, 0 when it is greater, and stays when equal; with
/// lambda1 = lambda2 = 1 that is a comparison of v with T = (c0 + c1) / 2, on the side of the nearer
/// mean. T = q exactly, or lies strictly between q and q + 1.
struct Snake3dThreshold {
    long long q = 0;
    int exact = 0;      ///< 1: T == q
    int direction = 0;  ///< sign(c0 - c1): +1 the inside is darker (v < T joins), -1 brighter, 0 no move
};

/// The threshold for integer data; S and N are the sums and counts (int64, exact in any order).
LUCENT_HD inline Snake3dThreshold snake3dThreshold(long long s1, long long n1, long long s0, long long n0) {
    __extension__ typedef __int128 I128;  // exact products of 64-bit sums and counts
    const I128 a1 = n1 > 0 ? s1 : 0, b1 = n1 > 0 ? n1 : 1, a0 = n0 > 0 ? s0 : 0, b0 = n0 > 0 ? n0 : 1;
    const I128 diff = a0 * b1 - a1 * b0;  // sign(c0 - c1)
    const I128 num = a0 * b1 + a1 * b0, den = 2 * b0 * b1;  // T = num / den, den > 0
    I128 q = num / den;
    if (num % den != 0 && num < 0) q -= 1;  // floor
    Snake3dThreshold t;
    t.q = (long long)q;
    t.exact = q * den == num ? 1 : 0;
    t.direction = diff > 0 ? 1 : diff < 0 ? -1 : 0;
    return t;
}

/// The new state of a voxel of value v with a gradient: 1, 0, or `current` on the threshold.
LUCENT_HD inline int snake3dDecide(long long v, const Snake3dThreshold& t, int current) {
    const int cmp = v < t.q ? -1 : v > t.q ? 1 : (t.exact ? 0 : -1);  // sign(v - T)
    const int aux = t.direction * cmp;                                  // sign of scikit-image's aux
    return aux < 0 ? 1 : aux > 0 ? 0 : current;
}

/// The same rule for float data, from means in double (CPU engine only).
inline int snake3dDecide(double v, double c0, double c1, int current) {
    const double aux = (v - c1) * (v - c1) - (v - c0) * (v - c0);
    return aux < 0 ? 1 : aux > 0 ? 0 : current;
}

}  // namespace lucent
