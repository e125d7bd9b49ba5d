/// @brief The File and View menus driven as a user does under Xvfb: every file comes through the
/// real (Qt widget) file dialog, typed into its name field. Open file and Open folder load what the
/// test wrote (a volume file, a DICOM series); Save session as then Open session gives the labels
/// back byte for byte; Export labels writes the label map and Import labels reads it back; Quit
/// closes the window; Reset zoom and pan restores the views; Save 3D screenshot writes the pane.
#include "MenuDriving.h"
#include "TempDir.h"
#if LUCENT_TEST_DICOM
#include "SyntheticDicom.h"
#endif

#include "lucent/io/LabelFile.h"
#include "lucent/io/VolumeFile.h"
#include "lucent/pacs/StudyDatabase.h"
#include "lucent/ui/PacsActions.h"
#include "lucent/ui/OpenGlSetup.h"
#if LUCENT_HAVE_VTK
#include "lucent/ui/View3DWidget.h"
#endif

#include <QDialog>
#include <QFileInfo>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QWheelEvent>

#include <algorithm>
#include <set>

using namespace lucent;
using namespace lucent::ui;
using lucent::testing::chooseFile;
using lucent::testing::TempDir;
using lucent::testing::waitFor;
using lucent::testing::whenModal;
using render::Orientation;

namespace {

constexpr Orientation kOrientations[] = {Orientation::Axial, Orientation::Coronal, Orientation::Sagittal};

/// 30 x 22 x 9 voxels of 0.7 x 0.9 x 2 mm whose value tells where it is: 1000 k + 31 j + i (odd
/// sizes, so a transposed or flipped read shows), and a bright ball for the 3D view.
Volume pattern() {
    Geometry g;
    g.dims = {30, 22, 9};
    g.spacing = {0.7, 0.9, 2.0};
    Volume v(g, PixelType::Int16);
    for (int k = 0; k < 9; ++k)
        for (int j = 0; j < 22; ++j)
            for (int i = 0; i < 30; ++i) v.setValue(g.index(i, j, k), 1000 * k + 31 * j + i);
    v.metadata().modality = "CT";
    return v;
}

/// Two labels in blocks and a lone voxel: a layer whose every byte is known.
LabelMap painted(const Geometry& g) {
    LabelMap m(g);
    for (int k = 1; k < 6; ++k)
        for (int j = 3; j < 12; ++j)
            for (int i = 2; i < 14; ++i) m.at(i, j, k) = 1;
    for (int k = 4; k < 8; ++k)
        for (int j = 14; j < 20; ++j)
            for (int i = 18; i < 27; ++i) m.at(i, j, k) = 2;
    m.at(g.dims[0] - 1, 0, g.dims[2] - 1) = 2;
    return m;
}

bool sameBytes(const LabelMap& a, const LabelMap& b) {
    return a.voxelCount() == b.voxelCount() && std::equal(a.data(), a.data() + a.voxelCount(), b.data());
}

class FileMenu : public lucent::testing::MenuWindow {
protected:
    void SetUp() override {
        MenuWindow::SetUp();
        data = QString::fromStdString(dir.file("pattern.mha"));
        io::writeVolumeFile(pattern(), data.toStdString());
    }
    /// File > Open file... with `path` typed into the dialog; waits for the volume.
    void openFile(const QString& path) {
        QString title;
        chooseFile(path, &title);
        trigger("File", "Open file...");
        EXPECT_EQ(title, "Open DICOM or volume file");
        ASSERT_TRUE(waitFor([&] { return window->model().hasVolume(); }));
        EXPECT_EQ(QFileInfo(window->currentPath()).canonicalFilePath(), QFileInfo(path).canonicalFilePath());
    }
    void paint() {
        const LabelMap layer = painted(window->model().volume()->geometry());
        ASSERT_TRUE(window->model().editLabels([&](LabelMap& m) { m = layer; }, "Paint"));
    }

    TempDir dir;
    QString data;
};

}  // namespace

