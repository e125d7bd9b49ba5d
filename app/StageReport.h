/// @brief `LUCENT_STAGE_TIMES=1`: where a command's wall time went, printed on stderr when it ends
/// (the benchmarks' breakdown of a run; tests/bench/segment_stats.py --stages reads it).
#pragma once

namespace lucent::app {

/// The environment variable that switches the report on (any non-empty value).
inline constexpr const char* kStageTimesVariable = "LUCENT_STAGE_TIMES";

/// Made first in main: when the variable is set, switches stage timing on and notes when main
/// began; its destruction prints every stage (count and total ms) and main's start and end on the
/// wall clock (ns since the epoch), so a caller that timed the process sees what came before main
/// (loading the program) and after it (the kernel tearing the process down).
class StageReport {
public:
    StageReport();
    ~StageReport();
    StageReport(const StageReport&) = delete;
    StageReport& operator=(const StageReport&) = delete;

private:
    long long m_startNs = 0;
    bool m_on = false;
};

}  // namespace lucent::app
