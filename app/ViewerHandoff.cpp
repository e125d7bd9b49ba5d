/// @brief `lucent` without Qt: the viewer and the commands that need Qt (pacs, db, version) are
/// handed to lucent-viewer, so that the headless commands load none of the viewer's libraries.
#include "Commands.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace lucent::app {

namespace {

/// lucent-viewer: LUCENT_VIEWER_PROGRAM is its path relative to this program's folder, the same in
/// the build tree and in the installation (app/CMakeLists.txt).
std::string viewerProgram() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) throw std::runtime_error("cannot find this program's own path (/proc/self/exe: " + ec.message() + ")");
    return (self.parent_path() / LUCENT_VIEWER_PROGRAM).lexically_normal().string();
}

/// Replaces this process with lucent-viewer given `argv` (argv[0] included): same process, standard
/// streams, environment and exit status. Returns only by throwing, when the program cannot start.
[[noreturn]] void handOff(std::vector<std::string> argv) {
    const std::string program = viewerProgram();
    std::vector<char*> raw;
    for (std::string& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    ::execv(program.c_str(), raw.data());
    const int error = errno;
    throw std::runtime_error("cannot start " + program + " (" + std::strerror(error) +
                             "), the program of the viewer, pacs, db and version; reinstall lucent");
}

[[noreturn]] void handOffCommand(const char* command, const std::vector<std::string>& args) {
    std::vector<std::string> argv{"lucent", command};
    argv.insert(argv.end(), args.begin(), args.end());
    handOff(std::move(argv));
}

}  // namespace

int runPacs(const std::vector<std::string>& args) { handOffCommand("pacs", args); }
int runDb(const std::vector<std::string>& args) { handOffCommand("db", args); }
int runVersion() { handOffCommand("version", {}); }
int runViewer(int argc, char** argv) { handOff(std::vector<std::string>(argv, argv + argc)); }

}  // namespace lucent::app
