/// @brief A temporary file that is removed on failure, and on SIGINT, SIGTERM or SIGHUP before the process ends.
#pragma once

#include <string>

namespace lucent::io {

/// Owns the name of a temporary file while it is written: the destructor removes the file unless
/// release() was called (after it was renamed to its final name), and if SIGINT, SIGTERM or SIGHUP
/// ends the process meanwhile, a handler removes it (unlink only, async-signal-safe) and then ends
/// the process with the same signal. The handlers are installed with the first TemporaryFile, for
/// those signals whose action is still the default: a signal the caller ignores or handles itself
/// is left alone; SIGXFSZ (a file-size limit) is ignored the same way, so that such a write fails
/// with EFBIG and a message instead of ending the process. At most 64 exist at once (IoError beyond that, or for a name over 4095 bytes).
class TemporaryFile {
public:
    /// Registers `path` (the file need not exist yet: create it after this).
    explicit TemporaryFile(std::string path);
    ~TemporaryFile();
    TemporaryFile(TemporaryFile&& other) noexcept;
    TemporaryFile& operator=(TemporaryFile&& other) noexcept;
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;

    const std::string& path() const { return m_path; }
    /// The file was renamed (or must be kept): neither the destructor nor a signal removes it.
    void release();

private:
    void removeAndRelease();

    std::string m_path;
    int m_slot = -1;
};

}  // namespace lucent::io
