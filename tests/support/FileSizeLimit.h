/// @brief A full disk without root: a file-size limit (RLIMIT_FSIZE) for a scope, so writes fail part-way with EFBIG.
#pragma once

#include <csignal>
#include <sys/resource.h>

namespace lucent::testing {

/// While it lives, no file of this process may grow past `bytes`: a write that would fails with
/// EFBIG, as it fails with ENOSPC on a full disk (the same write path, the same cleanup). SIGXFSZ is
/// ignored meanwhile (its default action ends the process). Process-wide: worker threads' writes
/// fail too, which is what the autosave and export tests want.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        getrlimit(RLIMIT_FSIZE, &m_old);
        m_handler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = m_old;
        small.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &small);
    }
    ~FileSizeLimit() { lift(); }
    /// Space is back (before the scope ends).
    void lift() {
        if (m_lifted) return;
        m_lifted = true;
        setrlimit(RLIMIT_FSIZE, &m_old);
        std::signal(SIGXFSZ, m_handler);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit m_old{};
    void (*m_handler)(int) = SIG_DFL;
    bool m_lifted = false;
};

}  // namespace lucent::testing
