/// @brief StudyDatabase over Qt SQL's SQLite driver: schema, integrity check and rebuild, transactional writes, the
/// listing.
#include "lucent/pacs/StudyDatabase.h"

#include "lucent/pacs/QtApplication.h"

#include "lucent/core/Errors.h"
#include "lucent/io/DicomReader.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <atomic>
#include <filesystem>
#include <optional>
#include <map>
#include <stdexcept>

namespace lucent::pacs {

namespace fs = std::filesystem;

namespace {

/// Bumped when the tables change; a file from a newer Lucent is refused, not rewritten.
constexpr int kSchemaVersion = 1;

const char* const kSchema[] = {
    "CREATE TABLE IF NOT EXISTS patients(id INTEGER PRIMARY KEY, patient_id TEXT NOT NULL, name TEXT NOT NULL, "
    "UNIQUE(patient_id, name))",
    "CREATE TABLE IF NOT EXISTS studies(uid TEXT PRIMARY KEY, patient INTEGER NOT NULL REFERENCES patients(id), "
    "date TEXT NOT NULL, description TEXT NOT NULL, accession TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS series(uid TEXT PRIMARY KEY, study TEXT NOT NULL REFERENCES studies(uid) ON DELETE "
    "CASCADE, number INTEGER NOT NULL, modality TEXT NOT NULL, description TEXT NOT NULL, images INTEGER NOT NULL, "
    "folder TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS files(series TEXT NOT NULL REFERENCES series(uid) ON DELETE CASCADE, path TEXT NOT "
    "NULL)",
    "CREATE INDEX IF NOT EXISTS files_by_series ON files(series)",
    "CREATE INDEX IF NOT EXISTS series_by_study ON series(study)",
};

QString q(const std::string& s) { return QString::fromStdString(s); }
std::string s(const QVariant& v) { return v.toString().toStdString(); }

/// Series of a scan, one per SeriesInstanceUID (a series split into several volumes is one here).
std::vector<StudySeries> seriesOf(const io::DicomScanResult& scan) {
    std::map<std::string, StudySeries> byUid;
    for (const io::DicomSeries& found : scan.series) {
        const SeriesInfo& i = found.info;
        StudySeries& e = byUid[i.uid];
        e = {i.patientId, i.patientName, i.studyUid,     i.studyDate, i.studyDescription, i.accessionNumber, i.uid,
             i.modality,  i.description, i.seriesNumber, 0,           e.folder,           std::move(e.files)};
        e.files.insert(e.files.end(), i.files.begin(), i.files.end());
    }
    std::vector<StudySeries> result;
    for (auto& [uid, e] : byUid) {
        e.images = static_cast<int>(e.files.size());
        e.folder = e.files.empty() ? std::string() : fs::path(e.files.front()).parent_path().string();
        result.push_back(std::move(e));
    }
    return result;
}

}  // namespace

struct StudyDatabase::Impl {
    std::string path, cache, connection, recovery;

    QSqlDatabase db() const { return QSqlDatabase::database(q(connection), false); }

    [[noreturn]] void fail(const std::string& what, const QSqlError& error) const {
        throw std::runtime_error(path + ": " + what + ": " + error.text().toStdString());
    }

    void exec(QSqlQuery& query, const char* what) const {
        if (!query.exec()) fail(what, query.lastError());
    }

    void connect() {
        QSqlDatabase d = QSqlDatabase::addDatabase("QSQLITE", q(connection));
        d.setDatabaseName(q(path));
        if (!d.open()) fail("cannot open the study database", d.lastError());
    }

    /// The folder the series `uid` is indexed at, or none when it is not indexed.
    std::optional<std::string> folderOf(const std::string& uid) const {
        QSqlQuery query(db());
        query.prepare("SELECT folder FROM series WHERE uid = ?");
        query.addBindValue(q(uid));
        exec(query, "cannot look up a series");
        if (!query.next()) return std::nullopt;
        return query.value(0).toString().toStdString();
    }

    void disconnect() {
        db().close();
        QSqlDatabase::removeDatabase(q(connection));
    }

    /// What went wrong with `query` as a damage report; a database that another connection holds
    /// (SQLite BUSY or LOCKED) is not damaged, and moving it aside would lose it: that throws.
    std::string problemOf(const QSqlQuery& query) const {
        const QSqlError e = query.lastError();
        if (e.nativeErrorCode() == "5" || e.nativeErrorCode() == "6")
            throw std::runtime_error(path + ": the study database is busy (another process is writing it): " +
                                     e.text().toStdString());
        return e.text().toStdString();
    }

