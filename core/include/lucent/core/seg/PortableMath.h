/// @brief Elementary functions that give the same bits on host and device (portableLog), for
/// decisions that CPU and CUDA engines must take identically.
#pragma once

#include "lucent/core/seg/HostDevice.h"

#include <cmath>

namespace lucent {

/// Natural logarithm of a positive normal x from frexp, ldexp, division and fma alone: each is
/// exact or correctly rounded on host and device, so both give the same bits (libm's log and
/// CUDA's log may differ in the last place, and one place can flip a comparison of two GL
/// values). Every multiply-add is an explicit fma, so no compiler contraction can change a
/// rounding. fdlibm's method: x = 2^k (1 + f), 1 + f in [sqrt(1/2), sqrt(2)), s = f / (2 + f),
/// log(1 + f) = f - f^2/2 + s (f^2/2 + R(s^2)) (f^2/2 fused where fdlibm rounds it); within 1 ulp
/// of std::log. x <= 0 gives -inf, NaN NaN, +inf +inf; subnormals are not handled (callers floor
/// their arguments far above them).
LUCENT_HD inline double portableLog(double x) {
    if (!(x > 0.0)) return x == 0.0 || x < 0.0 ? -HUGE_VAL : x;  // NaN stays NaN
    if (x > 1.7976931348623157e308) return x;                    // +inf
    int k = 0;
    double m = frexp(x, &k);  // x = m 2^k, m in [1/2, 1)
    if (m < 0.70710678118654752440) {
        m = 2.0 * m;  // exact
        k -= 1;
    }
    const double f = m - 1.0;  // exact (Sterbenz)
    const double s = f / (2.0 + f);
    const double z = s * s;
    // R(z) = Lg1 z + ... + Lg7 z^7 (fdlibm's e_log.c coefficients), Horner with fma.
    double r = 1.479819860511658591e-01;
    r = fma(r, z, 1.531383769920937332e-01);
    r = fma(r, z, 1.818357216161805012e-01);
    r = fma(r, z, 2.222219843214978396e-01);
    r = fma(r, z, 2.857142874366239149e-01);
    r = fma(r, z, 3.999999999940941908e-01);
    r = fma(r, z, 6.666666666666735130e-01);
    const double h = 0.5 * f;  // exact
    // tail = s (f^2/2 + R) + k ln2_lo; f^2/2 - tail as one fma, so nothing is left to contract.
    const double dk = static_cast<double>(k);
    const double tail = fma(s, fma(h, f, r * z), dk * 1.90821492927058770002e-10);
    return fma(dk, 6.93147180369123816490e-01, f - fma(h, f, -tail));
}

}  // namespace lucent
