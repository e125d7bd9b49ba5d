/// @brief The stage report: lucent::stages switched on by the environment, printed at main's end.
#include "StageReport.h"

#include "lucent/core/StageTimes.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace lucent::app {

namespace {
long long wallNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}
}  // namespace

StageReport::StageReport() : m_startNs(wallNs()) {
    const char* value = std::getenv(kStageTimesVariable);
    m_on = value && *value;
    stages::setEnabled(m_on);
}

StageReport::~StageReport() {
    if (!m_on) return;
    for (const stages::Figure& f : stages::snapshot())
        std::fprintf(stderr, "lucent stage: %s: %lld x, %.3f ms\n", f.name.c_str(), f.count, f.totalMs);
    std::fprintf(stderr, "lucent main: start %lld ns, end %lld ns\n", m_startNs, wallNs());
}

}  // namespace lucent::app