    /// Empty when the file is a sound database of ours (tables created when new), else what is wrong.
    std::string prepare() {
        QSqlQuery query(db());
        if (!query.exec("PRAGMA quick_check") || !query.next()) return problemOf(query);
        if (query.value(0).toString() != "ok") return "integrity check: " + s(query.value(0));
        if (!query.exec("PRAGMA user_version") || !query.next()) return problemOf(query);
        const int version = query.value(0).toInt();
        if (version > kSchemaVersion)
            throw std::runtime_error(path + ": made by a newer Lucent (schema " + s(query.value(0)) + "); not changed");
        // Write-ahead logging: the viewer's browser reads (a query left open while it pages) while a
        // retrieve or `lucent db import` writes. Switching needs the file to itself; a database
        // someone is reading keeps its journal mode until the next open.
        query.exec("PRAGMA journal_mode = WAL");
        if (version != kSchemaVersion) {  // a write: only when the tables are new or older
            for (const char* statement : kSchema)
                if (!query.exec(statement)) return problemOf(query);
            if (!query.exec("PRAGMA user_version = " + QString::number(kSchemaVersion))) return problemOf(query);
        }
        if (!query.exec("PRAGMA foreign_keys = ON")) return problemOf(query);
        return {};
    }

    void writeSeries(const StudySeries& e);
};

StudyDatabase::StudyDatabase(const std::string& path, const std::string& cacheFolder)
    : m_impl(std::make_unique<Impl>()) {
    static std::atomic<int> counter{0};
    ensureQtApplication();
    m_impl->path = path;
    m_impl->cache = cacheFolder;
    m_impl->connection = "lucent-studies-" + std::to_string(counter++);
    if (!QSqlDatabase::isDriverAvailable("QSQLITE"))
        throw std::runtime_error(path + ": Qt's SQLite driver is missing (Debian: libqt6sql6-sqlite)");
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    m_impl->connect();
    const std::string problem = m_impl->prepare();
    if (problem.empty()) return;
    // Damaged: keep the file aside for whoever wants to look, and start again from the cache.
    m_impl->disconnect();
    const std::string aside = path + ".corrupt";
    fs::rename(path, aside, ec);
    if (ec) throw std::runtime_error(path + ": damaged (" + problem + ") and cannot be moved aside: " + ec.message());
    fs::remove(path + "-journal", ec);
    // A write-ahead log belongs to the damaged file: it goes aside with it, never into the new one.
    fs::rename(path + "-wal", aside + "-wal", ec);
    fs::remove(path + "-shm", ec);
    m_impl->connect();
    if (const std::string again = m_impl->prepare(); !again.empty())
        throw std::runtime_error(path + ": cannot create the study database: " + again);
    std::size_t rebuilt = 0;
    if (fs::is_directory(cacheFolder)) rebuilt = importPath(cacheFolder).size();
    m_impl->recovery = path + " was damaged (" + problem + "): moved to " + aside + " and rebuilt from " + cacheFolder +
                       " (" + std::to_string(rebuilt) + " series; series imported from elsewhere need importing again)";
}

StudyDatabase::~StudyDatabase() { m_impl->disconnect(); }

bool StudyDatabase::available() { return true; }

const std::string& StudyDatabase::recoveryMessage() const { return m_impl->recovery; }

std::string StudyDatabase::connectionName() const { return m_impl->connection; }

const std::string& StudyDatabase::path() const { return m_impl->path; }

std::vector<StudySeries> StudyDatabase::importPath(const std::string& path, std::vector<std::string>* warnings,
                                                   const ProgressCallback& progress) {
    const io::DicomScanResult scan = io::DicomReader::scan(fs::absolute(path).lexically_normal().string());
    if (warnings) warnings->insert(warnings->end(), scan.warnings.begin(), scan.warnings.end());
    std::vector<StudySeries> series = seriesOf(scan);
    add(series, progress);
    return series;
}

std::vector<StudySeries> StudyDatabase::importPaths(const std::vector<std::string>& paths) {
    // One scan result for all paths: a series whose files are split over several paths is one
    // series of all its files (each path's series written alone kept only the last path's files).
    io::DicomScanResult all;
    for (const std::string& path : paths) {
        io::DicomScanResult scan = io::DicomReader::scan(fs::absolute(path).lexically_normal().string());
        all.series.insert(all.series.end(), std::make_move_iterator(scan.series.begin()), std::make_move_iterator(scan.series.end()));
    }
    std::vector<StudySeries> series = seriesOf(all);
    add(series);
    return series;
}

StudySeries StudyDatabase::addOpened(const SeriesInfo& info) {
    io::DicomScanResult opened;
    opened.series.push_back(io::DicomSeries{info, {}});
    std::vector<StudySeries> series = seriesOf(opened);
    // Indexed already where its files still are (retrieved into the cache, imported): that entry
    // stays, so Remove study still frees the cache; a stale entry takes the opened files instead.
    if (const auto folder = m_impl->folderOf(info.uid); folder && fs::exists(*folder)) return series.front();
    add(series);
    return series.front();
}

void StudyDatabase::Impl::writeSeries(const StudySeries& e) {
    QSqlQuery query(db());
    query.prepare("INSERT OR IGNORE INTO patients(patient_id, name) VALUES(?, ?)");
    query.addBindValue(q(e.patientId));
    query.addBindValue(q(e.patientName));
    exec(query, "cannot add a patient");
    query.prepare("SELECT id FROM patients WHERE patient_id = ? AND name = ?");
    query.addBindValue(q(e.patientId));
    query.addBindValue(q(e.patientName));
    exec(query, "cannot find a patient");
    if (!query.next()) fail("a patient vanished", query.lastError());
    const QVariant patient = query.value(0);
    query.prepare(
        "INSERT INTO studies(uid, patient, date, description, accession) VALUES(?, ?, ?, ?, ?) "
        "ON CONFLICT(uid) DO UPDATE SET patient = excluded.patient, date = excluded.date, "
        "description = excluded.description, accession = excluded.accession");
    for (const QVariant& v : {QVariant(q(e.studyUid)), patient, QVariant(q(e.studyDate)),
                              QVariant(q(e.studyDescription)), QVariant(q(e.accessionNumber))})
        query.addBindValue(v);
    exec(query, "cannot add a study");
    query.prepare("DELETE FROM series WHERE uid = ?");  // its files go with it (ON DELETE CASCADE)
    query.addBindValue(q(e.seriesUid));
    exec(query, "cannot replace a series");
    query.prepare(
        "INSERT INTO series(uid, study, number, modality, description, images, folder) "
        "VALUES(?, ?, ?, ?, ?, ?, ?)");
    for (const QVariant& v :
         {QVariant(q(e.seriesUid)), QVariant(q(e.studyUid)), QVariant(e.seriesNumber), QVariant(q(e.modality)),
          QVariant(q(e.seriesDescription)), QVariant(e.images), QVariant(q(e.folder))})
        query.addBindValue(v);
    exec(query, "cannot add a series");
    query.prepare("INSERT INTO files(series, path) VALUES(?, ?)");
    for (const std::string& file : e.files) {
        query.addBindValue(q(e.seriesUid));
        query.addBindValue(q(file));
        exec(query, "cannot add a file");
    }
}

void StudyDatabase::add(const std::vector<StudySeries>& series, const ProgressCallback& progress) {
    QSqlDatabase d = m_impl->db();
    if (!d.transaction()) m_impl->fail("cannot start a transaction", d.lastError());
    try {
        for (std::size_t i = 0; i < series.size(); ++i) {
            m_impl->writeSeries(series[i]);
            if (progress && !progress(i + 1, series.size())) throw Cancelled();
        }
        if (!d.commit()) m_impl->fail("cannot commit", d.lastError());
    } catch (...) {
        d.rollback();
        throw;
    }
}

std::vector<StudySeries> StudyDatabase::list() const {
    QSqlQuery query(m_impl->db());
    query.prepare("SELECT series, path FROM files ORDER BY rowid");
    m_impl->exec(query, "cannot read the files");
    std::map<std::string, std::vector<std::string>> files;
    while (query.next()) files[s(query.value(0))].push_back(s(query.value(1)));
    query.prepare(
        "SELECT p.patient_id, p.name, st.uid, st.date, st.description, st.accession, se.uid, se.modality, "
        "se.description, se.number, se.images, se.folder FROM series se JOIN studies st ON se.study = st.uid "
        "JOIN patients p ON st.patient = p.id ORDER BY p.name, st.date, st.uid, se.number, se.uid");
    m_impl->exec(query, "cannot read the series");
    std::vector<StudySeries> result;
    while (query.next()) {
        StudySeries e{s(query.value(0)),
                      s(query.value(1)),
                      s(query.value(2)),
                      s(query.value(3)),
                      s(query.value(4)),
                      s(query.value(5)),
                      s(query.value(6)),
                      s(query.value(7)),
                      s(query.value(8)),
                      query.value(9).toInt(),
                      query.value(10).toInt(),
                      s(query.value(11)),
                      {}};
        e.files = std::move(files[e.seriesUid]);
        result.push_back(std::move(e));
    }
    return result;
}

bool StudyDatabase::removeStudy(const std::string& studyUid) {
    const auto inCache = [&](const std::string& file) {
        const fs::path relative = fs::path(file).lexically_relative(m_impl->cache);
        return !relative.empty() && *relative.begin() != "..";
    };
    std::vector<std::string> cached;
    for (const StudySeries& e : list())
        if (e.studyUid == studyUid)
            for (const std::string& f : e.files)
                if (inCache(f)) cached.push_back(f);
    QSqlDatabase d = m_impl->db();
    if (!d.transaction()) m_impl->fail("cannot start a transaction", d.lastError());
    QSqlQuery query(d);
    query.prepare("DELETE FROM studies WHERE uid = ?");  // its series and files go with it
    query.addBindValue(q(studyUid));
    const bool deleted = query.exec();
    const bool removed = deleted && query.numRowsAffected() > 0;
    if (!deleted || !query.exec("DELETE FROM patients WHERE id NOT IN (SELECT patient FROM studies)")) {
        const QSqlError error = query.lastError();
        d.rollback();
        m_impl->fail("cannot remove study " + studyUid, error);
    }
    if (!d.commit()) m_impl->fail("cannot commit", d.lastError());
    // The cached files once the index no longer names them; folders left empty go too.
    std::error_code ec;
    for (const std::string& f : cached) {
        fs::remove(f, ec);
        fs::remove(fs::path(f).parent_path(), ec);
        fs::remove(fs::path(f).parent_path().parent_path(), ec);
    }
    return removed;
}

}  // namespace lucent::pacs
