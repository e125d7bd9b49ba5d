/// @brief Sessions in the viewer under Xvfb: a synthetic oblique CT volume opened from a file is
/// given a window, layout, cursor, zoom, painted labels with names and colours, seeds clicked on
/// a view, changed parameters, a ruler and an ROI dragged with the mouse; saved, then opened in a
/// fresh window (synchronously, through the background loader, from a moved folder and by the
/// `lucent` executable), every item is compared (labels voxel for voxel, measurement values) and the
/// views' pixels match the ones saved. Bad sessions (missing data, another grid, a newer format, a
/// corrupt file, damaged labels) are refused naming the file, and what was open stays. Real data:
/// the MR DICOM series (folder and series id) and the CT head.
#include "EventLoopWait.h"
#include "TempDir.h"
#include "lucent/io/VolumeFile.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/MeasurementPanel.h"
#include "lucent/ui/OpenGlSetup.h"
#include "lucent/ui/SegmentPanel.h"
#include "lucent/ui/SessionFile.h"
#include "lucent/ui/ViewCapture.h"
#include "lucent/ui/VolumeLoader.h"
#include "RealData.h"

#include <gtest/gtest.h>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSettings>
#include <QSlider>
#include <QTableWidget>
#include <QTest>
#include <QWheelEvent>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>

using namespace lucent;
using namespace lucent::ui;
using lucent::testing::waitFor;
using render::Orientation;

namespace {

constexpr Orientation kOrientations[] = {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal};

/// 40 x 32 x 12 voxels of 0.8 x 1.1 x 2 mm, turned 0.15 rad about the patient's z axis (so that
/// patient and voxel positions differ), a bright ball in soft tissue over air.
Volume phantom(int slices = 12) {
    Geometry g;
    g.dims = {40, 32, slices};
    g.spacing = {0.8, 1.1, 2.0};
    g.origin = {-20.5, 14.25, -33.0};
    const double c = std::cos(0.15), s = std::sin(0.15);
    g.direction = Mat3::fromColumns({c, s, 0}, {-s, c, 0}, {0, 0, 1});
    Volume v(g, PixelType::Int16);
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 0; j < g.dims[1]; ++j)
            for (int i = 0; i < g.dims[0]; ++i) {
                const int d2 = (i - 20) * (i - 20) + (j - 16) * (j - 16) + 4 * (k - 6) * (k - 6);
                const double value = d2 < 64                                ? 60 + (i * 7 + j * 3) % 11
                                     : (i > 3 && i < 36 && j > 3 && j < 28) ? 20 + (i + j) % 9
                                                                            : -1000;
                v.setValue(g.index(i, j, k), value);
            }
    v.metadata().modality = "CT";
    return v;
}

QAction* action(MainWindow& w, const char* name) { return w.findChild<QAction*>(name); }

void prepare(MainWindow& w) {
    w.resize(1280, 860);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    w.activateWindow();
    QApplication::setActiveWindow(&w);
}

/// Pixels of the three slice views as drawn.
std::vector<QImage> viewImages(MainWindow& w) {
    QTest::qWait(100);
    std::vector<QImage> out;
    for (Orientation o : kOrientations) out.push_back(captureView(w.grid().view(o)));
    return out;
}

/// How many pixels differ by more than `tolerance` in a channel (0 when the images match).
long differingPixels(const QImage& a, const QImage& b, int tolerance = 0) {
    if (a.size() != b.size()) return -1;
    const QImage x = a.convertToFormat(QImage::Format_RGB32), y = b.convertToFormat(QImage::Format_RGB32);
    long n = 0;
    for (int r = 0; r < x.height(); ++r)
        for (int c = 0; c < x.width(); ++c) {
            const QRgb p = x.pixel(c, r), q = y.pixel(c, r);
            n += std::abs(qRed(p) - qRed(q)) > tolerance || std::abs(qGreen(p) - qGreen(q)) > tolerance ||
                 std::abs(qBlue(p) - qBlue(q)) > tolerance;
        }
    return n;
}

