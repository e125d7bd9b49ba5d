/// @brief kFOE affinity between face neighbours, quantised to 16 bits, shared by CPU and CUDA engines.
/// mu = sqrt(g1 * g2), g1 = exp(-((a+b)/2 - M)^2 / (2 S^2)), g2 = exp(-(a-b)^2 / (2 D^2)) (paper 001).
#pragma once

#include "lucent/core/seg/HostDevice.h"

#include <cmath>
#include <cstdint>

namespace lucent {

constexpr std::uint16_t kFullStrength = 65535;

/// Quantisation is what makes CPU and CUDA maps equal bit for bit: the max-min sweep only compares.
LUCENT_HD inline std::uint16_t quantiseStrength(float mu) {
    return static_cast<std::uint16_t>(mu * 65535.0f + 0.5f);
}

struct AffinityParams {
    double mean = 0, objectSigma = 1, diffSigma = 1;
};

/// g1 and g2 computed in double on the host; engines look them up (int16 volumes) so the device
/// does only IEEE-exact float multiply and sqrt.
inline float affinityG1(double sum, const AffinityParams& p) {
    const double m = 0.5 * sum - p.mean;
    return static_cast<float>(std::exp(-m * m / (2.0 * p.objectSigma * p.objectSigma)));
}
inline float affinityG2(double difference, const AffinityParams& p) {
    return static_cast<float>(std::exp(-difference * difference / (2.0 * p.diffSigma * p.diffSigma)));
}
LUCENT_HD inline std::uint16_t combineAffinity(float g1, float g2) { return quantiseStrength(sqrtf(g1 * g2)); }

}  // namespace lucent
