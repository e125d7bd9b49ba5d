/// @brief Viewer conventions under Xvfb, checked on rendered pixels: a DICOM series opens with its
/// own window (and lists the others), cine plays the slices at the chosen rate, the view and the
/// window go to the clipboard, a view saves as PNG at full resolution, F1 lists the shortcuts.
#include "CtPhantom.h"
#include "EventLoopWait.h"
#include "SyntheticDicom.h"
#include "TempDir.h"

#include "lucent/io/VolumeFile.h"
#include "lucent/ui/CinePlayer.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/OpenGlSetup.h"
#include "lucent/ui/ShortcutsDialog.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMenu>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QTimer>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace lucent;
using namespace lucent::ui;
using lucent::testing::TempDir;
using lucent::testing::waitFor;
using render::Orientation;

namespace {

/// A 16 x 12 x 8 CT series whose voxel (8, 6, 3) is 40 HU, (10, 6, 3) 114 HU and (8, 5, 3) -61 HU,
/// with WindowCenter 40\400, WindowWidth 80\2000, explanations BRAIN\BONE.
lucent::testing::SeriesSpec windowedSpec() {
    lucent::testing::SeriesSpec spec;
    spec.windowCenter = "40\\400";
    spec.windowWidth = "80\\2000";
    spec.windowExplanation = "BRAIN\\BONE";
    // storedValue(i, j, k) = (37 i + 101 j + 1009 k) mod 32768 - 16384 for signed 16-bit.
    spec.intercept = 16384 + 40 - (8 * 37 + 6 * 101 + 3 * 1009);
    return spec;
}

/// Every slice differs (the ball), the box is flat.
std::shared_ptr<Volume> phantom() { return lucent::testing::ctBallPhantom({96, 80, 40}, false); }

int greyAt(SliceViewWidget* view, Vec3 voxel) {
    const QImage img = view->grabFramebuffer();
    const auto p = view->view().voxelToScreen(voxel);
    return qGray(img.pixel(int(p[0]), int(p[1])));
}

void saveForInspection(const QImage& image, const char* name) {
    if (const char* dir = std::getenv("LUCENT_TEST_SHOTS")) image.save(QString(dir) + "/" + name);
}

/// The cine's time source, moved only by the test.
class FakeClock {
public:
    void set(std::chrono::milliseconds sinceStart) { m_now = std::chrono::steady_clock::time_point(sinceStart); }
    CinePlayer::Clock function() {
        return [this] { return m_now; };
    }

private:
    std::chrono::steady_clock::time_point m_now{};
};

class Conventions : public ::testing::Test {
protected:
    void SetUp() override {
        QSettings().clear();
        window = std::make_unique<MainWindow>();
        window->resize(1000, 760);
        window->setLayoutMode(Layout::Grid2x2);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        window->activateWindow();
        QApplication::setActiveWindow(window.get());
    }
    void loadPhantom() {
        SeriesInfo info;
        info.modality = "CT";
        window->model().setVolume(phantom(), info, "abdomen");
        QApplication::processEvents();
    }
    SliceViewWidget* view(Orientation o) { return window->grid().view(o); }
    QAction* action(const char* name) { return window->findChild<QAction*>(name); }

    std::unique_ptr<MainWindow> window;
};

}  // namespace