TEST_F(FileMenu, OpenFileLoadsTheChosenVolume) {
    ASSERT_NO_FATAL_FAILURE(openFile(data));
    const Volume& v = *window->model().volume();
    const Volume expected = pattern();
    EXPECT_EQ(v.geometry().dims, expected.geometry().dims);
    EXPECT_NEAR(v.geometry().spacing.y, 0.9, 1e-6);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < expected.voxelCount(); ++i) wrong += v.value(i) != expected.value(i);
    EXPECT_EQ(wrong, 0u) << "every voxel as written";
    EXPECT_TRUE(window->windowTitle().contains("30 x 22 x 9")) << window->windowTitle().toStdString();
}

#if LUCENT_TEST_DICOM
TEST_F(FileMenu, OpenFolderLoadsTheDicomSeries) {
    lucent::testing::SeriesSpec spec;
    spec.columns = 19;
    spec.rows = 13;
    spec.slices = 7;
    lucent::testing::writeSeries(spec, dir.file("series"));
    const QString folder = QString::fromStdString(dir.file("series"));
    const std::string dbPath = dir.file("studies.sqlite");
    struct Restore {
        QByteArray before = qgetenv("LUCENT_DB");
        ~Restore() { qputenv("LUCENT_DB", before); }
    } restore;
    qputenv("LUCENT_DB", QByteArray::fromStdString(dbPath));
    QSignalSpy indexed(&window->pacs(), &PacsActions::indexed);
    QString title;
    chooseFile(folder, &title);
    trigger("File", "Open folder...");
    EXPECT_EQ(title, "Open DICOM folder");
    ASSERT_TRUE(waitFor([&] { return window->model().hasVolume(); }));
    const Volume& v = *window->model().volume();
    EXPECT_EQ(v.geometry().dims, (std::array<int, 3>{19, 13, 7}));
    std::size_t wrong = 0;
    for (int k = 0; k < 7; ++k)
        for (int j = 0; j < 13; ++j)
            for (int i = 0; i < 19; ++i)
                wrong += v.value(i, j, k) != spec.storedValue(i, j, k) * spec.slope + spec.intercept;
    EXPECT_EQ(wrong, 0u) << "the slices in position order, every voxel as stored";
    EXPECT_EQ(v.metadata().modality, "CT");
    // The series joined the study database (LUCENT_DB: a file of the test's), found by its UID.
    ASSERT_TRUE(waitFor([&] { return indexed.count() > 0; })) << "indexed off the GUI thread";
    EXPECT_EQ(indexed.takeFirst().at(0).toInt(), 1);
    const auto listed = pacs::StudyDatabase(dbPath, dir.file("cache")).list();
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0].seriesUid, window->model().series().uid);
    EXPECT_EQ(listed[0].images, 7);
    // A DICOM series: File > Export labels as DICOM SEG is offered, and its dialog writes a SEG.
    auto* seg = window->findChild<QAction*>("exportDicomSeg");
    ASSERT_NE(seg, nullptr);
    EXPECT_TRUE(seg->isEnabled());
    ASSERT_TRUE(window->model().editLabels(
        [&](LabelMap& m) {
            for (int k = 2; k < 5; ++k)
                for (int j = 3; j < 9; ++j)
                    for (int i = 4; i < 12; ++i) m.at(i, j, k) = 1;
        },
        "Paint"));
    const QString file = QString::fromStdString(dir.file("labels.dcm"));
    QStringList filters;
    chooseFile(file, nullptr, [&] { whenModal<QDialog>([&](QDialog* d) { lucent::testing::clickOk(d); }); }, &filters);
    seg->trigger();
    EXPECT_EQ(filters, QStringList{"DICOM SEG (*.dcm)"});
    ASSERT_TRUE(QFileInfo::exists(file));
    const auto written = io::readLabelFile(file.toStdString(), window->model().volume()->geometry());
    EXPECT_TRUE(sameBytes(written.labels, *window->model().labels())) << "the SEG holds the layer";
}
#endif

