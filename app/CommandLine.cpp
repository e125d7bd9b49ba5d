/// @brief Command-line parsing.
#include "CommandLine.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

namespace lucent::app {

namespace {

/// Options whose range is the same in every command, checked once when the line is parsed (so a
/// command cannot forget them). --threads: 0 means "all cores" only as the default, never typed.
const std::map<std::string, std::pair<long long, long long>> kRanges = {{"--threads", {1, 1024}}};

}  // namespace

CommandLine::CommandLine(const std::vector<std::string>& args, const std::set<std::string>& valued,
                         const std::set<std::string>& flags) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string a = args[i];
        std::string inlineValue;
        bool hasInline = false;
        if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
            inlineValue = a.substr(a.find('=') + 1);
            a = a.substr(0, a.find('='));
            hasInline = true;
        }
        if (valued.count(a)) {
            if (hasInline) {
                m_values[a].push_back(inlineValue);
            } else {
                if (i + 1 >= args.size()) throw UsageError("option " + a + " needs a value");
                m_values[a].push_back(args[++i]);
            }
        } else if (flags.count(a)) {
            m_flags.insert(a);
        } else if (a.size() > 1 && a[0] == '-' && !(std::isdigit(static_cast<unsigned char>(a[1])))) {
            throw UsageError("unknown option " + a);
        } else {
            m_positionals.push_back(args[i]);
        }
    }
    for (const auto& [name, range] : kRanges) {
        if (!m_values.count(name)) continue;
        const double v = number(name, 0);
        if (v != std::floor(v) || v < double(range.first) || v > double(range.second))
            throw UsageError(name + " needs a whole number from " + std::to_string(range.first) + " to " +
                             std::to_string(range.second) + ", got '" + value(name) + "'");
    }
}

std::string CommandLine::value(const std::string& name, const std::string& fallback) const {
    const auto it = m_values.find(name);
    return it == m_values.end() ? fallback : it->second.back();
}

std::vector<std::string> CommandLine::values(const std::string& name) const {
    const auto it = m_values.find(name);
    return it == m_values.end() ? std::vector<std::string>{} : it->second;
}

double CommandLine::number(const std::string& name, double fallback) const {
    if (!m_values.count(name)) return fallback;
    const std::string v = value(name);
    char* end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || !std::isfinite(d)) throw UsageError(name + " needs a number, got '" + v + "'");
    return d;
}

int CommandLine::integer(const std::string& name, int fallback) const {
    const double d = number(name, fallback);
    if (d != std::floor(d)) throw UsageError(name + " needs a whole number, got '" + value(name) + "'");
    // Checked before the cast: 2147483648 must not wrap into a negative count.
    if (d < std::numeric_limits<int>::min() || d > std::numeric_limits<int>::max())
        throw UsageError(name + " needs a whole number from " + std::to_string(std::numeric_limits<int>::min()) +
                         " to " + std::to_string(std::numeric_limits<int>::max()) + ", got '" + value(name) + "'");
    return static_cast<int>(d);
}

unsigned CommandLine::threads() const { return static_cast<unsigned>(integer("--threads", 0)); }

}  // namespace lucent::app
