/// @brief Fuzzy C-means update rules (paper 000, Eq. 3 and Eq. 4), shared by every FCM path.
#pragma once

#include "lucent/core/seg/HostDevice.h"

#include <cmath>

namespace lucent {

/// base^exponent, with the usual m = 2 (exponent 2) as one correctly rounded product: what libm's
/// pow gives for it on the host, and not always what CUDA's pow gives on the device.
LUCENT_HD inline double fcmPow(double base, double exponent) { return exponent == 2.0 ? base * base : pow(base, exponent); }

/// Eq. 4: memberships of value x to c centres, fuzziness m. A value equal to a centre belongs to
/// it fully (the equation divides by that distance); ties go to the lowest index.
///
/// Eq. 4 as written, u_k = 1 / sum_j (d_k / d_j)^p with p = 2 / (m - 1), costs c^2 powers per value
/// (255 clusters never finished). It equals u_k = d_k^-p / sum_j d_j^-p: one power per centre. The
/// distances are divided by the smallest first, so every term lies in (0, 1] (the nearest centre's
/// is 1): nothing overflows, and the sum is at least 1. Results agree with the c^2 form to about
/// p ulps (tested to 1e-9).
LUCENT_HD inline void fcmMemberships(double x, const double* centres, int c, double m, double* u) {
    for (int k = 0; k < c; ++k) {
        if (x == centres[k]) {
            for (int j = 0; j < c; ++j) u[j] = j == k ? 1.0 : 0.0;
            return;
        }
    }
    const double power = 2.0 / (m - 1.0);
    double nearest = fabs(x - centres[0]);
    for (int k = 1; k < c; ++k) {
        const double d = fabs(x - centres[k]);
        if (d < nearest) nearest = d;
    }
    double sum = 0.0;
    for (int k = 0; k < c; ++k) {
        u[k] = fcmPow(nearest / fabs(x - centres[k]), power);
        sum += u[k];
    }
    for (int k = 0; k < c; ++k) u[k] /= sum;
}

}  // namespace lucent
