/// @brief The recovery copy of one window's work: while it has unsaved changes, the session (data
/// path, view, labels, measurements, as a .lucent file) is written atomically on a worker thread
/// every interval and after each accepted result, into the user's state folder, never beside the data.
#pragma once

#include "lucent/ui/SavedSession.h"

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

class QLockFile;

namespace lucent::ui {

class WorkState;

class Autosave : public QObject {
    Q_OBJECT
public:
    /// The copy's content: the session shown now and its label layer (shared, not copied into the
    /// session: the worker reads it, and the capture must not change it while a write is in flight).
    struct Snapshot {
        SavedSession state;
        std::shared_ptr<const LabelMap> labels;
        /// Run on the worker before `labels` is read (LabelMirror's whole-layer copy); may be empty.
        std::function<void()> prepare;
    };
    /// The snapshot, or none when there is nothing a session can hold (no volume, or one not opened
    /// from a file). Runs on the GUI thread, never while a write is in flight.
    using Capture = std::function<std::optional<Snapshot>()>;

    /// The interval without a setting or LUCENT_AUTOSAVE_S.
    static constexpr int kDefaultIntervalS = 60;
    /// Seconds between copies: LUCENT_AUTOSAVE_S when set (tests), else the setting
    /// "autosave/seconds", else kDefaultIntervalS.
    static int intervalSeconds();
    /// $XDG_STATE_HOME/lucent/recovery, or ~/.local/state/lucent/recovery without it.
    static QString defaultFolder();

    Autosave(WorkState* work, Capture capture, QObject* parent = nullptr);
    /// Waits for a write in flight. The copy stays: only discard() (a normal close) removes it.
    ~Autosave() override;

    /// Off: nothing is written (scripted runs leave nothing behind); discard() still removes.
    void setEnabled(bool on);
    bool enabled() const { return m_enabled; }
    /// Where copies go (default defaultFolder()); call before the first write.
    void setFolder(const QString& folder);
    QString folder() const { return m_folder; }
    /// This window's copy: `lucent-PID-START-N.lucent` (process id, process start, window number), so
    /// two processes or windows never write the same file; a lock beside it (`.lock`) says the owner lives.
    QString copyPath() const;

    /// Writes a copy now when the work is modified and changed since the last copy (an accepted
    /// result); a write in flight is followed by one more.
    void saveNow();
    /// Removes this window's copy (a normal close, Discard, the work saved), after a write in flight.
    void discard();
    /// The restored copy `path` of a process that is gone (its `lock` held): removed once this
    /// window's own copy is written, so that a crash in between still finds one of them.
    void adopt(const QString& path, std::shared_ptr<QLockFile> lock);
    /// Blocks until no write is in flight.
    void waitForWrite();

    /// Copies written since this object was made.
    int writes() const { return m_writes; }
    /// Milliseconds of the last copy on the GUI thread (capture, a changed box of the layer copied)
    /// and on the worker (the whole layer copied when it changed as a whole, encode, write, rename),
    /// and its size: the benchmark prints them.
    struct Timing {
        double captureMs = 0, workerMs = 0;
        std::int64_t bytes = 0;
    };
    Timing lastTiming() const { return m_timing; }
    /// Tests: runs on the worker after the temporary file is complete and before it replaces the
    /// copy (a kill there, or an exception standing for a full disk, must leave the previous copy).
    void setBeforeRename(std::function<void()> hook) { m_beforeRename = std::move(hook); }

signals:
    void written(const QString& path);
    /// A copy could not be written ("PATH: No space left on device"); the previous one is intact.
    void failed(const QString& message);

private:
    struct Result {
        QString error;
        double workerMs = 0;
        std::int64_t bytes = 0;
    };
    void tick();
    void startWrite();
    void onWritten();
    /// The write on the pool thread: the session into a staged copy at `path`.
    static Result write(Snapshot snapshot, const QString& path, const std::function<void()>& hook);
    bool lockCopy(QString* error);

    WorkState* m_work;
    Capture m_capture;
    QTimer m_timer;
    QString m_folder;
    int m_window;  // this process's window number, in the file name
    bool m_enabled = true;
    bool m_inFlight = false;
    bool m_again = false;  // a change came while a write was in flight
    std::uint64_t m_lastRevision = 0;
    bool m_haveCopy = false;
    std::unique_ptr<QLockFile> m_lock;
    QString m_adopted;
    std::shared_ptr<QLockFile> m_adoptedLock;
    QFutureWatcher<void> m_watcher;
    Result m_result;  // written by the write task before its hand-over (CrossThread.h), read after it finished
    std::function<void()> m_beforeRename;
    int m_writes = 0;
    Timing m_timing;
};

}  // namespace lucent::ui
