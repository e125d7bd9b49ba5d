/// @brief The local study database: patients, studies and series (UIDs, names, dates, modality, images, files) in
/// SQLite through Qt SQL.
#pragma once

#include "lucent/core/Progress.h"
#include "lucent/core/SeriesInfo.h"

#include <memory>
#include <string>
#include <vector>

namespace lucent::pacs {

/// One series as the database holds it, with its patient and study.
struct StudySeries {
    std::string patientId, patientName;
    std::string studyUid, studyDate, studyDescription, accessionNumber;
    std::string seriesUid, modality, seriesDescription;
    int seriesNumber = -1;  ///< -1 when the files have none
    int images = 0;         ///< files of the series
    std::string folder;     ///< the folder holding its files (the first file's)
    std::vector<std::string> files;
};

/// Opens (or creates) the database file. Every change is one SQLite transaction, so a process
/// killed during an import leaves the database as it was before. A file that is not a sound
/// database is moved aside (FILE.corrupt) and the database rebuilt from the retrieve cache, with a
/// message (recoveryMessage()). Throws std::runtime_error naming the file when it cannot be used.
class StudyDatabase {
public:
    /// `cacheFolder`: where retrieved series are kept (the source of a rebuild).
    StudyDatabase(const std::string& path, const std::string& cacheFolder);
    ~StudyDatabase();
    StudyDatabase(const StudyDatabase&) = delete;
    StudyDatabase& operator=(const StudyDatabase&) = delete;

    /// True when this build has the database (Qt SQL with its SQLite driver).
    static bool available();

    /// The Qt SQL connection of this database, for a model that reads it lazily (QSqlQueryModel) on
    /// the thread that opened it; empty in builds without Qt SQL.
    std::string connectionName() const;
    /// The file this database lives in.
    const std::string& path() const;
    /// What opening had to repair, or empty.
    const std::string& recoveryMessage() const;

    /// Indexes the DICOM image series under `path` (a folder, recursively, or a file), read with
    /// lucent_io; a series already indexed is replaced. Files that are not DICOM images are skipped
    /// (named in `warnings` when given). `progress` counts series written; false cancels (Cancelled)
    /// and nothing of this import stays. Returns the series indexed.
    std::vector<StudySeries> importPath(const std::string& path, std::vector<std::string>* warnings = nullptr,
                                        const ProgressCallback& progress = {});
    /// importPath() of several paths, all indexed in one transaction or none (a retrieve's series);
    /// a series split over several paths is one series of all their files.
    std::vector<StudySeries> importPaths(const std::vector<std::string>& paths);
    /// A DICOM series the viewer opened, from what its loading read (no file is read again); a
    /// series indexed already where its files still are keeps that entry.
    StudySeries addOpened(const SeriesInfo& info);
    /// Writes these series (replacing those of the same UID) in one transaction.
    void add(const std::vector<StudySeries>& series, const ProgressCallback& progress = {});
    /// Every series, by patient name, study date, study UID and series number.
    std::vector<StudySeries> list() const;
    /// Forgets a study and its series; files under the cache folder are deleted, others kept.
    /// Returns false when the study is not indexed.
    bool removeStudy(const std::string& studyUid);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace lucent::pacs
