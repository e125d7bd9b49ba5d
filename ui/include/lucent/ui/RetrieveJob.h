/// @brief Retrieving series from a PACS off the GUI thread: one series at a time (progress, Cancel between series),
/// then the study database indexes them; a cancelled or failed job indexes nothing and removes what it fetched.
#pragma once

#include "lucent/net/PacsClient.h"

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace lucent::ui {

class RetrieveJob : public QObject {
    Q_OBJECT
public:
    /// Fetches one series (a PacsConnection's retrieve; a test's fake). Throws net::PacsError.
    using Retriever = std::function<std::vector<net::RetrievedSeries>(const net::RetrieveRequest&)>;

    /// `node`: the node's name for messages; the database at `databasePath`, its cache `cacheFolder`
    /// (series land in cacheFolder/STUDY/SERIES, as `lucent pacs get` puts them).
    RetrieveJob(Retriever retrieve, QString node, std::string databasePath, std::string cacheFolder,
                QObject* parent = nullptr);
    ~RetrieveJob() override;

    /// Starts on a pool thread; signals come back on this object's thread. One start per job.
    void start(const std::string& studyUid, const std::vector<std::string>& seriesUids);
    /// Asks the job to stop after the series in flight; it then emits cancelled().
    void cancel();
    bool isRunning() const;

signals:
    /// `done` of `total` series fetched.
    void progress(int done, int total);
    /// Every series arrived and is indexed: their folders and UIDs, in the order asked.
    void finished(const QStringList& folders, const QStringList& seriesUids);
    /// Nothing indexed; `message` names the node and what failed.
    void failed(const QString& message);
    /// Cancelled: nothing indexed, nothing of this job left in the cache.
    void cancelled();

private:
    struct Outcome {
        enum class Kind { Done, Failed, Cancelled } kind = Kind::Done;
        QString message;
        QStringList folders, uids;
    };
    Outcome run(const std::string& studyUid, const std::vector<std::string>& seriesUids);

    Retriever m_retrieve;
    QString m_node;
    std::string m_databasePath, m_cacheFolder;
    std::atomic<bool> m_cancel{false};
    Outcome m_outcome;  // written by the task before its hand-over, read after the watcher's finished
    QFutureWatcher<void>* m_watcher = nullptr;
};

}  // namespace lucent::ui