TEST_F(Conventions, DicomSeriesOpensWithItsOwnWindowAndListsTheOthers) {
    TempDir dir;
    lucent::testing::writeSeries(windowedSpec(), dir.path());
    QSettings().setValue("view/preset", "bone");  // a remembered CT preset: the scan's own window wins
    window->model().setLinearInterpolation(false);  // voxel values exactly at the pixels read below
    QString error;
    ASSERT_TRUE(window->openPath(QString::fromStdString(dir.path()), {}, true, &error)) << error.toStdString();
    EXPECT_EQ(window->model().preset(), "file1");
    EXPECT_DOUBLE_EQ(window->model().window().level, 40);
    EXPECT_DOUBLE_EQ(window->model().window().width, 80);
    ASSERT_DOUBLE_EQ(window->model().cursor().z, 3);
    QApplication::processEvents();

    // Rendered: 40 HU is the window's middle (mid-grey), 114 HU above it (white), -61 HU below (black).
    SliceViewWidget* axial = view(Orientation::Axial);
    saveForInspection(axial->grabFramebuffer(), "scan-window-axial.png");
    EXPECT_NEAR(greyAt(axial, {8, 6, 3}), 128, 3);
    EXPECT_EQ(greyAt(axial, {10, 6, 3}), 255);
    EXPECT_EQ(greyAt(axial, {8, 5, 3}), 0);

    // The menu lists both of the file's windows above the presets, the current one checked.
    QAction* brain = action("window_file1");
    QAction* bone = action("window_file2");
    ASSERT_TRUE(brain && bone);
    EXPECT_EQ(brain->text(), "BRAIN  W 80 L 40");
    EXPECT_EQ(bone->text(), "BONE  W 2000 L 400");
    QMenu* menu = qobject_cast<QMenu*>(brain->parent());
    ASSERT_TRUE(menu);
    emit menu->aboutToShow();
    EXPECT_TRUE(brain->isChecked());
    EXPECT_FALSE(bone->isChecked());
    EXPECT_FALSE(action("preset_bone")->isChecked());
    EXPECT_LT(menu->actions().indexOf(bone), menu->actions().indexOf(action("preset_lung")));
    bone->trigger();
    EXPECT_DOUBLE_EQ(window->model().window().level, 400);
    EXPECT_DOUBLE_EQ(window->model().window().width, 2000);
    emit menu->aboutToShow();
    EXPECT_FALSE(brain->isChecked());
    EXPECT_TRUE(bone->isChecked());
    // A scan's window is not remembered as the preset for the next volume.
    EXPECT_EQ(QSettings().value("view/preset").toString(), "bone");
    // An explicit preset (--preset, or the menu) still applies over the scan's window.
    ASSERT_TRUE(window->applyPreset("lung"));
    EXPECT_DOUBLE_EQ(window->model().window().level, -600);

    // A series without window tags: the remembered preset again, and no scan entries in the menu.
    TempDir plain;
    lucent::testing::writeSeries(lucent::testing::SeriesSpec{}, plain.path());
    ASSERT_TRUE(window->openPath(QString::fromStdString(plain.path()), {}, true, &error)) << error.toStdString();
    EXPECT_EQ(window->model().preset(), "lung");
    QApplication::processEvents();
    EXPECT_EQ(action("window_file1"), nullptr);
}

TEST_F(Conventions, CineAdvancesAtTheChosenRateAndStops) {
    loadPhantom();
    // One view: under Xvfb the GL is software, and the 3D pane's ray casting at every slice would
    // take the event loop for seconds (on a GPU it takes milliseconds).
    window->grid().setActiveView(view(Orientation::Axial));
    window->setLayoutMode(Layout::Single);
    QApplication::processEvents();
    // The cine follows a fake clock: the slices shown depend on its time only, not on how late the
    // machine's timer ticks (the timer still ticks, at a fake time that has not moved: no slice).
    FakeClock clock;
    window->cine().setClock(clock.function());
    auto* rate = window->findChild<QSpinBox*>("cineRate");
    ASSERT_TRUE(rate);
    rate->setValue(20);
    const double x = window->model().cursor().x, y = window->model().cursor().y;
    const int start = int(window->model().cursor().z);
    const QImage before = view(Orientation::Axial)->grabFramebuffer();
    QTest::keyClick(window.get(), Qt::Key_P);  // View > Cine play / pause
    ASSERT_TRUE(window->cine().playing());
    // At 20 slices a second, t ms of play are t / 50 slices, always forward, wrapping after the last
    // slice (30 slices from 19 pass slice 39), along the axial view's normal only. The times are
    // away from whole slices, so that rounding cannot move one.
    for (const int ms : {20, 57, 237, 491, 1513}) {
        clock.set(std::chrono::milliseconds(ms));
        window->cine().tick();
        const int slice = (start + ms * 20 / 1000) % 40;
        EXPECT_EQ(window->model().cursor().z, slice) << ms << " ms";
        // The view shows that slice: the ball (1000 HU, white in the abdomen window) lies on
        // slices 13 to 27 only (4 (k - 20)^2 < 15^2), the box (40 HU) around it.
        const bool ball = 4 * (slice - 20) * (slice - 20) < 15 * 15;
        EXPECT_EQ(greyAt(view(Orientation::Axial), {48, 40, double(slice)}) == 255, ball) << ms << " ms";
        EXPECT_EQ(view(Orientation::Axial)->view().slice(), slice) << ms << " ms";
        EXPECT_EQ(window->model().cursor().x, x);
        EXPECT_EQ(window->model().cursor().y, y);
    }
    EXPECT_NE(view(Orientation::Axial)->grabFramebuffer(), before);  // the view shows the new slice
    QTest::keyClick(window.get(), Qt::Key_P);
    EXPECT_FALSE(window->cine().playing());
    EXPECT_FALSE(action("cinePlay")->isChecked());
    // Stopped means stopped: time passes (10 slices' worth, less than a cycle) and ticks come, the
    // slice stays.
    const Vec3 stoppedAt = window->model().cursor();
    clock.set(std::chrono::milliseconds(2013));
    window->cine().tick();
    QApplication::processEvents();
    EXPECT_EQ(window->model().cursor(), stoppedAt);

    // On the coronal view it plays along y; bouncing turns at the last slice (79) instead of wrapping.
    window->grid().setActiveView(view(Orientation::Coronal));
    action("cineBounce")->trigger();
    ASSERT_TRUE(window->cine().bounce());
    window->model().setCursor({x, 77, stoppedAt.z});
    rate->setValue(5);  // 200 ms a slice
    std::vector<int> ys;
    QObject::connect(&window->model(), &ViewerModel::cursorChanged, window.get(),
                     [&] { ys.push_back(int(window->model().cursor().y)); });
    action("cinePlay")->trigger();
    EXPECT_EQ(window->cine().axis(), 1);
    for (int n = 1; n <= 6; ++n) {  // 210 ms apart: one slice each, away from whole slices
        clock.set(std::chrono::milliseconds(2013 + 210 * n));
        window->cine().tick();
    }
    action("cinePlay")->trigger();
    EXPECT_EQ(ys, (std::vector<int>{78, 79, 78, 77, 76, 75}));
    EXPECT_EQ(window->model().cursor().z, stoppedAt.z);
    // A new volume stops the cine.
    action("cinePlay")->trigger();
    loadPhantom();
    EXPECT_FALSE(window->cine().playing());
}

