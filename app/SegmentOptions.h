/// @brief The options of `lucent segment` that make a request (seeds, interval, thresholds,
/// clusters, rectangle), shared with the viewer's `--live`, so both read them one way.
#pragma once

#include "CommandLine.h"

#include "lucent/core/seg/SegmentationRequest.h"

#include <set>
#include <string>
#include <string_view>

namespace lucent::app {

/// Valued options of a request: every row of the parameter table (MethodParameters.h) that takes a
/// value, and the structural ones (--seed, --slice, --rect, --roi, --box, --radius, --mask, --seeds-mask,
/// --threads, --backend).
std::set<std::string> segmentValueOptions();
/// Flags of a request: the table's switches (--propagate, --per-voxel).
std::set<std::string> segmentFlags();
/// The request `cl` describes for `method` (volume and mask are the caller's); UsageError when a
/// method's required options are missing or malformed.
SegmentationRequest requestFromOptions(const CommandLine& cl, Method method);
/// "[--threshold T] [--object-mean M] ...": the method's rows of the parameter table, for --help.
std::string parameterSynopsis(Method method);
/// One line a row: option, method, help, default, accepted values and unit, each line after `indent`.
std::string parameterHelp(std::string_view indent);
/// Region growing with neither --lower nor --upper: its interval is estimated at the first seed.
bool intervalToEstimate(const CommandLine& cl, Method method);
/// Sets the request's interval from the first seed's tissue (the viewer's rule, SeedInterval.h) and
/// returns the line that tells it: "interval A..B estimated at the first seed".
std::string estimateInterval(const Volume& volume, SegmentationRequest& request);

}  // namespace lucent::app