class Sessions : public ::testing::Test {
protected:
    void SetUp() override {
        QSettings().clear();  // every test starts from the defaults (volume planes, 2x2)
        data = QString::fromStdString(dir.file("study/phantom.mha"));
        std::filesystem::create_directories(dir.file("study"));
        io::writeVolumeFile(phantom(), data.toStdString());
        session = QString::fromStdString(dir.file("study/phantom.lucent"));
    }
    SliceViewWidget* view(MainWindow& w, Orientation o) { return w.grid().view(o); }
    /// The logical mouse point nearest to voxel (i, j) of the axial view's slice.
    QPoint screenOf(MainWindow& w, double i, double j) {
        SliceViewWidget* v = view(w, Orientation::Axial);
        const auto p = v->view().voxelToScreen({i, j, double(v->view().slice())});
        const double dpr = v->devicePixelRatioF();
        return QPoint(int(std::lround(p[0] / dpr)), int(std::lround(p[1] / dpr)));
    }
    void drag(MainWindow& w, QPoint from, QPoint to) {
        SliceViewWidget* v = view(w, Orientation::Axial);
        QTest::mousePress(v, Qt::LeftButton, {}, from);
        QTest::mouseMove(v, (from + to) / 2);
        QTest::mouseMove(v, to);
        QTest::mouseRelease(v, Qt::LeftButton, {}, to);
    }