TEST_F(Conventions, CinePlaysTheFramesOfA4DFile) {
    // Three frames on one 20 x 16 x 6 grid; frame f holds 1000 f + i everywhere.
    Geometry g;
    g.dims = {20, 16, 6};
    std::vector<Volume> frames;
    for (int f = 0; f < 3; ++f) {
        Volume v(g, PixelType::Float32);
        for (std::size_t n = 0; n < v.voxelCount(); ++n) v.setValue(n, 1000.0 * f + double(n % 20));
        frames.push_back(std::move(v));
    }
    TempDir dir;
    const std::string path = dir.file("series4d.nii.gz");
    io::writeVolumeFrames(frames, path);
    QString error;
    ASSERT_TRUE(window->openPath(QString::fromStdString(path), {}, true, &error)) << error.toStdString();
    ViewerModel& model = window->model();
    ASSERT_EQ(model.frameCount(), 3);
    EXPECT_EQ(model.frame(), 0);
    EXPECT_EQ(model.volume()->value(7, 3, 2), 7);
    window->grid().setActiveView(view(Orientation::Axial));
    window->setLayoutMode(Layout::Single);
    QApplication::processEvents();
    const Vec3 cursor = model.cursor();
    const int generation = model.volumeGeneration();
    const QImage first = view(Orientation::Axial)->grabFramebuffer();

    action("cineFrames")->trigger();
    window->findChild<QSpinBox*>("cineRate")->setValue(5);
    FakeClock clock;  // 200 ms a frame; ticks 210 ms apart show one frame each, whatever the load
    window->cine().setClock(clock.function());
    std::vector<int> seen;
    QObject::connect(&model, &ViewerModel::frameChanged, window.get(), [&] { seen.push_back(model.frame()); });
    action("cinePlay")->trigger();
    for (int n = 1; n <= 4; ++n) {
        clock.set(std::chrono::milliseconds(210 * n));
        window->cine().tick();
    }
    action("cinePlay")->trigger();
    EXPECT_EQ(seen, (std::vector<int>{1, 2, 0, 1}));
    // Only the voxels changed: same cursor, new voxel values, the views uploaded and drew them.
    EXPECT_EQ(model.cursor(), cursor);
    EXPECT_EQ(model.volume()->value(7, 3, 2), 1000.0 * model.frame() + 7);
    EXPECT_GT(model.volumeGeneration(), generation);
    model.setFrame(2);
    QApplication::processEvents();
    EXPECT_NE(view(Orientation::Axial)->grabFramebuffer(), first);

    // A single volume has one frame, and frames on another grid are refused.
    loadPhantom();
    EXPECT_EQ(model.frameCount(), 1);
    model.setFrames({model.volume(), std::make_shared<Volume>(g, PixelType::Int16)});
    EXPECT_EQ(model.frameCount(), 1);
    // Opened interactively (in the background), the frames arrive with the volume too.
    window->openPath(QString::fromStdString(path));
    ASSERT_TRUE(waitFor([&] { return model.volume()->geometry().dims == g.dims; }));
    EXPECT_EQ(model.frameCount(), 3);
}

