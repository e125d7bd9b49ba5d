/// @brief Recovery copies written on a worker thread: when, where, under which name, and their removal.
#include "lucent/ui/Autosave.h"

#include "CrossThread.h"
#include "lucent/io/StagedOutputs.h"
#include "lucent/ui/RecoveryCopies.h"
#include "lucent/ui/SessionFile.h"
#include "lucent/ui/WorkState.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLockFile>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>

namespace lucent::ui {

namespace {

/// When this process started writing copies: with the process id, a name no other process had.
qint64 processStartMs() {
    static const qint64 start = QDateTime::currentMSecsSinceEpoch();
    return start;
}

std::atomic<int> g_windows{0};

}  // namespace

int Autosave::intervalSeconds() {
    bool ok = false;
    const int env = qEnvironmentVariableIntValue("LUCENT_AUTOSAVE_S", &ok);
    if (ok && env > 0) return env;
    const int setting = QSettings().value("autosave/seconds", kDefaultIntervalS).toInt();
    return setting > 0 ? setting : kDefaultIntervalS;
}

QString Autosave::defaultFolder() {
    QString state = qEnvironmentVariable("XDG_STATE_HOME");
    if (state.isEmpty() || !QDir::isAbsolutePath(state)) state = QDir::homePath() + "/.local/state";
    return state + "/lucent/recovery";
}

Autosave::Autosave(WorkState* work, Capture capture, QObject* parent)
    : QObject(parent), m_work(work), m_capture(std::move(capture)), m_folder(defaultFolder()), m_window(++g_windows) {
    m_timer.setInterval(intervalSeconds() * 1000);
    connect(&m_timer, &QTimer::timeout, this, &Autosave::tick);
    m_timer.start();
    connect(&m_watcher, &QFutureWatcher<void>::finished, this, &Autosave::onWritten);
    // Saved work needs no copy: a stale one would be offered after a crash for nothing.
    connect(m_work, &WorkState::modifiedChanged, this, [this](bool modified) {
        if (!modified) discard();
    });
}

Autosave::~Autosave() { waitForWrite(); }

void Autosave::setEnabled(bool on) {
    m_enabled = on;
    if (on) m_timer.start();
    else m_timer.stop();
}

void Autosave::setFolder(const QString& folder) { m_folder = folder; }

QString Autosave::copyPath() const {
    return QDir(m_folder).filePath(QString("lucent-%1-%2-%3%4")
                                       .arg(QCoreApplication::applicationPid())
                                       .arg(processStartMs())
                                       .arg(m_window)
                                       .arg(SessionFile::kSuffix));
}

void Autosave::tick() {
    if (m_work->modified() && m_work->revision() != m_lastRevision) saveNow();
}

void Autosave::saveNow() {
    if (!m_enabled || !m_work->modified()) return;
    if (m_inFlight) {
        m_again = true;
        return;
    }
    startWrite();
}

bool Autosave::lockCopy(QString* error) {
    if (m_lock) return true;
    if (!QDir().mkpath(m_folder)) {
        *error = m_folder + ": cannot make the recovery folder";
        return false;
    }
    auto lock = std::make_unique<QLockFile>(copyPath() + ".lock");
    lock->setStaleLockTime(0);  // stale only when its process is gone, however old
    if (!lock->tryLock(0)) {
        *error = copyPath() + ".lock: cannot lock the recovery copy";
        return false;
    }
    m_lock = std::move(lock);
    return true;
}

void Autosave::startWrite() {
    QElapsedTimer clock;
    clock.start();
    std::optional<Snapshot> snapshot = m_capture ? m_capture() : std::nullopt;
    if (!snapshot) return;
    QString error;
    if (!lockCopy(&error)) return emit failed("Autosave: " + error);
    m_timing.captureMs = double(clock.nsecsElapsed()) / 1e6;
    m_lastRevision = m_work->revision();
    const QString path = copyPath();
    const std::function<void()> hook = m_beforeRename;
    m_inFlight = true;
    crossthread::handOver();
    const crossthread::Unrecorded building;
    m_watcher.setFuture(QtConcurrent::run([this, snapshot = std::move(*snapshot), path, hook]() mutable {
        crossthread::takeOver();
        m_result = write(std::move(snapshot), path, hook);
        crossthread::handOver();
    }));
}

Autosave::Result Autosave::write(Snapshot snapshot, const QString& path, const std::function<void()>& hook) {
    QElapsedTimer worker;
    worker.start();
    Result r;
    try {
        if (snapshot.prepare) snapshot.prepare();
        // Staged: the temporary is complete before it replaces the previous copy.
        io::StagedOutputs stage;
        QString why;
        const LabelMap* labels = snapshot.labels ? snapshot.labels.get() : (snapshot.state.labels ? &*snapshot.state.labels : nullptr);
        if (!SessionFile::write(path, snapshot.state, labels, &why)) throw std::runtime_error(why.toStdString());
        if (hook) hook();
        stage.commit();
        r.bytes = QFileInfo(path).size();
    } catch (const std::exception& e) {
        r.error = QString::fromStdString(e.what());
    }
    r.workerMs = double(worker.nsecsElapsed()) / 1e6;
    return r;
}

void Autosave::onWritten() {
    // Once per write: waitForWrite() may have taken it before the watcher's signal came.
    if (!m_inFlight || !m_watcher.isFinished()) return;
    m_inFlight = false;
    crossthread::takeOver();
    const Result r = m_result;
    m_timing.workerMs = r.workerMs;
    m_timing.bytes = r.bytes;
    if (!r.error.isEmpty()) {
        m_lastRevision = 0;  // try again at the next tick
        emit failed("Autosave failed; the previous recovery copy is kept: " + r.error);
    } else {
        ++m_writes;
        m_haveCopy = true;
        if (!m_adopted.isEmpty()) {
            RecoveryCopies::remove(m_adopted);
            m_adopted.clear();
            m_adoptedLock.reset();
        }
        emit written(copyPath());
    }
    if (m_again) {
        m_again = false;
        saveNow();
    }
}

void Autosave::waitForWrite() {
    while (m_inFlight) {
        m_watcher.waitForFinished();
        onWritten();  // the finished signal would come later, from the event loop: take it now
    }
}

void Autosave::discard() {
    m_again = false;
    waitForWrite();
    if (m_haveCopy || m_lock) RecoveryCopies::remove(copyPath());
    m_haveCopy = false;
    m_lastRevision = 0;
    m_lock.reset();
}

void Autosave::adopt(const QString& path, std::shared_ptr<QLockFile> lock) {
    m_adopted = path;
    m_adoptedLock = std::move(lock);
}

}  // namespace lucent::ui
