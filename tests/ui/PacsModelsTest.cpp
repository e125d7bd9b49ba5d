/// @brief The viewer's PACS models without a display: node settings round trip with no secret in the file, the query
/// form, the DICOM browser's lazy model over 5000 studies, a retrieve job that is cancelled or fails (issue 27).
#include "lucent/pacs/PacsSecrets.h"
#include "lucent/pacs/StudyDatabase.h"
#include "lucent/ui/PacsNodeList.h"
#include "lucent/ui/PacsQueryForm.h"
#include "lucent/ui/RetrieveJob.h"
#include "lucent/ui/StudyBrowserModel.h"

#include "EventLoopWait.h"
#include "SyntheticDicom.h"
#include "TempDir.h"

#include "lucent/core/Errors.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QFile>
#include <QSettings>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace lucent;
using lucent::testing::TempDir;
using lucent::testing::waitFor;
namespace fs = std::filesystem;

namespace {

ui::PacsNodeEntry dimseNode() {
    ui::PacsNodeEntry e;
    e.name = "Hospital PACS";
    e.aeTitle = "ORTHANC";
    e.host = "pacs.example.org";
    e.port = 11112;
    e.callingAeTitle = "WORKSTATION";
    e.tls = true;
    return e;
}

ui::PacsNodeEntry webNode(const QString& user, const QString& tokenFile) {
    ui::PacsNodeEntry e;
    e.name = user.isEmpty() ? "Cloud (token)" : "Cloud (user)";
    e.web = true;
    e.url = "https://dicomweb.example.org/dicom-web";
    e.user = user;
    e.tokenFile = tokenFile;
    return e;
}

/// Sets an environment variable for the test's lifetime.
struct ScopedEnv {
    ScopedEnv(const char* name, const char* value) : name(name) {
        if (value)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
    }
    ~ScopedEnv() { ::unsetenv(name); }
    const char* name;
};

}  // namespace

TEST(PacsNodeList, RoundTripsThroughSettingsWithNoSecretInTheFile) {
    TempDir dir;
    const std::string tokenFile = dir.file("token.txt");
    { std::ofstream(tokenFile) << "token-in-a-file-7781\n"; }
    ScopedEnv password(pacs::kPasswordVariable, "password-from-env-5521");
    ui::PacsNodeList written;
    written.put(dimseNode());
    written.put(webNode("radiologist", {}));
    written.put(webNode({}, QString::fromStdString(tokenFile)));
    const QString ini = QString::fromStdString(dir.file("lucent.ini"));
    {
        QSettings settings(ini, QSettings::IniFormat);
        written.save(settings);
    }
    // Using the nodes reads their secrets; nothing of them is written back.
    for (const ui::PacsNodeEntry& e : written.nodes()) ui::connectionFor(e, {});
    {
        QSettings settings(ini, QSettings::IniFormat);
        written.save(settings);
    }
    ui::PacsNodeList read;
    QSettings settings(ini, QSettings::IniFormat);
    read.load(settings);
    EXPECT_EQ(read.nodes(), written.nodes());
    QFile file(ini);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    EXPECT_TRUE(text.contains("radiologist") && text.contains("token.txt") && text.contains("pacs.example.org"));
    EXPECT_FALSE(text.contains("password-from-env-5521"));
    EXPECT_FALSE(text.contains("token-in-a-file-7781"));
}

TEST(PacsNodeList, APasswordNotInTheEnvironmentIsAskedNamingTheNodeAndCancelStops) {
    ScopedEnv password(pacs::kPasswordVariable, nullptr);
    QString asked;
    const auto cancel = [&](const QString& prompt) -> std::optional<QString> {
        asked = prompt;
        return std::nullopt;
    };
    EXPECT_THROW(ui::connectionFor(webNode("radiologist", {}), cancel), Cancelled);
    EXPECT_TRUE(asked.contains("radiologist") && asked.contains("Cloud (user)")) << asked.toStdString();
    const auto answer = [](const QString&) -> std::optional<QString> { return QString("typed"); };
    EXPECT_EQ(ui::connectionFor(webNode("radiologist", {}), answer).label(), "https://dicomweb.example.org/dicom-web");
}

