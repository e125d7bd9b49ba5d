/// @brief Labels that come back into a window (a recovery copy restored at start, a session file
/// opened, a label file imported) show in the 3D pane as after an accept: their surfaces replace the
/// label volume, and they are solid, so that nested and fragmented labels (fuzzy C-means' classes)
/// hide what they enclose instead of showing through each other like a translucent volume.
#include "MenuDriving.h"
#include "TempDir.h"
#include "View3DPixels.h"

#include "lucent/io/LabelFile.h"
#include "lucent/io/VolumeFile.h"
#include "lucent/ui/Autosave.h"
#include "lucent/ui/View3DWidget.h"
#include "lucent/ui/ViewGrid.h"
#include "RealData.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>

#include <cstdlib>
#include <filesystem>

using namespace lucent;
using namespace lucent::ui;
using lucent::testing::chooseFile;
using lucent::testing::colourPixels;
using lucent::testing::inMarker;
using lucent::testing::middleOf;
using lucent::testing::TempDir;
using lucent::testing::waitFor;
using lucent::testing::whenModal;

namespace {

constexpr int kN = 48;
const std::array<std::uint8_t, 3> kRed = LabelTable::defaultColour(1), kGreen = LabelTable::defaultColour(2),
                                  kBlue = LabelTable::defaultColour(3);

/// Air (-1000 HU, a CT): the bone preset draws none of it, so the pane shows the labels alone.
Volume air() {
    Geometry g;
    g.dims = {kN, kN, kN};
    g.spacing = {2.0, 2.0, 2.0};
    Volume v(g, PixelType::Int16);
    for (std::size_t i = 0; i < v.voxelCount(); ++i) v.setValue(i, -1000);
    v.metadata().modality = "CT";
    return v;
}

/// Label 1 a shell about the centre, label 2 the core it encloses, label 3 two-voxel fragments
/// scattered between them, as a clustering leaves its classes.
void nestedLabels(LabelMap& l) {
    const double c = (kN - 1) / 2.0;
    for (int k = 0; k < kN; ++k)
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i) {
                const double d = std::sqrt((i - c) * (i - c) + (j - c) * (j - c) + (k - c) * (k - c));
                const bool fragment = d > 10 && d < 14 && i % 4 < 2 && j % 4 == 0 && k % 4 == 0;
                l.at(i, j, k) = d < 9 ? 2 : fragment ? 3 : (d > 15 && d < 21) ? 1 : 0;
            }
}

/// Waits for `window`'s 3D pane to show its labels' surfaces; true when they came.
bool surfacesShown(MainWindow& window, int ms = 60000) {
    View3DWidget* pane = window.grid().view3D();
    if (!pane) return false;
    pane->setPlanesVisible(false);  // the pixels read are the labels'
    return waitFor([&] { return pane->surfacesReady(); }, ms);
}

QImage paneImage(MainWindow& window) {
    return window.grid().view3D()->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
}

/// The nested labels' surfaces, shown in place of the label volume and solid: the shell's colour
/// covers the middle of the pane, where the core and the fragments are inside it.
void expectSolidShell(MainWindow& window) {
    ASSERT_TRUE(surfacesShown(window)) << "the labels' surfaces come";
    EXPECT_FALSE(window.grid().view3D()->labelVolumeShown()) << "and replace the label volume";
    const QImage middle = middleOf(paneImage(window));
    EXPECT_GT(colourPixels(middle, kRed, 40), 1400) << "the shell, solid, in its own colour";
    EXPECT_LT(colourPixels(middle, kGreen, 40) + colourPixels(middle, kBlue, 40), 20) << "nothing shows through it";
}

class View3DRestore : public lucent::testing::MenuWindow {
protected:
    void SetUp() override {
        MenuWindow::SetUp();
        window->autosave().setFolder(QString::fromStdString(dir.file("recovery")));
    }
    /// Opens `path` (a volume or a session) in `w` and waits for it.
    void open(MainWindow& w, const std::string& path) {
        QString error;
        ASSERT_TRUE(w.openPath(QString::fromStdString(path), {}, true, &error)) << error.toStdString();
    }
    void openAirWithNestedLabels() {
        io::writeVolumeFile(air(), dir.file("air.mha"));
        ASSERT_NO_FATAL_FAILURE(open(*window, dir.file("air.mha")));
        ASSERT_TRUE(window->model().editLabels(nestedLabels, "Accept"));
    }
    /// A copy of the window's work as a killed process leaves it: another process's name, no live lock.
    QString abandonCopy(MainWindow& w) {
        w.autosave().saveNow();
        w.autosave().waitForWrite();
        const QString left = QString::fromStdString(dir.file("left"));
        QDir().mkpath(left);
        const QString copy = QDir(left).filePath("lucent-1-1-1.lucent");
        EXPECT_TRUE(QFile::copy(w.autosave().copyPath(), copy));
        return left;
    }
    /// A new window that offers the copies in `left` at start, as the next run does, and restores.
    std::unique_ptr<MainWindow> restoreFrom(const QString& left) {
        auto again = std::make_unique<MainWindow>();
        again->autosave().setFolder(left);
        again->resize(1280, 860);
        again->setLayoutMode(Layout::Grid2x2);
        again->show();
        whenModal<QMessageBox>([](QMessageBox* box) {
            for (QAbstractButton* b : box->buttons())
                if (b->text() == "Restore") QTest::mouseClick(b, Qt::LeftButton);
        });
        EXPECT_TRUE(again->recoverAtStart());
        EXPECT_TRUE(waitFor([&] { return again->model().labels() != nullptr; }));
        return again;
    }

