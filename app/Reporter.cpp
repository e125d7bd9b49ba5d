/// @brief The conventions every command shares (Reporter.h).
#include "Reporter.h"

#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"

#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace lucent::app {

std::set<std::string> quietFlags() { return {"--quiet", "--progress"}; }

std::set<std::string> outputFlags() { return {"--quiet", "--progress", "--no-clobber"}; }

std::string namingInput(const std::string& input, const std::string& message) {
    if (input.empty()) return message;
    // Named already when the path stands as a path: "IN: ...", "IN/IM001.dcm", "'IN'" (a folder called
    // "gap" is not named by "a gap of 5 mm").
    for (std::size_t at = message.find(input); at != std::string::npos; at = message.find(input, at + 1)) {
        const std::size_t end = at + input.size();
        if (end == message.size() || std::string(":/'\"),").find(message[end]) != std::string::npos) return message;
    }
    return input + ": " + message;
}

Reporter::Reporter(std::string command, std::string input, const CommandLine& cl)
    : m_command(std::move(command)),
      m_input(std::move(input)),
      m_quiet(cl.has("--quiet")),
      m_progress(progressMode(m_quiet, cl.has("--progress"))) {}

void Reporter::warn(const std::string& message) const {
    if (m_quiet) return;
    std::cerr << "lucent " << m_command << ": warning: " << io::printable(namingInput(m_input, message)) << "\n";
}

void Reporter::note(const std::string& message) const {
    if (m_quiet) return;
    std::cerr << "lucent " << m_command << ": " << io::printable(namingInput(m_input, message)) << "\n";
}

void Reporter::warn(const std::vector<std::string>& messages) const {
    for (const auto& m : messages) warn(m);
}

ProgressCallback Reporter::progress(const std::string& what) const { return progressLine(what, m_progress); }

void Reporter::summary(const std::string& line, bool stdoutTaken) const {
    if (m_quiet) return;
    (stdoutTaken ? std::cerr : std::cout) << line << "\n";
}

void Reporter::rethrowNamingInput(const std::exception& e) const {
    // Cancellation is not an error about the input: main says "cancelled".
    if (dynamic_cast<const Cancelled*>(&e)) throw;
    throw std::runtime_error(namingInput(m_input, e.what()));
}

void checkOutputs(const CommandLine& cl, const std::vector<std::string>& outputs) {
    for (const auto& out : outputs) {
        std::vector<std::string> files{out};
        // .mhd is two files: its .raw must be writable, and an existing one would be replaced as well.
        if (io::toLower(out).ends_with(".mhd")) files.push_back(out.substr(0, out.size() - 4) + ".raw");
        for (const auto& f : files) {
            if (const std::string why = io::whyNotWritable(f); !why.empty())
                throw std::runtime_error(why + "; nothing computed");
            std::error_code ec;
            if (cl.has("--no-clobber") && std::filesystem::exists(std::filesystem::symlink_status(f, ec)))
                throw std::runtime_error(f + " exists and --no-clobber keeps it; nothing written");
        }
    }
}

io::ExistingOutput existingOutputs(const CommandLine& cl) {
    return cl.has("--no-clobber") ? io::ExistingOutput::Keep : io::ExistingOutput::Replace;
}

}  // namespace lucent::app
