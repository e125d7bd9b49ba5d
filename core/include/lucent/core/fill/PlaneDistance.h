/// @brief The per-line arithmetic of fill between slices' distance transforms and shapes, compiled
/// for host and device so that the CPU and CUDA fills compute the same doubles in the same order
/// and fill the same voxels. The CUDA file that includes it is compiled with -fmad=false (and the
/// host with no FMA contraction), so no multiply-add is fused on one side and not the other.
#pragma once

#include "lucent/core/seg/HostDevice.h"

#include <cmath>
#include <cstdint>

namespace lucent::fill {

/// Finite, so that the lower envelope's differences stay numbers.
constexpr double kFarSquared = 1e20;
/// A column step count meaning "no target pixel in this column".
constexpr std::int32_t kNoTarget = 1 << 29;

/// One line of the separable transform: d[q] = min_p f[p] + (s (q - p))^2 (Felzenszwalb-Huttenlocher
/// 2012, the lower envelope of parabolas). v and z are scratch of n and n + 1 entries.
LUCENT_HD inline void distanceEnvelope(const double* f, int n, double s, double* d, int* v, double* z) {
    int k = 0;
    v[0] = 0;
    z[0] = -HUGE_VAL;
    z[1] = HUGE_VAL;
    for (int q = 1; q < n; ++q) {
        const double xq = q * s;
        // z[0] is -inf, so the loop ends at k = 0 at the latest.
        double cut;
        for (;;) {
            const double xp = v[k] * s;
            cut = ((f[q] + xq * xq) - (f[v[k]] + xp * xp)) / (2 * (xq - xp));
            if (cut > z[k]) break;
            --k;
        }
        ++k;
        v[k] = q;
        z[k] = cut;
        z[k + 1] = HUGE_VAL;
    }
    k = 0;
    for (int q = 0; q < n; ++q) {
        const double xq = q * s;
        while (z[k + 1] < xq) ++k;
        const double dx = xq - v[k] * s;
        d[q] = dx * dx + f[v[k]];
    }
}

/// One row of a squared distance transform in mm^2, from the row's column step counts (pixels to the
/// nearest target pixel of each column, kNoTarget for none): the envelope along the row, or
/// kFarSquared everywhere when the whole box holds no target (no column has one). f, v, z: scratch of
/// w, w and w + 1 entries.
LUCENT_HD inline void rowSquaredDistance(const std::int32_t* steps, int w, double su, double sv, double* out, double* f,
                                         int* v, double* z) {
    bool any = false;
    for (int x = 0; x < w; ++x) {
        any = any || steps[x] < kNoTarget;
        f[x] = steps[x] >= kNoTarget ? kFarSquared : (steps[x] * sv) * (steps[x] * sv);
    }
    if (!any) {
        for (int x = 0; x < w; ++x) out[x] = kFarSquared;
        return;
    }
    distanceEnvelope(f, w, su, out, v, z);
}

/// Signed distance in mm, negative inside, from the squared distances to the set and to the background.
LUCENT_HD inline double signedFromSquared(bool inside, double toSet, double toBackground) {
    return inside ? -sqrt(toBackground) : sqrt(toSet);
}

/// Signed-distance interpolation at fraction t from a (0) to b (1): inside where the blend is negative.
LUCENT_HD inline bool blendInside(double sdA, double sdB, double t) { return (1 - t) * sdA + t * sdB < 0; }

/// A region with no partner on the other labelled slice, on the slice `fromOwn` slices from its own
/// of a gap of `gap`: the depth in mm its pixels must exceed to remain (eroded in proportion to the
/// distance, gone halfway), or -1 when nothing remains.
LUCENT_HD inline double vanishDepth(int fromOwn, int gap, double deepest) {
    const double t = double(fromOwn) / gap;
    if (2 * t >= 1) return -1;  // nothing lies deeper than the deepest pixel: an empty shape
    return 2 * t * deepest;
}

}  // namespace lucent::fill