    TempDir dir;
};

TEST_F(View3DRestore, ARestoredRecoveryCopyShowsSolidSurfaces) {
    ASSERT_NO_FATAL_FAILURE(openAirWithNestedLabels());
    {
        SCOPED_TRACE("accepted in the first window");
        expectSolidShell(*window);
    }
    const auto again = restoreFrom(abandonCopy(*window));
    ASSERT_TRUE(again->model().labels());
    SCOPED_TRACE("restored from the recovery copy");
    expectSolidShell(*again);
}

TEST_F(View3DRestore, ASessionFileAndAnImportedLabelFileShowSolidSurfaces) {
    ASSERT_NO_FATAL_FAILURE(openAirWithNestedLabels());
    const std::string session = dir.file("nested.lucent"), labels = dir.file("nested-labels.nii.gz");
    QString error;
    ASSERT_TRUE(window->saveSession(QString::fromStdString(session), &error)) << error.toStdString();
    io::writeLabelFile(*window->model().labels(), window->model().labelTable(), labels, {});
    {
        SCOPED_TRACE("a session file opened in another window");
        MainWindow other;
        other.autosave().setFolder(QString::fromStdString(dir.file("other")));
        other.resize(1280, 860);
        other.setLayoutMode(Layout::Grid2x2);
        other.show();
        ASSERT_NO_FATAL_FAILURE(open(other, session));
        expectSolidShell(other);
    }
    SCOPED_TRACE("File > Import labels");
    window->model().clearLabels();
    chooseFile(QString::fromStdString(labels));
    trigger("File", "Import labels...");
    ASSERT_TRUE(window->model().labels());
    expectSolidShell(*window);
}

/// Pixels of the pane in one of the labels' colours, and those bright enough to be told apart.
std::pair<int, int> labelColouredPixels(const QImage& img) {
    int bright = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb c = img.pixel(x, y);
            bright += !inMarker(img, x, y) && qRed(c) + qGreen(c) + qBlue(c) >= 120;
        }
    return {colourPixels(img, kRed, 40) + colourPixels(img, kGreen, 40) + colourPixels(img, kBlue, 40), bright};
}

// The real MR series with three intensity classes (its fuzzy C-means classes, 4 clusters, the
// background left out: thresholds halfway between the cluster centres), restored from a recovery
// copy: the interleaved classes' surfaces come, and each pixel shows one label's colour, not a blend.
TEST_F(View3DRestore, RealMrClassesFromARecoveryCopy) {
    LUCENT_REAL_DATA_OR_SKIP(mr, lucent::testing::kRealMrSeries);
    ASSERT_NO_FATAL_FAILURE(open(*window, mr));
    const Volume& v = *window->model().volume();
    ASSERT_TRUE(window->model().editLabels(
        [&](LabelMap& l) {
            for (std::size_t i = 0; i < l.voxelCount(); ++i) {
                const double value = v.value(i);
                l[i] = value < 142.5 ? 0 : value < 368.5 ? 1 : value < 580.5 ? 2 : 3;
            }
        },
        "Accept"));
    const auto again = restoreFrom(abandonCopy(*window));
    ASSERT_TRUE(again->model().labels());
    ASSERT_TRUE(surfacesShown(*again, 180000)) << "the classes' surfaces come";
    EXPECT_FALSE(again->grid().view3D()->labelVolumeShown());
    const QImage img = paneImage(*again);
    if (const char* out = std::getenv("LUCENT_VIEW3D_SHOTS")) img.save(QString(out) + "/mr-classes-restored.png");
    const auto [coloured, bright] = labelColouredPixels(img);
    ASSERT_GT(bright, img.width() * img.height() / 10) << "the head fills a good part of the pane";
    EXPECT_GT(coloured, bright * 9 / 10) << "solid surfaces, each in its label's colour";
}

}  // namespace
