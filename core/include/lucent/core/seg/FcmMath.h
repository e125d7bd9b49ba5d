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
LUCENT_HD inline void fcmMemberships(double x, const double* centres, int c, double m, double* u) {
    for (int k = 0; k < c; ++k) {
        if (x == centres[k]) {
            for (int j = 0; j < c; ++j) u[j] = j == k ? 1.0 : 0.0;
            return;
        }
    }
    const double power = 2.0 / (m - 1.0);
    for (int k = 0; k < c; ++k) {
        const double dk = fabs(x - centres[k]);
        double s = 0.0;
        for (int j = 0; j < c; ++j) s += fcmPow(dk / fabs(x - centres[j]), power);
        u[k] = 1.0 / s;
    }
}

}  // namespace lucent
