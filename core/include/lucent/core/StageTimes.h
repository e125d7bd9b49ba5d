/// @brief Time spent in named stages of the application, summed per stage while switched on: the
/// benchmarks' breakdown of a frame into what it waited for and what it did, on any thread.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace lucent::stages {

/// Off by default: a stage costs one relaxed atomic load when nobody is measuring.
void setEnabled(bool on);
bool enabled();

struct Figure {
    std::string name;
    long long count = 0;
    double totalMs = 0, worstMs = 0;
};

/// The stages recorded since the last reset, by name.
std::vector<Figure> snapshot();
void reset();
/// Adds one occurrence of `name` that took `ms`.
void record(const char* name, double ms);

/// Times its own lifetime as one occurrence of `name` (a string literal: it is kept, not copied).
class Scope {
public:
    explicit Scope(const char* name) : m_name(enabled() ? name : nullptr) {
        if (m_name) m_start = std::chrono::steady_clock::now();
    }
    ~Scope() {
        if (m_name) record(m_name, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start).count());
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

private:
    const char* m_name;
    std::chrono::steady_clock::time_point m_start;
};

}  // namespace lucent::stages
