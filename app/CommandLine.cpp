/// @brief Command-line parsing.
#include "CommandLine.h"

#include "lucent/io/FileSuffixes.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/VolumeFile.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>
#include <utility>

namespace lucent::app {

namespace {

/// Options whose range is the same in every command, checked once when the line is parsed (so a
/// command cannot forget them). --threads: 0 means "all cores" only as the default, never typed.
const std::map<std::string, std::pair<long long, long long>> kRanges = {{"--threads", {1, 1024}}};

/// Edits (insert, delete, replace, swap of neighbours) from `a` to `b`.
std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

}  // namespace

bool looksLikeInput(const std::string& word) {
    std::error_code ec;
    if (std::filesystem::exists(word, ec)) return true;
    const std::string w = io::toLower(word);
    // A session (.lucent) is the viewer's; its suffix is the ui's (SessionFile::kSuffix), not linked here.
    return w.find('/') != std::string::npos || io::hasSuffix(w, io::kDataSuffixes) || w.ends_with(".lucent");
}

std::string unknownCommandMessage(const std::string& word, const std::vector<std::string>& commands) {
    std::string best;
    std::size_t bestDistance = 3;  // more than two edits away is no suggestion
    for (const auto& c : commands)
        if (const std::size_t d = editDistance(io::toLower(word), c); d < bestDistance) best = c, bestDistance = d;
    const std::string message = "unknown command '" + io::printable(word) + "'";
    return best.empty() ? message : message + "; did you mean '" + best + "'?";
}

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

std::vector<std::uint8_t> parseLabelList(const std::string& text) {
    std::vector<std::uint8_t> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        std::size_t used = 0;
        int v = -1;
        try {
            v = std::stoi(item, &used);
        } catch (const std::exception&) {
        }
        if (used != item.size() || v < 1 || v > 255)
            throw UsageError("--labels takes label values 1..255 separated by commas, not '" + text + "'");
        out.push_back(std::uint8_t(v));
    }
    if (out.empty()) throw UsageError("--labels needs at least one label value");
    return out;
}

}  // namespace lucent::app
