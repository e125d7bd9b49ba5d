/// @brief Network work off the GUI thread: a call on a pool thread whose outcome (an error message or nothing) comes
/// back to a GUI object's thread.
#pragma once

#include "CrossThread.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <exception>
#include <utility>

namespace lucent::ui {

/// Runs `work()` on a pool thread; then `done(error)` on `context`'s thread, `error` empty on
/// success, else "WHO: what()" (`who` names the node). Nothing is called when `context` is gone.
template <typename Work, typename Done>
void runInBackground(QObject* context, const QString& who, Work work, Done done) {
    auto task = PoolTask<QString>::start([who, work = std::move(work)]() mutable -> QString {
        try {
            work();
            return {};
        } catch (const std::exception& e) {
            return who + ": " + QString::fromUtf8(e.what());
        }
    });
    auto* watcher = new QFutureWatcher<void>(context);
    QObject::connect(watcher, &QFutureWatcher<void>::finished, context, [watcher, task, done = std::move(done)]() mutable {
        done(task.take());
        watcher->deleteLater();
    });
    watcher->setFuture(task.future());
}

}  // namespace lucent::ui