TEST_F(Conventions, CopyAndSaveTheView) {
    loadPhantom();
    SliceViewWidget* axial = view(Orientation::Axial);
    window->grid().setActiveView(axial);
    const QSize device = axial->size() * axial->devicePixelRatioF();
    QApplication::clipboard()->clear();
    QTest::keyClick(window.get(), Qt::Key_C, Qt::ControlModifier);  // Edit > Copy view
    ASSERT_TRUE(waitFor([] { return !QApplication::clipboard()->image().isNull(); }, 5000));
    const QImage copied = QApplication::clipboard()->image();
    EXPECT_EQ(copied.size(), device);
    int white = 0;  // the ball (1000 HU, abdomen window) is in it
    for (int y = 0; y < copied.height(); ++y)
        for (int x = 0; x < copied.width(); ++x) white += qGray(copied.pixel(x, y)) == 255;
    EXPECT_GT(white, 100);

    action("copyWindow")->trigger();
    const QImage whole = QApplication::clipboard()->image();
    EXPECT_EQ(whole.size(), window->size() * window->devicePixelRatioF());
    saveForInspection(whole, "copy-window.png");

    // Save view as PNG: full device resolution, annotations included (the same frame as the view).
    TempDir dir;
    const QString path = QString::fromStdString(dir.file("view.png"));
    { std::ofstream(path.toStdString()) << "an older file"; }
    QString error;
    ASSERT_TRUE(window->saveViewPng(path, &error)) << error.toStdString();
    const QImage saved(path);
    EXPECT_EQ(saved.size(), device);
    EXPECT_EQ(saved.convertToFormat(QImage::Format_RGB32).pixel(device.width() / 2, device.height() / 2),
              axial->grabFramebuffer().convertToFormat(QImage::Format_RGB32).pixel(device.width() / 2, device.height() / 2));
    saveForInspection(saved, "save-view.png");
    // A folder that does not exist: an error naming the file, and nothing written.
    const QString bad = QString::fromStdString(dir.file("missing/view.png"));
    EXPECT_FALSE(window->saveViewPng(bad, &error));
    EXPECT_TRUE(error.contains("missing")) << error.toStdString();
    EXPECT_FALSE(std::filesystem::exists(bad.toStdString()));
    int files = 0;
    for (auto& e : std::filesystem::directory_iterator(dir.path())) files += e.is_regular_file();
    EXPECT_EQ(files, 1);  // view.png only: no temporary left behind
}

TEST_F(Conventions, F1ListsEveryShortcutWithoutClashes) {
    const auto entries = ShortcutsDialog::collect(window.get());
    auto has = [&](const QString& keys, const QString& text) {
        for (const auto& e : entries)
            if (e.keys == keys && e.action == text) return true;
        return false;
    };
    EXPECT_TRUE(has("Ctrl+C", "Copy view"));
    EXPECT_TRUE(has("Ctrl+Shift+C", "Copy window"));
    EXPECT_TRUE(has("P", "Cine play / pause"));
    EXPECT_TRUE(has("F1", "Keyboard shortcuts"));
    EXPECT_TRUE(has("Ctrl+Shift+S", "Save view as PNG"));
    EXPECT_TRUE(has("1", "CT lung"));
    // Two actions on one key fire neither in Qt: the whole window must have none.
    const QStringList clashes = ShortcutsDialog::clashes(entries);
    EXPECT_TRUE(clashes.isEmpty()) << clashes.join("\n").toStdString();
    EXPECT_EQ(ShortcutsDialog::clashes({{"X", "A", "one"}, {"X", "B", "two"}}).size(), 1);  // the check can fail

    bool shown = false;
    QTimer::singleShot(200, [&] {
        if (auto* dialog = qobject_cast<ShortcutsDialog*>(QApplication::activeModalWidget())) {
            auto* table = dialog->findChild<QTableWidget*>("shortcutsTable");
            shown = table && table->rowCount() == int(entries.size() + ShortcutsDialog::viewKeys().size());
            saveForInspection(dialog->grab().toImage(), "shortcuts.png");
            dialog->reject();
        }
    });
    QTest::keyClick(window.get(), Qt::Key_F1);
    EXPECT_TRUE(shown);
}

int main(int argc, char** argv) {
    lucent::ui::prepareOpenGl();
    QApplication app(argc, argv);
    app.setOrganizationName("Lucent-tests");
    app.setApplicationName("conventions");  // never touch the user's settings, nor the other tests'
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