TEST_F(FileMenu, SaveSessionAsThenOpenSessionGivesTheLabelsBack) {
    ASSERT_NO_FATAL_FAILURE(openFile(data));
    ASSERT_NO_FATAL_FAILURE(paint());
    const LabelMap saved = *window->model().labels();
    const QString session = QString::fromStdString(dir.file("mine"));  // no suffix: the viewer adds .lucent
    QString title;
    chooseFile(session, &title);
    trigger("File", "Save session as...");
    EXPECT_EQ(title, "Save session");
    ASSERT_TRUE(QFileInfo::exists(session + ".lucent")) << "saved where the dialog said, with the suffix";
    EXPECT_EQ(window->sessionPath(), QFileInfo(session + ".lucent").absoluteFilePath());

    // Another window opens it through File > Open session.
    window = std::make_unique<MainWindow>();
    window->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
    ASSERT_FALSE(window->model().labels());
    chooseFile(session + ".lucent", &title);
    trigger("File", "Open session...");
    EXPECT_EQ(title, "Open session");
    ASSERT_TRUE(waitFor([&] { return window->model().labels() != nullptr; }));
    EXPECT_EQ(QFileInfo(window->currentPath()).canonicalFilePath(), QFileInfo(data).canonicalFilePath());
    EXPECT_TRUE(sameBytes(*window->model().labels(), saved)) << "labels byte for byte";
}

TEST_F(FileMenu, ExportLabelsWritesTheLayerAndImportReadsItBack) {
    ASSERT_NO_FATAL_FAILURE(openFile(data));
    ASSERT_NO_FATAL_FAILURE(paint());
    const LabelMap layer = *window->model().labels();
    const QString file = QString::fromStdString(dir.file("labels.nrrd"));
    // Export asks for the file, then which labels: both stay checked.
    QStringList chooser, filters;
    chooseFile(
        file, nullptr,
        [&] {
            whenModal<QDialog>([&](QDialog* d) {
                chooser << d->windowTitle();
                lucent::testing::clickOk(d);
            });
        },
        &filters);
    trigger("File", "Export labels...");
    EXPECT_EQ(chooser, QStringList{"Export labels"});
    ASSERT_TRUE(QFileInfo::exists(file));
    // A volume file has no DICOM images for a SEG to reference: that format is not offered.
    EXPECT_FALSE(filters.isEmpty());
    EXPECT_FALSE(filters.join(";").contains("DICOM SEG")) << filters.join(";").toStdString();
    // ... and its own menu item is greyed, saying why.
    auto* seg = window->findChild<QAction*>("exportDicomSeg");
    ASSERT_NE(seg, nullptr);
    EXPECT_FALSE(seg->isEnabled());
    EXPECT_TRUE(seg->text().contains("needs a volume read from a DICOM series")) << seg->text().toStdString();
    // The export says where and how big.
    const QString said = window->statusBar()->currentMessage();
    const qint64 bytes = QFileInfo(file).size();
    const QString size = bytes < 1024 ? QString("(%1 bytes)").arg(bytes) : QString("(%1 kB)").arg(bytes / 1024.0, 0, 'f', 1);
    EXPECT_TRUE(said.contains(file) && said.contains("labels 1, 2") && said.contains(size)) << said.toStdString();
    const auto written = io::readLabelFile(file.toStdString(), window->model().volume()->geometry());
    EXPECT_TRUE(sameBytes(written.labels, layer)) << "the file's voxels are the label map";

    window->model().clearLabels();
    ASSERT_FALSE(window->model().labels());
    QString title;
    chooseFile(file, &title);
    trigger("File", "Import labels...");
    EXPECT_EQ(title, "Import labels");
    ASSERT_TRUE(window->model().labels());
    EXPECT_TRUE(sameBytes(*window->model().labels(), layer)) << "read back byte for byte";
}

