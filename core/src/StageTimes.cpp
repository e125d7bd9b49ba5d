/// @brief Stage times: a map from stage name to count, total and worst, under one mutex.
#include "lucent/core/StageTimes.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>

namespace lucent::stages {

namespace {

std::atomic<bool> g_enabled{false};

struct Table {
    std::mutex mutex;
    std::map<std::string, Figure> figures;
};

Table& table() {
    static Table t;
    return t;
}

}  // namespace

void setEnabled(bool on) { g_enabled.store(on, std::memory_order_relaxed); }

bool enabled() { return g_enabled.load(std::memory_order_relaxed); }

std::vector<Figure> snapshot() {
    Table& t = table();
    std::lock_guard lock(t.mutex);
    std::vector<Figure> out;
    for (const auto& [name, f] : t.figures) out.push_back(f);
    return out;
}

void reset() {
    Table& t = table();
    std::lock_guard lock(t.mutex);
    t.figures.clear();
}

void record(const char* name, double ms) {
    Table& t = table();
    std::lock_guard lock(t.mutex);
    Figure& f = t.figures[name];
    f.name = name;
    ++f.count;
    f.totalMs += ms;
    f.worstMs = std::max(f.worstMs, ms);
}

}  // namespace lucent::stages
