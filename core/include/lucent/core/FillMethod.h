/// @brief The methods of fill between slices (SliceFill.h), apart so that the shape code they name
/// (core/src/fill) needs nothing else of the fill.
#pragma once

namespace lucent {

/// How the shape between two labelled slices is made.
enum class FillMethod {
    /// Albu et al. 2008: regions moved onto each other's centroid, their morphological median,
    /// recursively. The default: the better on the shapes measured (tests/core/SliceFillTest.cpp).
    Morphological,
    /// The baseline: a weighted mean of the two slices' signed distance maps, thresholded at 0.
    SignedDistance,
};

}  // namespace lucent
