/// @brief Progress on stderr (ProgressLine.h).
#include "ProgressLine.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <unistd.h>

namespace lucent::app {

namespace {

/// Work shorter than this shows nothing on a terminal: a flash of text is noise.
/// LUCENT_PROGRESS_DELAY_MS overrides it (tests on a pseudo-terminal set 0).
std::chrono::milliseconds quietStart() {
    static const std::chrono::milliseconds delay = [] {
        const char* text = std::getenv("LUCENT_PROGRESS_DELAY_MS");
        return std::chrono::milliseconds(text && *text ? std::atol(text) : 1000);
    }();
    return delay;
}

struct LineState {
    std::string what;
    ProgressMode mode;
    bool terminal;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    int shown = -1;  ///< the last percentage (terminal) or tenth (lines) printed
    std::mutex mutex;

    void report(std::size_t done, std::size_t total) {
        if (total == 0) return;
        const int percent = int(std::min(done, total) * 100 / total);
        const std::lock_guard lock(mutex);
        if (!terminal) {
            // A log file gets a line per tenth, not a line per call.
            if (percent / 10 > shown) std::fprintf(stderr, "%s %3d%%\n", what.c_str(), percent);
            shown = std::max(shown, percent / 10);
            return;
        }
        if (mode == ProgressMode::Terminal && shown < 0 && std::chrono::steady_clock::now() - start < quietStart())
            return;
        if (percent != shown) std::fprintf(stderr, "\r%s %3d%%", what.c_str(), percent);
        shown = percent;
        if (done >= total) std::fprintf(stderr, "\r%*s\r", int(what.size()) + 5, "");
    }
};

}  // namespace

ProgressMode progressMode(bool quiet, bool forced) {
    if (quiet) return ProgressMode::Off;
    if (forced) return ProgressMode::Forced;
    return ::isatty(STDERR_FILENO) ? ProgressMode::Terminal : ProgressMode::Off;
}

ProgressCallback progressLine(const std::string& what, ProgressMode mode) {
    if (mode == ProgressMode::Off) return {};
    auto state = std::make_shared<LineState>();
    state->what = what;
    state->mode = mode;
    state->terminal = ::isatty(STDERR_FILENO);
    return [state](std::size_t done, std::size_t total) {
        state->report(done, total);
        return true;
    };
}

}  // namespace lucent::app
