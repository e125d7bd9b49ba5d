/// @brief StudyDatabase without the CLI: import of the real MR series and synthetic ones, replace, cancel, a killed
/// writer, a damaged file, removal.
#include "lucent/pacs/StudyDatabase.h"

#include "SyntheticDicom.h"
#include "TempDir.h"

#include "lucent/core/Errors.h"
#include "lucent/io/DicomReader.h"
#include "RealData.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dctk.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

namespace fs = std::filesystem;
using lucent::pacs::StudyDatabase;
using lucent::pacs::StudySeries;
using lucent::testing::TempDir;

namespace {

/// Tags of a file as DCMTK reads them (not through lucent_io, which the database uses).
std::map<std::string, std::string> tags(const std::string& file) {
    DcmFileFormat ff;
    std::map<std::string, std::string> values;
    if (ff.loadFile(file.c_str()).bad()) return values;
    for (const auto& [name, key] : {std::pair{"series", DCM_SeriesInstanceUID},
                                    {"study", DCM_StudyInstanceUID},
                                    {"date", DCM_StudyDate},
                                    {"patient", DCM_PatientID},
                                    {"modality", DCM_Modality},
                                    {"description", DCM_SeriesDescription},
                                    {"number", DCM_SeriesNumber}}) {
        OFString value;
        ff.getDataset()->findAndGetOFString(key, value);
        values[name] = value.c_str();
    }
    return values;
}

/// A made-up series with no files: what add() writes does not depend on them.
StudySeries made(const std::string& study, const std::string& series) {
    StudySeries e;
    e.patientId = "P-" + study;
    e.patientName = "Doe^" + study;
    e.studyUid = study;
    e.seriesUid = series;
    e.modality = "CT";
    e.images = 2;
    e.folder = "/nowhere/" + series;
    e.files = {e.folder + "/a.dcm", e.folder + "/b.dcm"};
    return e;
}

std::vector<std::string> seriesUids(const StudyDatabase& db) {
    std::vector<std::string> uids;
    for (const StudySeries& e : db.list()) uids.push_back(e.seriesUid);
    return uids;
}

}  // namespace

TEST(StudyDatabase, ImportsTheRealMrSeriesAsItsFilesSay) {
    LUCENT_REAL_DATA_OR_SKIP(folder, lucent::testing::kRealMrSeries);
    TempDir dir;
    StudyDatabase db(dir.file("studies.sqlite"), dir.file("dicom"));
    EXPECT_TRUE(db.recoveryMessage().empty());
    std::size_t dcm = 0;
    for (const auto& entry : fs::directory_iterator(folder)) dcm += entry.path().extension() == ".dcm";
    // brain_002: brain_001 ends in 2.4 MB of zero bytes that DCMTK reads slowly as empty elements.
    std::map<std::string, std::string> t = tags(folder + "/brain_002.dcm");
    ASSERT_FALSE(t["series"].empty());
    for (int round = 0; round < 2; ++round) {  // importing again replaces, never duplicates
        db.importPath(folder);
        const std::vector<StudySeries> all = db.list();
        ASSERT_EQ(all.size(), 1u);
        const StudySeries& s = all[0];
        EXPECT_EQ(s.seriesUid, t["series"]);
        EXPECT_EQ(s.studyUid, t["study"]);
        EXPECT_EQ(s.studyDate, t["date"]);
        EXPECT_EQ(s.patientId, t["patient"]);
        EXPECT_EQ(s.modality, t["modality"]);
        EXPECT_EQ(s.seriesDescription, t["description"]);
        EXPECT_EQ(std::to_string(s.seriesNumber), t["number"]);
        EXPECT_EQ(s.images, static_cast<int>(dcm));
        EXPECT_EQ(s.files.size(), dcm);
        EXPECT_EQ(fs::path(s.folder), fs::absolute(folder).lexically_normal());
    }
}

TEST(StudyDatabase, ACancelledImportLeavesNothing) {
    TempDir dir;
    StudyDatabase db(dir.file("studies.sqlite"), dir.file("dicom"));
    db.add({made("1.1", "1.1.1")});
    int calls = 0;
    const auto cancelSecond = [&](std::size_t, std::size_t) { return ++calls < 2; };
    EXPECT_THROW(db.add({made("1.2", "1.2.1"), made("1.2", "1.2.2"), made("1.3", "1.3.1")}, cancelSecond),
                 lucent::Cancelled);
    EXPECT_EQ(seriesUids(db), std::vector<std::string>{"1.1.1"});
}

