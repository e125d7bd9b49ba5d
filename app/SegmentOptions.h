/// @brief The options of `lucent segment` that make a request (seeds, interval, thresholds,
/// clusters, rectangle), shared with the viewer's `--live`, so both read them one way.
#pragma once

#include "CommandLine.h"

#include "lucent/core/seg/SegmentationRequest.h"

#include <set>
#include <string>

namespace lucent::app {

/// Valued options of a request: --seed (repeatable), --lower, --upper, --connectivity,
/// --threshold, --object-mean, --object-sigma, --diff-sigma, --clusters, --fuzziness, --epsilon,
/// --max-iterations, --slice, --rect, --step-max, --min-segment, --roi, --mask, --threads, --backend.
std::set<std::string> segmentValueOptions();
/// Flags of a request: --propagate, --per-voxel.
std::set<std::string> segmentFlags();
/// The request `cl` describes for `method` (volume and mask are the caller's); UsageError when a
/// method's required options are missing or malformed.
SegmentationRequest requestFromOptions(const CommandLine& cl, Method method);

}  // namespace lucent::app