    /// Window A: everything a session keeps, set the way a user sets it; saved to `session`.
    void buildAndSave(MainWindow& a) {
        QString error;
        ASSERT_TRUE(a.openPath(data, {}, true, &error)) << error.toStdString();
        ViewerModel& m = a.model();
        a.setLayoutMode(Layout::Grid2x2);
        QTest::qWait(100);

        // Labels with names and colours (two regions, one label locked).
        ASSERT_TRUE(m.editLabels(
            [](LabelMap& l) {
                for (int k = 3; k < 9; ++k)
                    for (int j = 5; j < 14; ++j)
                        for (int i = 6; i < 17; ++i) l.at(i, j, k) = 1;
            },
            "Paint"));
        ASSERT_TRUE(m.editLabels(
            [](LabelMap& l) {
                for (int k = 4; k < 8; ++k)
                    for (int j = 14; j < 20; ++j)
                        for (int i = 18; i < 25; ++i) l.at(i, j, k) = 3;
            },
            "Paint"));
        m.setLabelInfo({1, "Liver", {20, 180, 60}, 0.8f, true, false});
        m.setLabelInfo({3, "Lesion", {240, 200, 10}, 1.0f, true, true});
        m.setActiveLabel(3);

        // Seeds clicked on the axial view in region growing, then its interval and the fuzzy
        // connectedness threshold changed; the live run is cancelled (a session keeps settings).
        action(a, "modeRegionGrowing")->trigger();
        QTest::mouseClick(view(a, Orientation::Axial), Qt::LeftButton, {}, screenOf(a, 20, 16));
        QTest::mouseClick(view(a, Orientation::Axial), Qt::LeftButton, {}, screenOf(a, 23, 14));
        ASSERT_EQ(a.segment().seeds().seeds().size(), 2u);
        a.segment().setInterval(-30, 90);
        a.segment().setThreshold(0.731);
        ASSERT_TRUE(waitFor([&] { return !a.segment().live().running(); }));
        a.segment().live().cancel();

        // A ruler and an ellipse ROI dragged on the axial view.
        action(a, "measureRulerAction")->trigger();
        drag(a, screenOf(a, 4, 4), screenOf(a, 30, 22));
        action(a, "measureEllipseAction")->trigger();
        drag(a, screenOf(a, 14, 10), screenOf(a, 27, 23));
        ASSERT_EQ(a.measurementPanel().measurements().all().size(), 2u);
        a.findChild<QTableWidget*>("measurementTable")->clearSelection();

        // Window, cursor, zoom and pan, display toggles, layout with another active view.
        ASSERT_TRUE(a.applyPreset("brain"));
        m.setWindow({55.5, 123.25});
        m.setCursor({21.5, 15.25,
                     double(view(a, Orientation::Axial)->view().slice())});  // where the seeds and measurements are
        SliceViewWidget* ax = view(a, Orientation::Axial);
        const QPoint centre = screenOf(a, 22, 17);
        QWheelEvent wheel(QPointF(centre), ax->mapToGlobal(QPointF(centre)), QPoint(), QPoint(0, 240), Qt::NoButton,
                          Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(ax, &wheel);
        ASSERT_GT(ax->zoom(), 1.2);
        action(a, "linearInterpolation")->trigger();
        action(a, "hudToggle")->trigger();
        // The reslice toggle (View > Anatomical planes), after the ROI: ROIs need the volume's planes.
        action(a, "anatomicalPlanes")->trigger();
        a.findChild<QSlider*>("opacitySlider")->setValue(65);
        a.grid().setActiveView(view(a, Orientation::Coronal));
        a.setLayoutMode(Layout::OnePlusThree);
        QTest::qWait(150);
        ASSERT_TRUE(a.saveSession(session, &error)) << error.toStdString();
        EXPECT_EQ(a.sessionPath(), session);
    }

    /// Every item of window B equals window A's.
    void expectSame(MainWindow& a, MainWindow& b) {
        const ViewerModel& ma = a.model();
        const ViewerModel& mb = b.model();
        ASSERT_TRUE(mb.hasVolume());
        EXPECT_TRUE(mb.volume()->geometry().sameGrid(ma.volume()->geometry(), 1e-9));
        EXPECT_EQ(mb.window().level, ma.window().level);
        EXPECT_EQ(mb.window().width, ma.window().width);
        EXPECT_EQ(mb.preset(), ma.preset());
        EXPECT_EQ(mb.overlayOpacity(), ma.overlayOpacity());
        EXPECT_EQ(b.grid().layoutMode(), a.grid().layoutMode());
        EXPECT_EQ(b.grid().activeView()->orientation(), a.grid().activeView()->orientation());
        EXPECT_EQ(b.grid().maximised(), a.grid().maximised());
        EXPECT_EQ(action(b, "linearInterpolation")->isChecked(), action(a, "linearInterpolation")->isChecked());
        EXPECT_EQ(action(b, "hudToggle")->isChecked(), action(a, "hudToggle")->isChecked());
        EXPECT_EQ(action(b, "anatomicalPlanes")->isChecked(), action(a, "anatomicalPlanes")->isChecked());
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(mb.cursor()[c], ma.cursor()[c], 1e-9) << "cursor axis " << c;
        for (Orientation o : kOrientations) {
            EXPECT_DOUBLE_EQ(view(b, o)->view().zoom(), view(a, o)->view().zoom());
            EXPECT_EQ(view(b, o)->view().pan(), view(a, o)->view().pan());
        }
        ASSERT_TRUE(mb.labels());
        ASSERT_EQ(mb.labels()->voxelCount(), ma.labels()->voxelCount());
        EXPECT_EQ(std::memcmp(mb.labels()->data(), ma.labels()->data(), ma.labels()->voxelCount()), 0)
            << "voxel for voxel";
        ASSERT_EQ(mb.labelTable().labels().size(), ma.labelTable().labels().size());
        for (const LabelInfo& l : ma.labelTable().labels()) {
            const LabelInfo* r = mb.labelTable().find(l.value);
            ASSERT_NE(r, nullptr);
            EXPECT_EQ(r->name, l.name);
            EXPECT_EQ(r->rgb, l.rgb);
            EXPECT_EQ(r->opacity, l.opacity);
            EXPECT_EQ(r->visible, l.visible);
            EXPECT_EQ(r->locked, l.locked);
        }
        EXPECT_EQ(mb.activeLabel(), ma.activeLabel());
        const SegmentSettings sa = a.segment().settings(), sb = b.segment().settings();
        EXPECT_EQ(sb.mode, sa.mode);
        EXPECT_EQ(sb.request.seeds, sa.request.seeds);
        EXPECT_EQ(sb.request.regionGrowing.lower, sa.request.regionGrowing.lower);
        EXPECT_EQ(sb.request.regionGrowing.upper, sa.request.regionGrowing.upper);
        EXPECT_EQ(sb.request.fuzzyConnectedness.threshold, sa.request.fuzzyConnectedness.threshold);
        EXPECT_EQ(sb.backend, sa.backend);
        EXPECT_FALSE(b.segment().live().active()) << "a session starts no run";
        const auto& xa = a.measurementPanel().measurements().all();
        const auto& xb = b.measurementPanel().measurements().all();
        ASSERT_EQ(xb.size(), xa.size());
        for (std::size_t i = 0; i < xa.size(); ++i) {
            EXPECT_EQ(xb[i].kind, xa[i].kind);
            EXPECT_EQ(xb[i].slice, xa[i].slice);
            EXPECT_NEAR(xb[i].value, xa[i].value, 1e-9) << "recomputed from the points and voxels";
            EXPECT_EQ(xb[i].roi.voxels, xa[i].roi.voxels);
            EXPECT_NEAR(xb[i].roi.stddev, xa[i].roi.stddev, 1e-9);
        }
    }

    lucent::testing::TempDir dir;
    QString data, session;
};

}  // namespace

