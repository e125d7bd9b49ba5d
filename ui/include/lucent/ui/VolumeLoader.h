/// @brief Opening a path as one background job (read, choose a series, load) with progress and cancel.
#pragma once

#include "lucent/core/SeriesInfo.h"
#include "lucent/core/Volume.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace lucent::ui {

/// A volume opened from a path, with what the viewer shows about it.
struct LoadedVolume {
    std::shared_ptr<Volume> volume;
    SeriesInfo info;
    QStringList warnings;
    QString path;
    /// A 4D file's volumes (frame 0 is `volume`); empty for a single volume.
    std::vector<std::shared_ptr<const Volume>> frames;
};

/// One open at a time, as hotspot's PerfParser runs one parse: the folder is read once, the series
/// chosen by io's rule (or by the chooser when several and none named), and the chosen volume
/// loaded from that listing. Every job has its own stop flag; a newer open or cancel() stops the
/// running one and nothing of it is delivered afterwards. The destructor stops and waits for the
/// worker, so the loader (and whoever owns it) may go away mid-load. Signals come on the loader's
/// thread. The job's thread never touches the caller's objects: it only posts to the loader.
class VolumeLoader : public QObject {
    Q_OBJECT
public:
    /// Asks which of several volumes to load (on the loader's thread; it may run a dialog):
    /// returns an index into `series`, or -1 to cancel.
    using Chooser = std::function<int(const QString& path, const std::vector<SeriesInfo>& series)>;

    explicit VolumeLoader(QObject* parent = nullptr);
    ~VolumeLoader() override;

    /// Without a chooser, several volumes and no id is a failure naming the ids.
    void setChooser(Chooser chooser) { m_chooser = std::move(chooser); }

    /// Starts opening `path` in the background and returns at once; stops a running open first
    /// (silently: it was replaced). `seriesId` names the volume (id or SeriesInstanceUID).
    void open(const QString& path, const QString& seriesId = {});
    /// Opens `path` on the calling thread (scripted screenshots, tests), replacing a running open;
    /// with several volumes and no id, the largest. Throws std::exception with the file and problem.
    LoadedVolume openNow(const QString& path, const QString& seriesId = {});
    /// Stops the running open; cancelled() follows once its thread has stopped (at once while
    /// it waits for a choice). Nothing when idle.
    void cancel();
    /// True from open() until finished(), failed() or cancelled().
    bool isRunning() const { return m_job != nullptr; }
    /// Blocks until no job thread runs, replaced and cancelled ones included (their results are
    /// then dropped); for tests and shutdown.
    void waitForIdle();
    /// Header passes run by this loader (one per open): lets tests see that a folder is read once.
    int scans() const { return m_scans.load(); }

signals:
    /// Of the whole open, 0 to 1000: reading the headers is the first quarter, the pixels the rest.
    void progress(int permille);
    void finished(std::shared_ptr<Volume> volume, const SeriesInfo& info, const QStringList& warnings,
                  const QString& path);
    /// Just before finished() when the file is 4D: all its volumes, frame 0 being finished()'s.
    void framesLoaded(const std::vector<std::shared_ptr<const Volume>>& frames);
    /// After the chooser's pick: that volume is loading now (progress goes on from a quarter).
    void chosen(const SeriesInfo& info);
    void failed(const QString& path, const QString& message);
    void cancelled();

private:
    struct Job;
    struct Outcome;

    /// Runs a job's next stage on the pool: the header pass (and the load when no choice is
    /// needed), or the load of the chosen index (`chosen` >= 0).
    void start(const std::shared_ptr<Job>& job, int chosen);
    /// A stage on the calling thread; throws. Without a volume when the user must choose.
    LoadedVolume work(Job& job, int chosen);
    /// work() with every way of ending as an Outcome (the job threads' body).
    Outcome run(Job& job, int chosen);
    /// On the loader's thread: hands an outcome or progress on only while job `serial` is current
    /// (a serial, not a pointer: a new job may reuse a finished one's address).
    void deliver(quint64 serial, const Outcome& outcome);
    void report(quint64 serial, int permille);
    /// Makes `job` the current one; the one it replaces is stopped and forgotten.
    void replaceJob(std::shared_ptr<Job> job);

    std::shared_ptr<Job> m_job;
    quint64 m_serial = 0;
    Chooser m_chooser;
    std::atomic<int> m_scans{0};
    /// One thread: a replaced job still finishing a file runs before the next starts, so two opens
    /// never compete. Declared last: destroyed first, after the destructor has stopped the jobs.
    QThreadPool m_pool;
};

}  // namespace lucent::ui