TEST(PacsNodeList, AnUnusableNodeIsRefusedNamingIt) {
    ui::PacsNodeEntry bad = dimseNode();
    bad.aeTitle = "AN-AE-TITLE-OF-20-CH";
    EXPECT_NE(bad.problem().indexOf("'Hospital PACS'"), -1) << bad.problem().toStdString();
    EXPECT_THROW(ui::connectionFor(bad, {}), std::invalid_argument);
    ui::PacsNodeEntry missingToken = webNode({}, "/nonexistent/token");
    try {
        ui::connectionFor(missingToken, {});
        ADD_FAILURE() << "a missing token file was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("Cloud (token)"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(dimseNode().problem().isEmpty());
    EXPECT_EQ(dimseNode().address(), "ORTHANC@pacs.example.org:11112");
}

TEST(PacsQueryForm, TheKeysBecomeAStudyQueryAndABadDateIsRefused) {
    QString error;
    const net::FindQuery q = ui::PacsQueryForm{" Doe* ", "ID-1 ", "20240101-20241231", "mr", "A7"}.studyQuery(&error);
    EXPECT_TRUE(error.isEmpty());
    EXPECT_EQ(q.level, net::QueryLevel::Study);
    EXPECT_EQ(q.patientName, "Doe*");
    EXPECT_EQ(q.patientId, "ID-1");
    EXPECT_EQ(q.studyDate, "20240101-20241231");
    EXPECT_EQ(q.modality, "MR");
    EXPECT_EQ(q.accessionNumber, "A7");
    for (const char* bad : {"2024", "20240101-2024", "-", "yesterday"}) {
        ui::PacsQueryForm{{}, {}, bad, {}, {}}.studyQuery(&error);
        EXPECT_NE(error.indexOf(bad), -1) << bad;
    }
    const net::FindQuery s = ui::PacsQueryForm::seriesQuery("1.2.3");
    EXPECT_EQ(s.level, net::QueryLevel::Series);
    EXPECT_EQ(s.studyUid, "1.2.3");
}

namespace {

constexpr int kStudies = 5000;

/// kStudies made-up studies of one series each ("Doe^1NNNN", ID1NNNN; study 4242 is a PET).
void fill(pacs::StudyDatabase& db) {
    std::vector<pacs::StudySeries> all;
    for (int i = 0; i < kStudies; ++i) {
        pacs::StudySeries e;
        const std::string n = std::to_string(10000 + i);
        e.patientId = "ID" + n;
        e.patientName = "Doe^" + n;
        e.studyUid = "1.2.3." + n;
        e.studyDate = "2024" + std::string(i % 2 ? "0101" : "0601");
        e.seriesUid = e.studyUid + ".1";
        e.modality = i == 4242 ? "PT" : "MR";
        e.images = 1;
        e.folder = "/nowhere/" + n;
        all.push_back(e);
    }
    db.add(all);
}

}  // namespace

TEST(StudyBrowserModel, FiveThousandStudiesOpenWithOnePageFetched) {
    TempDir dir;
    pacs::StudyDatabase db(dir.file("studies.sqlite"), dir.file("cache"));
    fill(db);
    ui::StudyBrowserModel model(db);
    // Counted, not timed: opening reads one page, and the rest only as the view scrolls.
    EXPECT_LT(model.rowCount(), 1000);
    EXPECT_GT(model.rowCount(), 0);
    EXPECT_TRUE(model.canFetchMore());
    while (model.canFetchMore()) model.fetchMore();
    EXPECT_EQ(model.rowCount(), kStudies);
    model.setSearch("pt");
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.seriesUid(0), "1.2.3.14242.1");
    EXPECT_EQ(model.folder(0), "/nowhere/14242");
    model.setSearch("ID1499");
    EXPECT_EQ(model.rowCount(), 10);
    model.setSearch({});
    model.sort(ui::StudyBrowserModel::PatientId, Qt::DescendingOrder);
    EXPECT_EQ(model.index(0, ui::StudyBrowserModel::PatientId).data().toString(), "ID14999");
    model.sort(ui::StudyBrowserModel::StudyDate, Qt::AscendingOrder);
    EXPECT_EQ(model.index(0, ui::StudyBrowserModel::StudyDate).data().toString(), "20240101");
    EXPECT_EQ(model.studyUid(0), "1.2.3.10001");
}

namespace {

/// A fake node: each series asked for arrives as a synthetic series in DEST/SERIES.
struct FakeNode {
    int calls = 0;
    std::function<void(int)> during;  ///< called while series `calls` is "on the wire"
    std::vector<net::RetrievedSeries> operator()(const net::RetrieveRequest& r) {
        ++calls;
        lucent::testing::SeriesSpec spec;
        spec.seriesUid = r.seriesUid;
        spec.slices = 3;
        const std::string folder = (fs::path(r.destination) / r.seriesUid).string();
        fs::create_directories(folder);
        lucent::testing::writeSeries(spec, folder);
        if (during) during(calls);
        return {{r.seriesUid, folder, 3}};
    }
};

struct RetrieveRun {
    TempDir dir;
    std::string database = dir.file("studies.sqlite"), cache = dir.file("cache");
    bool done = false, cancelled = false;
    QString failure;
    QStringList folders;

    void run(ui::RetrieveJob& job, const std::vector<std::string>& series) {
        QObject::connect(&job, &ui::RetrieveJob::finished, [this](const QStringList& f, const QStringList&) {
            folders = f;
            done = true;
        });
        QObject::connect(&job, &ui::RetrieveJob::failed, [this](const QString& m) { failure = m, done = true; });
        QObject::connect(&job, &ui::RetrieveJob::cancelled, [this] { cancelled = done = true; });
        job.start("1.2.826.0.1.3680043.2.1125.9", series);
        ASSERT_TRUE(waitFor([this] { return done; }));
    }
    std::size_t indexed() const { return pacs::StudyDatabase(database, cache).list().size(); }
};

}  // namespace

