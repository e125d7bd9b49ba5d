/// @brief Temporary-file registry read by a signal handler: fixed slots, lock-free states, unlink() only.
#include "lucent/io/TemporaryFile.h"

#include "lucent/core/Errors.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace lucent::io {

namespace {

constexpr int kSlots = 64;
constexpr std::size_t kPathBytes = 4096;  // PATH_MAX: a longer name could not be opened anyway

enum SlotState : int { Free = 0, Filling = 1, Armed = 2 };

/// A registered name. The handler reads `path` only in state Armed, which is set after the name
/// is complete; a slot is only reused after it went back to Free.
struct Slot {
    std::atomic<int> state{Free};
    char path[kPathBytes];
};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");

Slot g_slots[kSlots];

void removeTemporaries(int sig) {
    for (Slot& slot : g_slots)
        if (slot.state.load(std::memory_order_acquire) == Armed) ::unlink(slot.path);
    // SA_RESETHAND restored the default action, and this signal is blocked until the handler
    // returns: raising it again ends the process as the signal would have (status and core alike).
    ::raise(sig);
}

void installHandlers() {
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction current {};
        if (::sigaction(sig, nullptr, &current) != 0) continue;
        // An ignored signal stays ignored (a background job's SIGINT), and a handler of the
        // program's own stays in charge.
        if ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL) continue;
        struct sigaction action {};
        action.sa_handler = removeTemporaries;
        sigemptyset(&action.sa_mask);
        for (const int other : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&action.sa_mask, other);
        action.sa_flags = SA_RESETHAND;
        ::sigaction(sig, &action, nullptr);
    }
    // A file-size limit (`ulimit -f`) would end the process with SIGXFSZ mid-write, leaving the
    // temporary and no message; ignored, the write fails with EFBIG and the writer names the file,
    // as it does for a full disk. Left alone when the program handles or ignores it already.
    struct sigaction current {};
    if (::sigaction(SIGXFSZ, nullptr, &current) == 0 && !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_DFL)
        std::signal(SIGXFSZ, SIG_IGN);
}

int claimSlot(const std::string& path) {
    if (path.size() >= kPathBytes) throw IoError("cannot write " + path + ": the name is too long");
    static std::once_flag handlers;
    std::call_once(handlers, installHandlers);
    for (int i = 0; i < kSlots; ++i) {
        int expected = Free;
        if (g_slots[i].state.compare_exchange_strong(expected, Filling, std::memory_order_acq_rel)) {
            std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
            g_slots[i].state.store(Armed, std::memory_order_release);
            return i;
        }
    }
    throw IoError("cannot write " + path + ": more than " + std::to_string(kSlots) + " temporary files at once");
}

}  // namespace

TemporaryFile::TemporaryFile(std::string path) : m_path(std::move(path)), m_slot(claimSlot(m_path)) {}

TemporaryFile::~TemporaryFile() { removeAndRelease(); }

TemporaryFile::TemporaryFile(TemporaryFile&& other) noexcept : m_path(std::move(other.m_path)), m_slot(other.m_slot) {
    other.m_slot = -1;
}

TemporaryFile& TemporaryFile::operator=(TemporaryFile&& other) noexcept {
    if (this != &other) {
        removeAndRelease();
        m_path = std::move(other.m_path);
        m_slot = other.m_slot;
        other.m_slot = -1;
    }
    return *this;
}

void TemporaryFile::release() {
    if (m_slot >= 0) g_slots[m_slot].state.store(Free, std::memory_order_release);
    m_slot = -1;
}

void TemporaryFile::removeAndRelease() {
    // Removed before the slot is freed: a signal in between finds the name still registered.
    if (m_slot >= 0) ::unlink(m_path.c_str());
    release();
}

}  // namespace lucent::io
