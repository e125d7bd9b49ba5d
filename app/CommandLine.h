/// @brief Minimal argument parser for the CLI: positionals, valued options (repeatable) and flags.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace lucent::app {

/// Thrown for malformed command lines; main prints it with the usage hint and exits 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Whether `word`, the first argument when it is no command, is something for the viewer to open: an
/// existing path, a name with a suffix Lucent opens (.nii, .nii.gz, .mha, .mhd, .nrrd, .nhdr, .dcm,
/// .lucent) or a folder (a name with a '/'). Anything else is a mistyped command.
bool looksLikeInput(const std::string& word);
/// "unknown command 'infoo'; did you mean 'info'?": the nearest of `commands` within two edits, if any.
std::string unknownCommandMessage(const std::string& word, const std::vector<std::string>& commands);

/// "1,2,5" -> {1, 2, 5}: the label values of --labels (1..255); UsageError for anything else.
std::vector<std::uint8_t> parseLabelList(const std::string& text);

class CommandLine {
public:
    /// `valued`: options that take a value (e.g. "-o", "--series"); `flags`: those that do not.
    CommandLine(const std::vector<std::string>& args, const std::set<std::string>& valued,
                const std::set<std::string>& flags);

    const std::vector<std::string>& positionals() const { return m_positionals; }
    bool has(const std::string& name) const { return m_values.count(name) > 0 || m_flags.count(name) > 0; }
    /// Last value of an option, or `fallback`.
    std::string value(const std::string& name, const std::string& fallback = {}) const;
    /// Every value of a repeatable option, in order.
    std::vector<std::string> values(const std::string& name) const;
    /// The option's value as a number; UsageError naming the option when it is not one.
    double number(const std::string& name, double fallback) const;
    /// A whole number that fits an int; UsageError naming the option otherwise (no wrap-around).
    int integer(const std::string& name, int fallback) const;
    /// --threads, already checked to be 1..1024 by the constructor; 0 (all cores) when absent.
    unsigned threads() const;

private:
    std::vector<std::string> m_positionals;
    std::map<std::string, std::vector<std::string>> m_values;
    std::set<std::string> m_flags;
};

}  // namespace lucent::app