TEST_F(Sessions, EverythingComesBackAndLooksTheSame) {
    MainWindow a;
    prepare(a);
    buildAndSave(a);
    if (HasFatalFailure()) return;
    EXPECT_LT(QFileInfo(session).size(), 20000) << "one small file";
    const auto json = QJsonDocument::fromJson([&] {
        QFile f(session);
        f.open(QIODevice::ReadOnly);
        return f.readAll();
    }());
    EXPECT_EQ(json.object().value("data").toObject().value("path").toString(), "phantom.mha") << "relative: beside it";
    EXPECT_EQ(json.object().value("data").toObject().value("series").toString(), "");
    EXPECT_EQ(a.model().preset(), "brain");
    const std::vector<QImage> before = viewImages(a);
    EXPECT_TRUE(action(a, "anatomicalPlanes")->isChecked());

    // What the next window would start with from the remembered settings is not what was saved.
    QSettings().setValue("view/layout", "2x2");
    QSettings().setValue("view/anatomicalPlanes", false);
    MainWindow b;
    prepare(b);
    QString error;
    ASSERT_TRUE(b.openPath(session, {}, true, &error)) << error.toStdString();
    QTest::qWait(150);
    expectSame(a, b);
    EXPECT_EQ(b.sessionPath(), session);
    EXPECT_TRUE(b.recentFiles().contains(session));
    const std::vector<QImage> after = viewImages(b);
    for (std::size_t v = 0; v < 3; ++v) {
        EXPECT_EQ(after[v].size(), before[v].size()) << render::orientationName(kOrientations[v]);
        EXPECT_EQ(differingPixels(after[v], before[v]), 0) << render::orientationName(kOrientations[v]) << " pixels";
        if (const char* shots = std::getenv("LUCENT_SESSION_SHOTS")) {
            QFile::copy(session, QString("%1/phantom_%2.lucent").arg(shots).arg(v));
            before[v].save(QString("%1/saved_%2.png").arg(shots).arg(v));
            after[v].save(QString("%1/opened_%2.png").arg(shots).arg(v));
        }
    }

    // Edited in B and saved with Ctrl+S, which writes where the session was opened (no dialog).
    ASSERT_TRUE(b.model().editLabels([](LabelMap& l) { l.at(0, 0, 0) = 3; }, "Paint"));
    const auto written = QFileInfo(session).lastModified();
    QTest::qWait(20);
    view(b, Orientation::Axial)->setFocus();
    QTest::keyClick(view(b, Orientation::Axial), Qt::Key_S, Qt::ControlModifier);
    ASSERT_TRUE(waitFor([&] { return QFileInfo(session).lastModified() != written; }, 10000)) << "Ctrl+S saved";
    MainWindow c;
    prepare(c);
    // Through the background loader, as File > Open session and `lucent x.lucent` do.
    QSettings().setValue("view/layout", "2x2");
    QSettings().setValue("view/anatomicalPlanes", false);
    ASSERT_TRUE(c.openPath(session));
    ASSERT_TRUE(waitFor([&] { return c.sessionPath() == session; }));
    QTest::qWait(150);
    expectSame(b, c);
    EXPECT_EQ(c.model().labels()->at(0, 0, 0), 3) << "the edit saved with Ctrl+S";
}

