/// @brief Progress reporting and cancellation for long operations, callable from worker threads.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <mutex>

namespace lucent {

/// Receives (done, total) and returns false to cancel. Called under a lock, one call at a time,
/// possibly from a worker thread: a GUI forwards it to its own thread.
using ProgressCallback = std::function<bool(std::size_t done, std::size_t total)>;

/// Counts finished work items and forwards to a ProgressCallback; thread-safe.
class ProgressCounter {
public:
    ProgressCounter(ProgressCallback callback, std::size_t total)
        : m_callback(std::move(callback)), m_total(total) {}

    /// Marks one item done; returns false once cancellation was asked for.
    bool advance() {
        if (!m_callback) {
            ++m_done;
            return !m_cancelled.load();
        }
        // Counted under the lock: counted outside it, a thread could report 5 after another had
        // reported 6, and a progress bar would go back (seen under load in DicomTemporal tests).
        std::lock_guard lock(m_mutex);
        const std::size_t done = ++m_done;
        if (!m_cancelled.load() && !m_callback(done, m_total)) m_cancelled = true;
        return !m_cancelled.load();
    }
    bool cancelled() const { return m_cancelled.load(); }

private:
    ProgressCallback m_callback;
    std::size_t m_total;
    std::atomic<std::size_t> m_done{0};
    std::atomic<bool> m_cancelled{false};
    std::mutex m_mutex;
};

}  // namespace lucent
