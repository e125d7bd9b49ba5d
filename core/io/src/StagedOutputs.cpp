/// @brief Staged outputs: temporaries adopted from writeFileAtomically, renamed together with ending signals held.
#include "lucent/io/StagedOutputs.h"

#include "lucent/core/Errors.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

namespace lucent::io {

namespace {

thread_local StagedOutputs* t_current = nullptr;

/// Holds SIGINT, SIGTERM and SIGHUP back on this thread while it lives: a signal during the renames
/// is delivered after the last one, when the outputs are complete.
class SignalHold {
public:
    SignalHold() {
        sigset_t held;
        sigemptyset(&held);
        for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&held, sig);
        ::pthread_sigmask(SIG_BLOCK, &held, &m_previous);
    }
    ~SignalHold() { ::pthread_sigmask(SIG_SETMASK, &m_previous, nullptr); }
    SignalHold(const SignalHold&) = delete;
    SignalHold& operator=(const SignalHold&) = delete;

private:
    sigset_t m_previous;
};

bool isFolder(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

/// Moves `from` to `to`, with Keep never over an existing `to` (checked by the kernel in the same
/// step, so no other process can slip in between). 0, or the errno of the failure.
int place(const std::string& from, const std::string& to, ExistingOutput existing) {
    if (existing == ExistingOutput::Replace) return std::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return errno;
    // A file system without RENAME_NOREPLACE: link() refuses an existing name just as well.
    if (::link(from.c_str(), to.c_str()) != 0) return errno;
    ::unlink(from.c_str());
    return 0;
}

std::string placeError(const std::string& path, int error) {
    if (error == EEXIST) return path + " exists (it appeared while this command ran) and is kept; nothing written";
    return "cannot write " + path + ": " + std::strerror(error);
}

}  // namespace

StagedOutputs::StagedOutputs(ExistingOutput existing) : m_previous(t_current), m_existing(existing) {
    t_current = this;
}

StagedOutputs::~StagedOutputs() {
    if (t_current == this) t_current = m_previous;
    // m_files' temporaries remove themselves.
}

StagedOutputs* StagedOutputs::current() { return t_current; }

void StagedOutputs::adopt(TemporaryFile temporary, const std::string& path) {
    const auto same = std::find_if(m_files.begin(), m_files.end(), [&](const auto& f) { return f.second == path; });
    if (same != m_files.end()) {
        same->first = std::move(temporary);  // the earlier temporary is removed
        return;
    }
    m_files.emplace_back(std::move(temporary), path);
}

void StagedOutputs::commit() {
    if (t_current == this) t_current = m_previous;
    // Renaming onto a folder fails: found now, before any output is in place. On any failure the
    // stage is over and its temporaries go at once.
    for (const auto& [temporary, path] : m_files) {
        if (isFolder(path)) {
            const std::string message = "cannot write " + path + ": it is a folder";
            m_files.clear();
            throw IoError(message);
        }
    }
    const SignalHold hold;
    std::vector<std::string> renamed;
    for (auto& [temporary, path] : m_files) {
        if (const int error = place(temporary.path(), path, m_existing); error != 0) {
            const std::string message = placeError(path, error);
            for (const auto& done : renamed) ::unlink(done.c_str());
            m_files.clear();
            throw IoError(message);
        }
        temporary.release();
        renamed.push_back(path);
    }
    m_files.clear();
}

}  // namespace lucent::io
