/// @brief RetrieveJob: the retrieve loop on a QtConcurrent thread; the index written in one place once all arrived.
#include "lucent/ui/RetrieveJob.h"

#include "CrossThread.h"
#include "lucent/pacs/StudyDatabase.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <filesystem>

namespace lucent::ui {

namespace fs = std::filesystem;

RetrieveJob::RetrieveJob(Retriever retrieve, QString node, std::string databasePath, std::string cacheFolder,
                         QObject* parent)
    : QObject(parent),
      m_retrieve(std::move(retrieve)),
      m_node(std::move(node)),
      m_databasePath(std::move(databasePath)),
      m_cacheFolder(std::move(cacheFolder)) {}

RetrieveJob::~RetrieveJob() {
    // A job still running finishes its series and cleans up; nobody is left to hear of it.
    m_cancel = true;
    if (m_watcher) m_watcher->waitForFinished();
}

void RetrieveJob::start(const std::string& studyUid, const std::vector<std::string>& seriesUids) {
    m_watcher = new QFutureWatcher<void>(this);
    connect(m_watcher, &QFutureWatcher<void>::finished, this, [this] {
        crossthread::takeOver();
        const Outcome& o = m_outcome;
        if (o.kind == Outcome::Kind::Done) emit finished(o.folders, o.uids);
        if (o.kind == Outcome::Kind::Failed) emit failed(o.message);
        if (o.kind == Outcome::Kind::Cancelled) emit cancelled();
    });
    // CrossThread.h's hand-overs tell ThreadSanitizer what Qt's pool and watcher already order.
    crossthread::handOver();
    const crossthread::Unrecorded building;
    m_watcher->setFuture(QtConcurrent::run([this, studyUid, seriesUids] {
        crossthread::takeOver();
        m_outcome = run(studyUid, seriesUids);
        crossthread::handOver();
    }));
}

void RetrieveJob::cancel() { m_cancel = true; }

bool RetrieveJob::isRunning() const { return m_watcher && m_watcher->isRunning(); }

RetrieveJob::Outcome RetrieveJob::run(const std::string& studyUid, const std::vector<std::string>& seriesUids) {
    Outcome o;
    std::vector<std::string> fetched;  // folders this job wrote: indexed once all arrived
    std::vector<std::string> created;  // of those, the ones it made: removed unless all is indexed
    std::vector<std::string> before;   // series folders already in the cache (a series retrieved again)
    const auto discard = [&](Outcome::Kind kind, const QString& message) {
        // A series cached and indexed earlier stays: its index entry still points at its files.
        std::error_code ec;
        for (const std::string& folder : created) fs::remove_all(folder, ec);
        fs::remove(fs::path(m_cacheFolder) / studyUid, ec);  // only when it is left empty
        return Outcome{kind, message, {}, {}};
    };
    const int total = int(seriesUids.size());
    const auto report = [this, total](int done) {
        callQueued(this, [this, done, total] { emit progress(done, total); });
    };
    report(0);
    std::error_code ec;  // a study folder not there yet lists nothing
    try {
        for (int i = 0; i < total; ++i) {
            if (m_cancel) return discard(Outcome::Kind::Cancelled, {});
            const net::RetrieveRequest request{studyUid, seriesUids[std::size_t(i)],
                                               (fs::path(m_cacheFolder) / studyUid).string(), 0};
            before.clear();
            for (const auto& entry : fs::directory_iterator(request.destination, fs::directory_options::skip_permission_denied, ec))
                before.push_back(entry.path().string());
            for (const net::RetrievedSeries& s : m_retrieve(request)) {
                fetched.push_back(s.folder);
                if (std::find(before.begin(), before.end(), fs::path(s.folder).string()) == before.end()) created.push_back(s.folder);
                o.folders << QString::fromStdString(s.folder);
                o.uids << QString::fromStdString(s.seriesUid);
            }
            report(i + 1);
        }
        if (m_cancel) return discard(Outcome::Kind::Cancelled, {});
        if (fetched.empty()) return discard(Outcome::Kind::Failed, m_node + ": the node sent no series");
        // Indexed only now that every series is whole; one connection of this thread's own.
        pacs::StudyDatabase db(m_databasePath, m_cacheFolder);
        db.importPaths(fetched);
    } catch (const std::exception& e) {
        return discard(Outcome::Kind::Failed, m_node + ": " + QString::fromUtf8(e.what()));
    }
    return o;
}

}  // namespace lucent::ui
