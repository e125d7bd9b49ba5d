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
/// --max-iterations, --slice, --rect, --step-max, --min-segment, --roi, --mask, --threads, --backend, and the
/// 3D snake's --box, --radius (repeatable), --margin, --iterations, --smoothing.
std::set<std::string> segmentValueOptions();
/// Flags of a request: --propagate, --per-voxel.
std::set<std::string> segmentFlags();
/// The request `cl` describes for `method` (volume and mask are the caller's); UsageError when a
/// method's required options are missing or malformed.
SegmentationRequest requestFromOptions(const CommandLine& cl, Method method);
/// Region growing with neither --lower nor --upper: its interval is estimated at the first seed.
bool intervalToEstimate(const CommandLine& cl, Method method);
/// Sets the request's interval from the first seed's tissue (the viewer's rule, SeedInterval.h) and
/// returns the line that tells it: "interval A..B estimated at the first seed".
std::string estimateInterval(const Volume& volume, SegmentationRequest& request);

}  // namespace lucent::app
