/// @brief The conventions every command shares: warnings and errors name the input, `--quiet`,
/// `--no-clobber`, and where the summary line goes.
#pragma once

#include "CommandLine.h"
#include "ProgressLine.h"

#include "lucent/core/Progress.h"
#include "lucent/io/StagedOutputs.h"

#include <set>
#include <string>
#include <vector>

namespace lucent::app {

/// Flags of every command that reads an input: --quiet, --progress.
std::set<std::string> quietFlags();
/// Flags of every command that writes files: --quiet, --progress and --no-clobber.
std::set<std::string> outputFlags();

/// `message` starting with "INPUT: " unless it names `input` already, so that every warning and
/// error says which input it is about (a folder's skipped files already name the folder).
std::string namingInput(const std::string& input, const std::string& message);

/// How one command talks to the user about one input.
class Reporter {
public:
    Reporter(std::string command, std::string input, const CommandLine& cl);

    /// "lucent CMD: warning: INPUT: ..." on stderr; nothing with --quiet.
    void warn(const std::string& message) const;
    void warn(const std::vector<std::string>& messages) const;
    /// "lucent CMD: INPUT: ..." on stderr: what the command chose for the user (an estimated
    /// parameter); nothing with --quiet.
    void note(const std::string& message) const;
    /// Progress of a stage of the command ("loading", "segmenting") on stderr (ProgressLine.h).
    ProgressCallback progress(const std::string& what = "loading") const;
    /// The one-line summary of what was written: on stdout, or on stderr when stdout carries the
    /// command's data (`--stats -`); none with --quiet.
    void summary(const std::string& line, bool stdoutTaken = false) const;
    /// The input's name in errors: rethrows a failure of `body` as a runtime_error naming the input
    /// (usage errors and cancellation pass unchanged).
    template <class Body>
    int run(Body&& body) const {
        try {
            return body();
        } catch (const UsageError&) {
            throw;
        } catch (const std::exception& e) {
            rethrowNamingInput(e);
        }
    }

private:
    [[noreturn]] void rethrowNamingInput(const std::exception& e) const;

    std::string m_command;
    std::string m_input;
    bool m_quiet = false;
    ProgressMode m_progress = ProgressMode::Off;
};

/// Before anything is loaded or computed: refuses (runtime_error, exit 1), naming it, an output that
/// cannot be written (its folder missing, not a folder or not writable; a folder of its name) and,
/// with --no-clobber, one that exists (a .mhd's .raw counts).
void checkOutputs(const CommandLine& cl, const std::vector<std::string>& outputs);
/// How a command's staged outputs are placed: with --no-clobber never over an existing file, even
/// one that another process wrote after checkOutputs() (StagedOutputs.h).
io::ExistingOutput existingOutputs(const CommandLine& cl);

}  // namespace lucent::app