TEST_F(Sessions, AnotherWindowSizeShowsTheSameCentre) {
    // The pan is kept in mm: opened in a smaller window, each view shows at its centre the point of
    // the patient the saved view showed there (in device pixels the axial pan would have moved it).
    MainWindow a;
    prepare(a);
    buildAndSave(a);
    if (HasFatalFailure()) return;
    const auto axialPan = view(a, Orientation::Axial)->view().panMm();
    ASSERT_GT(std::hypot(axialPan[0], axialPan[1]), 0.2) << "the saved axial view is panned";
    MainWindow b;
    b.resize(900, 640);
    b.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&b));
    QString error;
    ASSERT_TRUE(b.openPath(session, {}, true, &error)) << error.toStdString();
    QTest::qWait(150);
    for (Orientation o : kOrientations) {
        const render::SliceViewGeometry& va = view(a, o)->view();
        const render::SliceViewGeometry& vb = view(b, o)->view();
        EXPECT_NE(vb.width(), va.width()) << render::orientationName(o);
        EXPECT_DOUBLE_EQ(vb.zoom(), va.zoom());
        const Vec3 pa = va.screenToPatient(va.width() / 2.0, va.height() / 2.0);
        const Vec3 pb = vb.screenToPatient(vb.width() / 2.0, vb.height() / 2.0);
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(pb[c], pa[c], 1e-6) << render::orientationName(o) << " axis " << c;
    }
}

TEST_F(Sessions, AMovedFolderStillOpens) {
    MainWindow a;
    prepare(a);
    buildAndSave(a);
    if (HasFatalFailure()) return;
    const std::string moved = dir.file("elsewhere/study");
    std::filesystem::create_directories(dir.file("elsewhere"));
    std::filesystem::rename(dir.file("study"), moved);
    MainWindow b;
    prepare(b);
    QString error;
    ASSERT_TRUE(b.openPath(QString::fromStdString(moved + "/phantom.lucent"), {}, true, &error)) << error.toStdString();
    EXPECT_EQ(b.currentPath(), QString::fromStdString(moved + "/phantom.mha"));
    expectSame(a, b);
}

