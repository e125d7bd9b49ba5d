/// @brief The open job: one header pass, io's series rule or the chooser, the load; stop flags per job.
#include "lucent/ui/VolumeLoader.h"

#include "CrossThread.h"

#include "lucent/core/Errors.h"
#include "lucent/io/ImageSource.h"

namespace lucent::ui {

/// One open. The job thread owns `scan` while it runs; the loader's thread reads only the atomics.
struct VolumeLoader::Job {
    quint64 serial = 0;
    QString path, seriesId;
    io::WhenUnnamed whenUnnamed = io::WhenUnnamed::Refuse;
    bool mayChoose = false;  ///< several volumes and no id go to the chooser
    bool waiting = false;    ///< for the chooser; no thread runs (loader's thread only)
    std::atomic<bool> stop{false};
    std::atomic<int> permille{-1};
    ProgressCallback progress;
    std::shared_ptr<io::SourceScan> scan;  ///< from the header pass to the chosen load
};

struct VolumeLoader::Outcome {
    enum class Kind { Stopped, Loaded, Choose, Failed } kind = Kind::Stopped;
    LoadedVolume loaded;
    std::vector<SeriesInfo> series;  ///< to choose from
    QString error;
};

VolumeLoader::VolumeLoader(QObject* parent) : QObject(parent) { m_pool.setMaxThreadCount(1); }

VolumeLoader::~VolumeLoader() {
    // Job threads call back into this object (progress, results): none may outlive it.
    replaceJob(nullptr);
    m_pool.clear();
    m_pool.waitForDone();
}

void VolumeLoader::replaceJob(std::shared_ptr<Job> job) {
    if (m_job) m_job->stop = true;
    m_job = std::move(job);
}

void VolumeLoader::open(const QString& path, const QString& seriesId) {
    auto job = std::make_shared<Job>();
    job->serial = ++m_serial;
    job->path = path;
    job->seriesId = seriesId;
    job->mayChoose = bool(m_chooser);
    // The raw pointer: the callback lives in the job, and runs only on a thread that holds the job.
    job->progress = [this, raw = job.get()](std::size_t done, std::size_t total) {
        if (raw->stop.load()) return false;
        const int permille = total ? int(1000 * done / total) : 0;
        // One event per visible step, however many files: the loader's thread is never flooded.
        if (raw->permille.exchange(permille) != permille)
            callQueued(this, [this, serial = raw->serial, permille] { report(serial, permille); });
        return !raw->stop.load();
    };
    replaceJob(job);
    start(job, -1);
}

LoadedVolume VolumeLoader::openNow(const QString& path, const QString& seriesId) {
    replaceJob(nullptr);
    Job job;
    job.path = path;
    job.seriesId = seriesId;
    job.whenUnnamed = io::WhenUnnamed::Largest;
    return work(job, -1);
}

void VolumeLoader::cancel() {
    if (!m_job) return;
    m_job->stop = true;
    if (!m_job->waiting) return;  // its thread stops at the next file, then deliver() says so
    m_job.reset();
    emit cancelled();
}

void VolumeLoader::waitForIdle() { m_pool.waitForDone(); }

void VolumeLoader::start(const std::shared_ptr<Job>& job, int chosen) {
    job->waiting = false;
    startOnPool(m_pool, [this, job, chosen] {
        const Outcome outcome = run(*job, chosen);
        callQueued(this, [this, serial = job->serial, outcome] { deliver(serial, outcome); });
    });
}

LoadedVolume VolumeLoader::work(Job& job, int chosen) {
    io::DicomOptions options;
    options.progress = job.progress;
    LoadedVolume loaded;
    loaded.path = job.path;
    std::vector<std::string> warnings;
    std::size_t index = std::size_t(chosen);
    if (chosen < 0) {
        job.scan = std::make_shared<io::SourceScan>(io::ImageSource::scan(job.path.toStdString(), options));
        ++m_scans;
        const auto& series = job.scan->listing.series;
        if (job.mayChoose && job.seriesId.isEmpty() && series.size() > 1) return loaded;
        index = io::ImageSource::choose(*job.scan, job.seriesId.toStdString(), job.whenUnnamed, &warnings);
    }
    loaded.info = job.scan->listing.series[index];
    // A 4D file or a multi-temporal DICOM series: the viewer keeps every volume (View > Cine
    // through frames plays them), all read now.
    if (const int count = io::ImageSource::frameCount(*job.scan, index); count > 1) {
        std::vector<Volume> volumes = io::ImageSource::loadFrames(*job.scan, index, options, &warnings);
        if (job.stop) throw Cancelled();
        for (Volume& v : volumes) {
            auto shared = std::make_shared<Volume>(std::move(v));
            if (!loaded.volume) loaded.volume = shared;
            loaded.frames.push_back(std::move(shared));
        }
        std::erase_if(warnings, [](const std::string& w) { return w.find("the first is used") != std::string::npos; });
        warnings.push_back(std::to_string(count) + " volumes (4D): View > Cine through frames plays them");
    } else {
        loaded.volume = std::make_shared<Volume>(io::ImageSource::load(*job.scan, index, options, &warnings));
    }
    job.scan.reset();  // the slice lists of every series are not needed any more
    for (const auto& w : warnings) loaded.warnings << QString::fromStdString(w);
    return loaded;
}

VolumeLoader::Outcome VolumeLoader::run(Job& job, int chosen) {
    Outcome outcome;
    if (job.stop) return outcome;  // replaced before its turn: nothing to read
    try {
        outcome.loaded = work(job, chosen);
        outcome.kind = outcome.loaded.volume ? Outcome::Kind::Loaded : Outcome::Kind::Choose;
        if (!outcome.loaded.volume) outcome.series = job.scan->listing.series;
    } catch (const Cancelled&) {
        outcome.kind = Outcome::Kind::Stopped;
    } catch (const std::bad_alloc&) {
        outcome.kind = Outcome::Kind::Failed;
        outcome.error = job.path + ": not enough memory for this volume.";
    } catch (const std::exception& e) {
        outcome.kind = Outcome::Kind::Failed;
        outcome.error = QString::fromStdString(e.what());
    }
    return outcome;
}

void VolumeLoader::report(quint64 serial, int permille) {
    if (m_job && m_job->serial == serial && !m_job->stop) emit progress(permille);
}

void VolumeLoader::deliver(quint64 serial, const Outcome& outcome) {
    // A replaced job's result is dropped: the caller has moved on to another path.
    if (!m_job || m_job->serial != serial) return;
    const std::shared_ptr<Job> job = m_job;
    // Stopped wins over a result that raced with cancel(): the user was told it is cancelled.
    if (job->stop || outcome.kind == Outcome::Kind::Stopped) {
        m_job.reset();
        emit cancelled();
        return;
    }
    if (outcome.kind == Outcome::Kind::Choose) {
        job->waiting = true;
        // The chooser may run a dialog: this job may be replaced or cancelled meanwhile.
        const int index = m_chooser ? m_chooser(job->path, outcome.series) : -1;
        if (m_job != job) return;
        if (index < 0 || std::size_t(index) >= outcome.series.size()) return cancel();
        start(job, index);
        emit chosen(outcome.series[std::size_t(index)]);
        return;
    }
    m_job.reset();
    if (outcome.kind == Outcome::Kind::Failed) {
        emit failed(job->path, outcome.error);
        return;
    }
    if (!outcome.loaded.frames.empty()) emit framesLoaded(outcome.loaded.frames);
    emit finished(outcome.loaded.volume, outcome.loaded.info, outcome.loaded.warnings, job->path);
}

}  // namespace lucent::ui
