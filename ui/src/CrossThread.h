/// @brief Work handed between threads through Qt (a queued call on a QObject's thread, a task on a
/// QThreadPool), with the order Qt guarantees made visible to ThreadSanitizer.
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QThreadPool>

#include <utility>

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* address);
extern "C" void __tsan_release(void* address);
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
#endif

namespace lucent::ui {

namespace crossthread {
/// Qt's event and task queues order everything a thread did before a post before the call on the
/// other thread, through a futex-based lock that ThreadSanitizer cannot see in an uninstrumented
/// Qt. A release before each hand-over and an acquire before each call say so (nothing in other
/// builds). One address for every hand-over: a call is ordered after every earlier post, as the
/// queue's lock orders it.
inline char& queueToken() {
    static char token;
    return token;
}
inline void handOver() {
#if defined(__SANITIZE_THREAD__)
    __tsan_release(&queueToken());
#endif
}
inline void takeOver() {
#if defined(__SANITIZE_THREAD__)
    __tsan_acquire(&queueToken());
#endif
}
/// While it lives, this thread's memory writes are not recorded: the event or task Qt builds from
/// the hand-over's own payload after handOver() (the reader sees it only after takeOver()).
struct Unrecorded {
#if defined(__SANITIZE_THREAD__)
    Unrecorded() { __tsan_ignore_thread_begin(); }
    ~Unrecorded() { __tsan_ignore_thread_end(); }
#endif
};
}  // namespace crossthread

/// Runs `f` on `receiver`'s thread from its event loop (dropped if the receiver is gone by then).
template <typename F>
void callQueued(QObject* receiver, F f) {
    crossthread::handOver();
    const crossthread::Unrecorded building;
    QMetaObject::invokeMethod(
        receiver, [f = std::move(f)]() mutable { crossthread::takeOver(), f(); }, Qt::QueuedConnection);
}

/// Runs `f` on a thread of `pool`.
template <typename F>
void startOnPool(QThreadPool& pool, F f) {
    crossthread::handOver();
    const crossthread::Unrecorded building;
    pool.start([f = std::move(f)]() mutable { crossthread::takeOver(), f(); });
}

}  // namespace lucent::ui