TEST_F(Sessions, BadSessionsAreRefusedAndNothingOpenIsLost) {
    MainWindow a;
    prepare(a);
    buildAndSave(a);
    if (HasFatalFailure()) return;
    QFile f(session);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QByteArray good = f.readAll();
    f.close();

    // What is open in the window that is given the bad sessions: another copy, other labels.
    MainWindow w;
    prepare(w);
    const QString other = QString::fromStdString(dir.file("other.mha"));
    io::writeVolumeFile(phantom(), other.toStdString());
    QString error;
    ASSERT_TRUE(w.openPath(other, {}, true, &error));
    ASSERT_TRUE(w.model().editLabels([](LabelMap& l) { l.at(1, 1, 1) = 5; }, "Paint"));
    const auto volume = w.model().volume();
    const LabelMap labels = *w.model().labels();
    const auto refused = [&](const QString& path, const char* problem) {
        QString why;
        EXPECT_FALSE(w.openPath(path, {}, true, &why)) << problem;
        EXPECT_TRUE(why.contains(QFileInfo(path).fileName())) << "names the file: " << why.toStdString();
        EXPECT_TRUE(why.contains(problem)) << why.toStdString();
        EXPECT_EQ(w.model().volume(), volume) << "the volume stays";
        ASSERT_TRUE(w.model().labels());
        EXPECT_EQ(std::memcmp(w.model().labels()->data(), labels.data(), labels.voxelCount()), 0) << "the labels stay";
        EXPECT_TRUE(w.sessionPath().isEmpty());
    };
    const auto variant = [&](const char* name, const QByteArray& bytes) {
        const QString path = QString::fromStdString(dir.file(std::string("study/") + name));
        QFile out(path);
        EXPECT_TRUE(out.open(QIODevice::WriteOnly));
        out.write(bytes);
        return path;
    };
    QJsonObject root = QJsonDocument::fromJson(good).object();
    root.insert("version", SavedSession::kFormatVersion + 1);
    refused(variant("newer.lucent", QJsonDocument(root).toJson()), "newer Lucent");
    refused(variant("cut.lucent", good.left(good.size() / 3)), "JSON error");
    QJsonObject labelsJson = QJsonDocument::fromJson(good).object();
    QJsonObject l = labelsJson.value("labels").toObject();
    l.insert("voxels", QString(QByteArray("damaged").toBase64()));
    labelsJson.insert("labels", l);
    refused(variant("damaged.lucent", QJsonDocument(labelsJson).toJson()), "damaged");
    refused(QString::fromStdString(dir.file("study/none.lucent")), "no such file");

    // The data changed to another grid since the session was saved: it loads, is refused, and the
    // window keeps what it showed.
    const QString grid = variant("grid.lucent", good);
    std::filesystem::copy_file(data.toStdString(), dir.file("phantom-saved.mha"));
    io::writeVolumeFile(phantom(10), data.toStdString());
    refused(grid, "grid");
    // The data is gone.
    std::filesystem::remove(data.toStdString());
    refused(grid, "missing");
    // Back in place: the same file opens.
    std::filesystem::copy_file(dir.file("phantom-saved.mha"), data.toStdString());
    ASSERT_TRUE(w.openPath(grid, {}, true, &error)) << error.toStdString();
    EXPECT_EQ(w.measurementPanel().measurements().all().size(), 2u);
}

TEST_F(Sessions, CancellingTheLoadKeepsTheWindowAsItWas) {
    MainWindow a;
    prepare(a);
    buildAndSave(a);
    if (HasFatalFailure()) return;
    MainWindow w;
    prepare(w);
    const QString other = QString::fromStdString(dir.file("other.mha"));
    io::writeVolumeFile(phantom(10), other.toStdString());
    QString error;
    ASSERT_TRUE(w.openPath(other, {}, true, &error));
    const auto volume = w.model().volume();
    // Cancel (the progress dialog's button) while the session's data loads: nothing of it lands.
    ASSERT_TRUE(w.openPath(session));
    ASSERT_TRUE(w.loader().isRunning());
    w.loader().cancel();
    w.loader().waitForIdle();
    QTest::qWait(200);
    EXPECT_EQ(w.model().volume(), volume);
    EXPECT_TRUE(w.sessionPath().isEmpty());
    EXPECT_TRUE(w.measurementPanel().measurements().all().empty());
    // The cancelled session is forgotten: the next plain open restores none of it.
    ASSERT_TRUE(w.openPath(data, {}, true, &error)) << error.toStdString();
    EXPECT_FALSE(w.model().labels());
    EXPECT_TRUE(w.measurementPanel().measurements().all().empty());
    EXPECT_TRUE(w.sessionPath().isEmpty());
}

TEST_F(Sessions, TheExecutableOpensASession) {
    const char* exe = std::getenv("LUCENT_EXE");
    if (!exe) GTEST_SKIP() << "LUCENT_EXE is not set (ctest sets it)";
    MainWindow a;
    prepare(a);
    buildAndSave(a);
    if (HasFatalFailure()) return;
    const QString shot = QString::fromStdString(dir.file("shot.png"));
    QProcess p;
    p.start(exe, {session, "--screenshot", shot});
    ASSERT_TRUE(p.waitForFinished(120000));
    EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
    const QImage img(shot);
    ASSERT_FALSE(img.isNull());
    // The locked lesion's yellow is on screen: the labels and their table were applied.
    long lesion = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb c = img.pixel(x, y);
            lesion += qRed(c) > 200 && qGreen(c) > 160 && qGreen(c) < 215 && qBlue(c) < 60;
        }
    EXPECT_GT(lesion, 50) << "lesion pixels in the screenshot";
    // A corrupt session: exit 1 and one line naming the file.
    const QString bad = QString::fromStdString(dir.file("bad.lucent"));
    QFile out(bad);
    ASSERT_TRUE(out.open(QIODevice::WriteOnly));
    out.write("{ not json");
    out.close();
    p.start(exe, {bad, "--screenshot", shot});
    ASSERT_TRUE(p.waitForFinished(120000));
    EXPECT_EQ(p.exitCode(), 1);
    const QString err = QString::fromLocal8Bit(p.readAllStandardError());
    EXPECT_TRUE(err.contains("bad.lucent") && err.contains("JSON")) << err.toStdString();
}

