/// @brief Work handed between threads through Qt (a queued call on a QObject's thread, a task on a
/// QThreadPool), with the order Qt guarantees made visible to ThreadSanitizer.
#pragma once

#include <QFuture>
#include <QMetaObject>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>
#include <optional>
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
#else
    Unrecorded() {}  // user-provided, so that a guard of it is not an unused variable
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

/// A task on Qt's global pool whose result the starting thread takes once it has finished (after
/// `future()` says so: a QFutureWatcher's signal, waitForFinished, isFinished). The result goes
/// through a slot of its own, written before the task's hand-over, rather than through QFuture's
/// store, which Qt fills after the task returns, out of ThreadSanitizer's sight.
template <typename R>
class PoolTask {
public:
    PoolTask() = default;

    template <typename F>
    static PoolTask start(F f) {
        PoolTask task;
        task.m_slot = std::make_shared<std::optional<R>>();
        crossthread::handOver();
        const crossthread::Unrecorded building;
        task.m_future = QtConcurrent::run([slot = task.m_slot, f = std::move(f)]() mutable {
            crossthread::takeOver();
            {
                auto work = std::move(f);  // its captures are gone before the hand-over
                slot->emplace(work());
            }
            crossthread::handOver();
        });
        return task;
    }

    QFuture<void> future() const { return m_future; }
    bool isFinished() const { return m_future.isFinished(); }
    void waitForFinished() { m_future.waitForFinished(); }

    /// The result, once finished (moved out: take it once).
    R take() {
        m_future.waitForFinished();
        crossthread::takeOver();
        return std::move(**m_slot);
    }

private:
    std::shared_ptr<std::optional<R>> m_slot;
    QFuture<void> m_future;
};

}  // namespace lucent::ui