TEST(RetrieveJob, EverySeriesArrivesThenIsIndexed) {
    RetrieveRun r;
    FakeNode node;
    ui::RetrieveJob job(std::ref(node), "PACS node 'fake'", r.database, r.cache);
    r.run(job, {"1.2.3.1", "1.2.3.2"});
    EXPECT_TRUE(r.failure.isEmpty()) << r.failure.toStdString();
    ASSERT_EQ(r.folders.size(), 2);
    EXPECT_EQ(r.indexed(), 2u);
}

TEST(RetrieveJob, IndexesWhileTheBrowserIsOpenOnThousandsOfStudies) {
    // The browser's model keeps its query open (rows not yet fetched); a retrieve must still index.
    RetrieveRun r;
    pacs::StudyDatabase db(r.database, r.cache);
    fill(db);
    ui::StudyBrowserModel model(db);
    ASSERT_TRUE(model.canFetchMore());
    FakeNode node;
    ui::RetrieveJob job(std::ref(node), "PACS node 'fake'", r.database, r.cache);
    r.run(job, {"1.2.3.1"});
    EXPECT_TRUE(r.failure.isEmpty()) << r.failure.toStdString();
    EXPECT_EQ(r.indexed(), std::size_t(kStudies) + 1);
    model.refresh();
    while (model.canFetchMore()) model.fetchMore();
    EXPECT_EQ(model.rowCount(), kStudies + 1);
}

TEST(RetrieveJob, CancelMidRetrieveLeavesNothingIndexedAndNothingInTheCache) {
    RetrieveRun r;
    FakeNode node;
    ui::RetrieveJob job(std::ref(node), "PACS node 'fake'", r.database, r.cache);
    node.during = [&job](int call) {
        if (call == 1) job.cancel();  // the user presses Cancel while the first series arrives
    };
    r.run(job, {"1.2.3.1", "1.2.3.2", "1.2.3.3"});
    EXPECT_TRUE(r.cancelled);
    EXPECT_EQ(node.calls, 1);
    EXPECT_EQ(r.indexed(), 0u);
    EXPECT_FALSE(fs::exists(fs::path(r.cache) / "1.2.826.0.1.3680043.2.1125.9"));
}

TEST(RetrieveJob, CancelWhileTheLastSeriesArrivesStillIndexesNothing) {
    RetrieveRun r;
    FakeNode node;
    ui::RetrieveJob job(std::ref(node), "PACS node 'fake'", r.database, r.cache);
    node.during = [&job](int) { job.cancel(); };
    r.run(job, {"1.2.3.1"});
    EXPECT_TRUE(r.cancelled);
    EXPECT_TRUE(r.folders.isEmpty());
    EXPECT_EQ(r.indexed(), 0u);
    EXPECT_FALSE(fs::exists(fs::path(r.cache) / "1.2.826.0.1.3680043.2.1125.9"));
}

TEST(RetrieveJob, CancellingARetrieveAgainKeepsTheSeriesCachedBefore) {
    RetrieveRun r;
    {
        FakeNode node;
        ui::RetrieveJob first(std::ref(node), "PACS node 'fake'", r.database, r.cache);
        r.run(first, {"1.2.3.1"});
        ASSERT_EQ(r.indexed(), 1u);
    }
    const fs::path cached = fs::path(r.cache) / "1.2.826.0.1.3680043.2.1125.9" / "1.2.3.1";
    ASSERT_TRUE(fs::exists(cached));
    RetrieveRun again;
    again.database = r.database, again.cache = r.cache;
    FakeNode node;
    ui::RetrieveJob job(std::ref(node), "PACS node 'fake'", r.database, r.cache);
    node.during = [&job](int call) {
        if (call == 2) job.cancel();  // the series cached before arrived again; a new one is cancelled
    };
    again.run(job, {"1.2.3.1", "1.2.3.2"});
    EXPECT_TRUE(again.cancelled);
    EXPECT_TRUE(fs::exists(cached)) << "the series indexed before keeps its files";
    EXPECT_FALSE(fs::exists(cached.parent_path() / "1.2.3.2")) << "the new series' files go";
    const auto listed = pacs::StudyDatabase(r.database, r.cache).list();
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_TRUE(fs::exists(listed[0].folder)) << "the index points at files that exist";
}

TEST(RetrieveJob, AFailedSeriesIndexesNothingAndNamesTheNode) {
    RetrieveRun r;
    FakeNode node;
    node.during = [](int call) {
        if (call == 2) throw net::PacsError("ORTHANC@127.0.0.1:4242: C-GET failed: 1 of 3 instances lost");
    };
    ui::RetrieveJob job(std::ref(node), "PACS node 'fake'", r.database, r.cache);
    r.run(job, {"1.2.3.1", "1.2.3.2"});
    EXPECT_NE(r.failure.indexOf("PACS node 'fake': ORTHANC@127.0.0.1:4242"), -1) << r.failure.toStdString();
    EXPECT_EQ(r.indexed(), 0u);
    EXPECT_FALSE(fs::exists(fs::path(r.cache) / "1.2.826.0.1.3680043.2.1125.9" / "1.2.3.1"));
}

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    app.setOrganizationName("Lucent-tests");
    app.setApplicationName("pacs-models");
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
