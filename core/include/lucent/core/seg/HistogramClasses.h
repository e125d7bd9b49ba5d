/// @brief The class a value belongs to in a volume's histogram (the tissue a seed was clicked on):
/// the range of values a Gaussian mixture of the histogram gives to the value's own component,
/// cut at the histogram's lowest point between that component and its neighbours.
///
/// Why both: the mixture's posterior separates a narrow class from a shoulder with no valley of
/// its own (the CT head's brain at 23 +- 22 HU from the fat beside it: -38..82), but a broad class
/// with a long tail (bone, 318 +- 561 HU over partial-volume voxels) would start at 83 HU, inside
/// soft tissue; the histogram's own valley between the two (where the soft-tissue peak has fallen
/// to its lowest before bone) puts bone's start at ~320 HU.
#pragma once

#include "lucent/core/ValueHistogram.h"

#include <vector>

namespace lucent {

struct MixtureComponent {
    double weight = 0, mean = 0, sd = 1;
};

/// A Gaussian mixture fitted to the histogram by EM (components started at its (k + 1/2)/K
/// quantiles), with the number of components (2..maxComponents) chosen by BIC; sorted by mean.
std::vector<MixtureComponent> fitHistogramMixture(const ValueHistogram& histogram, int maxComponents = 6);

/// [lower, upper] of the class `value` belongs to (bin edges; the value is always inside).
struct ValueClass {
    double lower = 0, upper = 0;
};
ValueClass histogramClassOf(const ValueHistogram& histogram, const std::vector<MixtureComponent>& mixture, double value);

}  // namespace lucent