TEST_F(Sessions, RealDataMrSeriesAndCtHead) {
    LUCENT_REAL_DATA_OR_SKIP(mr, lucent::testing::kRealMrSeries);
    LUCENT_REAL_DATA_OR_SKIP(ct, lucent::testing::kRealCtHead);
    for (const std::string& path : {mr, ct}) {
        SCOPED_TRACE(path);
        MainWindow a;
        prepare(a);
        QString error;
        ASSERT_TRUE(a.openPath(QString::fromStdString(path), {}, true, &error)) << error.toStdString();
        const Geometry g = a.model().volume()->geometry();
        // A ball of label 2 about the centre and an ROI on the shown axial slice.
        ASSERT_TRUE(a.model().editLabels(
            [&](LabelMap& l) {
                for (int k = 0; k < g.dims[2]; ++k)
                    for (int j = 0; j < g.dims[1]; ++j)
                        for (int i = 0; i < g.dims[0]; ++i) {
                            const double di = (i - g.dims[0] / 2.0) * g.spacing.x,
                                         dj = (j - g.dims[1] / 2.0) * g.spacing.y,
                                         dk = (k - g.dims[2] / 2.0) * g.spacing.z;
                            if (di * di + dj * dj + dk * dk < 400) l.at(i, j, k) = 2;
                        }
            },
            "Paint"));
        action(a, "measureRectangleAction")->trigger();
        drag(a, screenOf(a, g.dims[0] * 0.3, g.dims[1] * 0.3), screenOf(a, g.dims[0] * 0.6, g.dims[1] * 0.7));
        ASSERT_EQ(a.measurementPanel().measurements().all().size(), 1u);
        // The data stays where it is: the session beside the test's files names it absolutely.
        const QString file = QString::fromStdString(dir.file("real.lucent"));
        ASSERT_TRUE(a.saveSession(file, &error)) << error.toStdString();
        EXPECT_LT(QFileInfo(file).size(), 30000);
        SavedSession saved;
        ASSERT_TRUE(SessionFile::read(file, saved, &error));
        if (path == mr)
            EXPECT_EQ(saved.seriesId.toStdString(), a.model().series().id) << "the series of the folder";
        else
            EXPECT_TRUE(saved.seriesId.isEmpty()) << "a volume file has nothing to choose";
        MainWindow b;
        prepare(b);
        ASSERT_TRUE(b.openPath(file, {}, true, &error)) << error.toStdString();
        EXPECT_EQ(b.model().series().id, a.model().series().id);
        ASSERT_TRUE(b.model().labels());
        EXPECT_EQ(std::memcmp(b.model().labels()->data(), a.model().labels()->data(), a.model().labels()->voxelCount()),
                  0);
        ASSERT_EQ(b.measurementPanel().measurements().all().size(), 1u);
        const Measurement& ra = a.measurementPanel().measurements().all()[0];
        const Measurement& rb = b.measurementPanel().measurements().all()[0];
        EXPECT_GT(ra.roi.voxels, 10u);
        EXPECT_EQ(rb.roi.voxels, ra.roi.voxels);
        EXPECT_NEAR(rb.roi.mean, ra.roi.mean, 1e-9);
    }
}

int main(int argc, char** argv) {
    lucent::ui::prepareOpenGl();
    QApplication app(argc, argv);
    // Its own settings: the layout and toggles these tests leave behind stay out of the other tests.
    app.setOrganizationName("Lucent-session-tests");
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
