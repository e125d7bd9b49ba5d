/// @brief Progress of long work on stderr ("loading  45%"): on a terminal once the work has taken
/// about a second, always with `--progress` (a line per tenth when stderr is no terminal), never
/// with `--quiet`.
#pragma once

#include "lucent/core/Progress.h"

#include <string>

namespace lucent::app {

enum class ProgressMode {
    Off,       ///< --quiet, or stderr is not a terminal
    Terminal,  ///< one line rewritten in place, shown once the work has lasted about a second
    Forced     ///< --progress: from the start; a new line per tenth when stderr is not a terminal
};

/// The mode a command runs in: its flags, and whether stderr is a terminal.
ProgressMode progressMode(bool quiet, bool forced);

/// A callback printing `what`'s progress in `mode`; never cancels. Safe to call from worker threads.
ProgressCallback progressLine(const std::string& what, ProgressMode mode);

}  // namespace lucent::app