TEST(StudyDatabase, AWriterKilledMidImportLeavesTheDatabaseAsItWas) {
    TempDir dir;
    const std::string path = dir.file("studies.sqlite");
    {
        StudyDatabase db(path, dir.file("dicom"));
        db.add({made("1.1", "1.1.1")});
    }
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // Killed after two of three series were written, before any commit could happen.
        StudyDatabase db(path, dir.file("dicom"));
        db.add({made("1.2", "1.2.1"), made("1.2", "1.2.2"), made("1.3", "1.3.1")}, [](std::size_t done, std::size_t) {
            if (done == 2) ::kill(::getpid(), SIGKILL);
            return true;
        });
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer was to be killed";
    StudyDatabase db(path, dir.file("dicom"));
    EXPECT_TRUE(db.recoveryMessage().empty()) << db.recoveryMessage();
    EXPECT_EQ(seriesUids(db), std::vector<std::string>{"1.1.1"});
}

TEST(StudyDatabase, ADamagedFileIsRebuiltFromTheCacheWithAMessage) {
    TempDir dir;
    const std::string path = dir.file("studies.sqlite"), cache = dir.file("dicom");
    lucent::testing::SeriesSpec spec;
    spec.slices = 3;
    lucent::testing::writeSeries(spec, cache + "/study/" + spec.seriesUid);
    {
        StudyDatabase db(path, cache);
        db.add({made("1.1", "1.1.1")});  // imported from elsewhere: lost by a rebuild, as the message says
    }
    std::ofstream(path, std::ios::binary | std::ios::trunc) << std::string(8192, '\x5a');
    StudyDatabase db(path, cache);
    EXPECT_NE(db.recoveryMessage().find(path + " was damaged"), std::string::npos) << db.recoveryMessage();
    EXPECT_NE(db.recoveryMessage().find("1 series"), std::string::npos) << db.recoveryMessage();
    EXPECT_TRUE(fs::exists(path + ".corrupt"));
    const std::vector<StudySeries> all = db.list();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].seriesUid, spec.seriesUid);
    EXPECT_EQ(all[0].images, 3);
}

TEST(StudyDatabase, RemovingAStudyDeletesItsCachedFilesOnly) {
    TempDir dir;
    const std::string cache = dir.file("dicom");
    lucent::testing::SeriesSpec spec;
    spec.slices = 2;
    const std::vector<std::string> cached = lucent::testing::writeSeries(spec, cache + "/study/" + spec.seriesUid);
    const std::vector<std::string> elsewhere = lucent::testing::writeSeries(spec, dir.file("mine"));
    StudyDatabase db(dir.file("studies.sqlite"), cache);
    db.importPath(cache);
    db.add({made("1.1", "1.1.1")});
    const std::string study =
        db.list().front().studyUid == "1.1" ? db.list().back().studyUid : db.list().front().studyUid;
    EXPECT_TRUE(db.removeStudy(study));
    EXPECT_EQ(seriesUids(db), std::vector<std::string>{"1.1.1"});
    for (const std::string& f : cached) EXPECT_FALSE(fs::exists(f)) << f;
    EXPECT_FALSE(db.removeStudy(study));
    // The same series indexed where the user keeps it: removing the study keeps the files.
    db.importPath(dir.file("mine"));
    EXPECT_TRUE(db.removeStudy(study));
    for (const std::string& f : elsewhere) EXPECT_TRUE(fs::exists(f)) << f;
}

TEST(StudyDatabase, ASeriesGivenFileByFileIsOneSeriesOfAllItsFiles) {
    TempDir dir;
    lucent::testing::SeriesSpec spec;
    spec.slices = 4;
    const std::vector<std::string> files = lucent::testing::writeSeries(spec, dir.file("series"));
    StudyDatabase db(dir.file("studies.sqlite"), dir.file("dicom"));
    const std::vector<StudySeries> indexed = db.importPaths(files);
    ASSERT_EQ(indexed.size(), 1u);
    const std::vector<StudySeries> all = db.list();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].images, 4) << "each file's scan alone would leave the last file's one image";
}

TEST(StudyDatabase, AnOpenedSeriesKeepsAnEntryWhoseFilesAreThereAndReplacesAStaleOne) {
    TempDir dir;
    const std::string cache = dir.file("dicom");
    lucent::testing::SeriesSpec spec;
    spec.slices = 3;
    lucent::testing::writeSeries(spec, cache + "/study/" + spec.seriesUid);
    lucent::testing::writeSeries(spec, dir.file("mine"));
    StudyDatabase db(dir.file("studies.sqlite"), cache);
    db.importPath(cache);
    const lucent::SeriesInfo mine = lucent::io::DicomReader::scan(dir.file("mine")).series.at(0).info;
    db.addOpened(mine);
    ASSERT_EQ(db.list().size(), 1u);
    EXPECT_EQ(db.list()[0].folder, cache + "/study/" + spec.seriesUid) << "the retrieved copy stays indexed";
    fs::remove_all(cache + "/study");
    db.addOpened(mine);
    ASSERT_EQ(db.list().size(), 1u);
    EXPECT_EQ(fs::path(db.list()[0].folder), fs::path(dir.file("mine"))) << "a stale entry takes the opened files";
    EXPECT_EQ(db.list()[0].images, 3);
}