TEST_F(FileMenu, QuitClosesTheWindow) {
    QSettings().remove("window/geometry");
    ASSERT_TRUE(window->isVisible());
    key(Qt::Key_Q, Qt::ControlModifier);  // File > Quit's shortcut
    QApplication::processEvents();
    EXPECT_FALSE(window->isVisible());
    EXPECT_TRUE(QSettings().contains("window/geometry")) << "closeEvent ran: the geometry was saved";
    QAction* quit = action("File", "Quit");
    ASSERT_NE(quit, nullptr);
    EXPECT_EQ(quit->shortcut(), QKeySequence(QKeySequence::Quit));
}

namespace {

void wheel(QWidget* w, QPoint at, int steps, Qt::KeyboardModifiers mods) {
    QWheelEvent e(at, w->mapToGlobal(at), {}, {0, 120 * steps}, Qt::NoButton, mods, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
}

}  // namespace

TEST_F(FileMenu, ResetZoomAndPanRestoresEveryView) {
    ASSERT_NO_FATAL_FAILURE(openFile(data));
    QTest::qWait(50);
    std::vector<QImage> initial;
    for (Orientation o : kOrientations) initial.push_back(window->grid().view(o)->grabFramebuffer());
    // Zoom and pan two views with the mouse.
    for (Orientation o : {Orientation::Axial, Orientation::Coronal}) {
        SliceViewWidget* v = window->grid().view(o);
        const QPoint c(v->width() / 2, v->height() / 2);
        wheel(v, c, 4, Qt::ControlModifier);
        QTest::mousePress(v, Qt::MiddleButton, {}, c);
        QTest::mouseMove(v, c + QPoint(25, 15));
        QTest::mouseRelease(v, Qt::MiddleButton, {}, c + QPoint(25, 15));
        ASSERT_GT(v->zoom(), 1.5);
        ASSERT_NE(v->view().panMm()[0], 0.0);
    }
    key(Qt::Key_R, Qt::ControlModifier);  // View > Reset zoom and pan
    QTest::qWait(50);
    for (std::size_t n = 0; n < 3; ++n) {
        SliceViewWidget* v = window->grid().view(kOrientations[n]);
        EXPECT_EQ(v->zoom(), 1.0) << n;
        EXPECT_EQ(v->view().panMm()[0], 0.0) << n;
        EXPECT_EQ(v->view().panMm()[1], 0.0) << n;
        EXPECT_TRUE(v->grabFramebuffer() == initial[n]) << "view " << n << " draws as it did before zoom and pan";
    }
    QAction* reset = action("View", "Reset zoom and pan");
    ASSERT_NE(reset, nullptr);
    EXPECT_EQ(reset->shortcut(), QKeySequence("Ctrl+R"));
}

#if LUCENT_HAVE_VTK
TEST_F(FileMenu, Save3dScreenshotWritesThePane) {
    ASSERT_NO_FATAL_FAILURE(openFile(data));
    View3DWidget* v3d = window->grid().view3D();
    ASSERT_NE(v3d, nullptr);
    ASSERT_TRUE(waitFor([&] { return v3d->isVisible(); }));
    QTest::qWait(200);
    const QString png = QString::fromStdString(dir.file("shot.png"));
    QString title;
    chooseFile(png, &title);
    trigger("View", "Save 3D screenshot...");
    EXPECT_EQ(title, "Save 3D screenshot");
    QImage shot;
    ASSERT_TRUE(shot.load(png, "PNG"));
    EXPECT_EQ(shot.size(), v3d->size() * v3d->devicePixelRatio()) << "the 3D pane's size in device pixels";
    std::set<QRgb> colours;
    for (int y = 0; y < shot.height(); y += 3)
        for (int x = 0; x < shot.width(); x += 3) colours.insert(shot.pixel(x, y));
    EXPECT_GT(colours.size(), 20u) << "the rendered volume, not a blank pane";
}
#endif

int main(int argc, char** argv) {
    lucent::ui::prepareOpenGl();
    // Qt's own file dialog (not a desktop portal's): the tests type into its fields.
    QApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    QApplication app(argc, argv);
    app.setOrganizationName("Lucent-tests");
    app.setApplicationName("menus");  // never touch the user's settings, nor the other tests'
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
