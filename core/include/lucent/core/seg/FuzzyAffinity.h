/// @brief kFOE affinity between face neighbours, quantised to 16 bits, shared by CPU and CUDA engines.
/// mu = sqrt(g1 * g2), g1 = exp(-((a+b)/2 - M)^2 / (2 S^2)), g2 = exp(-(a-b)^2 / (2 D^2)) (paper 001).
#pragma once

#include "lucent/core/seg/HostDevice.h"

#include <cmath>
#include <cstdint>

namespace lucent {

constexpr std::uint16_t kFullStrength = 65535;

/// Quantisation is what makes CPU and CUDA maps equal bit for bit: the max-min sweep only compares.
/// The product is rounded on its own on both sides: nvcc would otherwise fuse it with the addition
/// into one fma (one rounding instead of two) and move some strengths by one step.
LUCENT_HD inline std::uint16_t quantiseStrength(float mu) {
#ifdef __CUDA_ARCH__
    const float scaled = __fmul_rn(mu, 65535.0f);
#else
    const float scaled = mu * 65535.0f;
#endif
    return static_cast<std::uint16_t>(scaled + 0.5f);
}

/// The quantised strength a voxel needs to belong to the object at `threshold` (0..1); at least 1,
/// so voxels no path reaches never belong.
inline std::uint16_t thresholdStrength(double threshold) {
    const std::uint16_t t = quantiseStrength(static_cast<float>(threshold));
    return t > 0 ? t : 1;
}

struct AffinityParams {
    double mean = 0, objectSigma = 1, diffSigma = 1;
};

/// exp(x) for x <= 0 from fma, rint and ldexp alone, each exact or correctly rounded on host and
/// device, so the CPU and CUDA engines get the same bits (libm's exp and CUDA's exp may differ in
/// the last place, and one place can move a quantised affinity). Relative error below 1e-15.
LUCENT_HD inline double portableExp(double x) {
    if (!(x > -745.0)) return 0.0;  // underflow (and NaN): no affinity
    if (x > 0.0) x = 0.0;           // the affinity exponents are never positive
    const double k = rint(x * 1.4426950408889634);
    double r = fma(-k, 6.93147180369123816490e-01, x);  // ln 2 split in two (Cody and Waite)
    r = fma(-k, 1.90821492927058770002e-10, r);
    // Taylor series to r^12 on |r| <= ln2/2 (truncation below 1e-16 relative), Horner with fma.
    double p = 1.0 / 479001600.0;
    p = fma(p, r, 1.0 / 39916800.0);
    p = fma(p, r, 1.0 / 3628800.0);
    p = fma(p, r, 1.0 / 362880.0);
    p = fma(p, r, 1.0 / 40320.0);
    p = fma(p, r, 1.0 / 5040.0);
    p = fma(p, r, 1.0 / 720.0);
    p = fma(p, r, 1.0 / 120.0);
    p = fma(p, r, 1.0 / 24.0);
    p = fma(p, r, 1.0 / 6.0);
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    return ldexp(p, static_cast<int>(k));
}

/// g1 from the sum of the two values, g2 from their difference, in double; engines look them up
/// (int16 volumes) or call them per edge (float volumes). 0.5 * sum is exact, so a contraction
/// of the subtraction into an fma cannot change the result.
LUCENT_HD inline float affinityG1(double sum, const AffinityParams& p) {
    const double m = 0.5 * sum - p.mean;
    return static_cast<float>(portableExp(-(m * m) / (2.0 * p.objectSigma * p.objectSigma)));
}
LUCENT_HD inline float affinityG2(double difference, const AffinityParams& p) {
    return static_cast<float>(portableExp(-(difference * difference) / (2.0 * p.diffSigma * p.diffSigma)));
}
LUCENT_HD inline std::uint16_t combineAffinity(float g1, float g2) { return quantiseStrength(sqrtf(g1 * g2)); }

}  // namespace lucent
