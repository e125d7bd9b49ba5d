/// @brief Unsaved work under Xvfb: the title's `*` follows the labels, measurements and a pending
/// run; closing, File > Open file, Recent, Open session and a drop ask Save session / Export labels
/// / Discard / Cancel only when there are changes, and each answer does what it says; an accepted
/// result is copied at once into the recovery folder; a copy left by a process that is gone is
/// offered at start and Restore brings back its labels, measurements and zoom exactly.
#include "MenuDriving.h"
#include "TempDir.h"

#include "lucent/io/LabelFile.h"
#include "lucent/io/VolumeFile.h"
#include "lucent/ui/Autosave.h"
#include "lucent/ui/MeasurementPanel.h"
#include "lucent/ui/OpenGlSetup.h"
#include "lucent/ui/RecoveryCopies.h"
#include "lucent/ui/SegmentPanel.h"
#include "lucent/ui/SessionFile.h"

#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QUrl>
#include <QWindow>

#include <algorithm>

using namespace lucent;
using namespace lucent::ui;
using lucent::testing::chooseFile;
using lucent::testing::TempDir;
using lucent::testing::waitFor;
using lucent::testing::whenModal;

namespace {

/// A volume whose size names it (dims differ per file) with a bright block the region grows in.
Volume block(int nx) {
    Geometry g;
    g.dims = {nx, 20, 8};
    g.spacing = {0.8, 0.9, 2.0};
    Volume v(g, PixelType::Int16);
    for (int k = 0; k < 8; ++k)
        for (int j = 0; j < 20; ++j)
            for (int i = 0; i < nx; ++i) v.setValue(g.index(i, j, k), (i > 4 && i < 14 && j > 4 && j < 14) ? 900 : 10);
    return v;
}

bool sameBytes(const LabelMap& a, const LabelMap& b) {
    return a.voxelCount() == b.voxelCount() && std::equal(a.data(), a.data() + a.voxelCount(), b.data());
}

class UnsavedWork : public lucent::testing::MenuWindow {
protected:
    void SetUp() override {
        MenuWindow::SetUp();
        for (int nx : {24, 26}) {
            paths << QString::fromStdString(dir.file("v" + std::to_string(nx) + ".mha"));
            io::writeVolumeFile(block(nx), paths.back().toStdString());
        }
        recovery = QString::fromStdString(dir.file("recovery"));
        window->autosave().setFolder(recovery);
        ASSERT_TRUE(window->openPath(paths[0], {}, true));
    }
    QString shownTitle() const { return window->windowHandle()->title(); }
    int width() const { return window->model().volume()->geometry().dims[0]; }
    /// A brush-like edit: one undoable step on the label layer.
    void paint() {
        ASSERT_TRUE(window->model().editLabels([](LabelMap& m) { m.at(6, 6, 3) = 1; }, "Paint Label 1"));
    }
    /// Answers the next unsaved-changes question with the button named `button`; `asked` counts it.
    void answer(const QString& button) {
        whenModal<QMessageBox>([this, button](QMessageBox* box) {
            ++asked;
            EXPECT_EQ(box->objectName(), "unsavedChanges");
            auto* b = box->findChild<QPushButton*>(button);
            ASSERT_NE(b, nullptr) << button.toStdString();
            QTest::mouseClick(b, Qt::LeftButton);
        });
    }
    /// Runs the event loop a while, for a question that should not come.
    void settle() { QTest::qWait(300); }
    QStringList copies() const {
        return QDir(recovery).entryList({QString("*") + SessionFile::kSuffix}, QDir::Files);
    }

    TempDir dir;
    QStringList paths;
    QString recovery;
    int asked = 0;
};

TEST_F(UnsavedWork, TheTitlesMarkFollowsLabelsMeasurementsAndARun) {
    EXPECT_FALSE(window->work().modified());
    EXPECT_FALSE(shownTitle().contains('*')) << shownTitle().toStdString();
    paint();
    EXPECT_TRUE(shownTitle().contains('*')) << shownTitle().toStdString();
    ASSERT_TRUE(window->saveSession(QString::fromStdString(dir.file("s.lucent"))));
    EXPECT_FALSE(shownTitle().contains('*')) << "saved: " << shownTitle().toStdString();
    // A measurement is work too.
    Measurement ruler;
    ruler.kind = MeasurementKind::Ruler;
    ruler.axis = 2;
    ruler.slice = 3;
    const Geometry& g = window->model().volume()->geometry();
    ruler.points = {g.voxelToPatient({2, 2, 3}), g.voxelToPatient({10, 12, 3})};
    window->measurementPanel().add(ruler);
    EXPECT_TRUE(shownTitle().contains('*'));
    ASSERT_TRUE(window->saveSession(QString::fromStdString(dir.file("s.lucent"))));
    EXPECT_FALSE(shownTitle().contains('*'));
    // A run not yet accepted counts; cancelling it leaves nothing unsaved.
    SegmentationRequest request;
    request.seeds = {{8, 8, 3}};
    request.regionGrowing = {500, 2000, 6};
    QString error;
    ASSERT_TRUE(window->segment().startWith(Method::RegionGrowing, request, false, &error)) << error.toStdString();
    EXPECT_TRUE(window->work().runPending());
    EXPECT_TRUE(shownTitle().contains('*'));
    window->segment().live().cancel();
    EXPECT_FALSE(window->work().runPending());
}

TEST_F(UnsavedWork, ExportingEveryLabelAfterAnAcceptedRunClearsTheMark) {
    // As a user does it: region growing from a clicked seed, Accept, File > Export labels.
    window->segment().live().setBackend(gpu::Backend::Cpu);
    key(Qt::Key_G);  // Segment > Region growing
    QTest::mouseClick(axial(), Qt::LeftButton, {}, screenOf(8, 8));
    ASSERT_EQ(window->segment().seeds().seeds().size(), 1u);
    ASSERT_TRUE(waitFor([&] { return !window->segment().live().running() && window->segment().model().canAccept(); }));
    key(Qt::Key_Return, Qt::ControlModifier);  // Segment > Accept
    ASSERT_TRUE(window->model().history().canUndo()) << "accepted";
    EXPECT_TRUE(shownTitle().contains('*')) << shownTitle().toStdString();
    const QString exported = QString::fromStdString(dir.file("all.nii.gz"));
    chooseFile(exported, nullptr, [] { whenModal<QDialog>([](QDialog* d) { lucent::testing::clickOk(d); }); });
    trigger("File", "Export labels...");
    ASSERT_TRUE(QFileInfo::exists(exported));
    EXPECT_TRUE(sameBytes(io::readLabelFile(exported.toStdString(), block(24).geometry()).labels, *window->model().labels()));
    EXPECT_FALSE(window->work().modified()) << "labels " << window->work().changed(WorkState::Part::Labels) << ", session "
                                            << window->work().changed(WorkState::Part::Session) << ", run "
                                            << window->work().runPending();
    EXPECT_FALSE(shownTitle().contains('*')) << "exported: " << shownTitle().toStdString();
}

TEST_F(UnsavedWork, ClosingWithoutChangesAsksNothing) {
    answer("cancel");  // would keep the window open if a question came
    EXPECT_TRUE(window->close());
    settle();
    EXPECT_EQ(asked, 0);
    EXPECT_FALSE(window->isVisible());
}

TEST_F(UnsavedWork, CancelKeepsTheWindowAndItsLabelsDiscardCloses) {
    paint();
    const LabelMap before = *window->model().labels();
    answer("cancel");
    EXPECT_FALSE(window->close());
    EXPECT_EQ(asked, 1);
    EXPECT_TRUE(window->isVisible());
    EXPECT_TRUE(sameBytes(*window->model().labels(), before));
    EXPECT_TRUE(window->work().modified());
    answer("discard");
    EXPECT_TRUE(window->close());
    EXPECT_EQ(asked, 2);
    EXPECT_FALSE(window->isVisible());
}

TEST_F(UnsavedWork, SaveSessionFromTheQuestionWritesItThenCloses) {
    paint();
    const QString session = QString::fromStdString(dir.file("answer.lucent"));
    answer("saveSession");
    chooseFile(session);  // no session yet: Save session asks where
    EXPECT_TRUE(window->close());
    EXPECT_EQ(asked, 1);
    SavedSession saved;
    QString error;
    ASSERT_TRUE(SessionFile::read(session, saved, &error)) << error.toStdString();
    ASSERT_TRUE(saved.labels);
    EXPECT_TRUE(sameBytes(*saved.labels, *window->model().labels()));
}

TEST_F(UnsavedWork, OpenFileAsksAndCancelKeepsTheVolume) {
    paint();
    chooseFile(paths[1]);
    answer("cancel");
    trigger("File", "Open file...");
    EXPECT_EQ(asked, 1);
    settle();
    EXPECT_EQ(width(), 24) << "nothing opened";
    EXPECT_TRUE(window->work().modified());
}

TEST_F(UnsavedWork, RecentFileAsksAndDiscardOpensIt) {
    ASSERT_TRUE(window->openPath(paths[1], {}, true));
    ASSERT_TRUE(window->openPath(paths[0], {}, true));  // both in Recent, the first shown
    paint();
    answer("discard");
    trigger("File > Recent", paths[1]);
    EXPECT_EQ(asked, 1);
    ASSERT_TRUE(waitFor([&] { return width() == 26; }));
    EXPECT_FALSE(window->work().modified()) << "a fresh volume";
    EXPECT_FALSE(shownTitle().contains('*'));
}

TEST_F(UnsavedWork, ADropAsksAndCancelKeepsTheVolume) {
    paint();
    answer("cancel");
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(paths[1])});
    // As a drag ends over the window: it enters (and is accepted), then drops.
    QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window.get(), &enter);
    ASSERT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window.get(), &drop);
    EXPECT_EQ(asked, 1);
    settle();
    EXPECT_EQ(width(), 24);
}

TEST_F(UnsavedWork, OpenSessionAsksAndExportLabelsThenOpens) {
    const QString session = QString::fromStdString(dir.file("other.lucent"));
    ASSERT_TRUE(window->openPath(paths[1], {}, true));
    ASSERT_TRUE(window->saveSession(session));
    ASSERT_TRUE(window->openPath(paths[0], {}, true));
    paint();
    const LabelMap painted = *window->model().labels();
    const QString exported = QString::fromStdString(dir.file("labels.nii.gz"));
    answer("exportLabels");
    chooseFile(session, nullptr, [&] {
        // Then the export's own dialogs: where, and which labels.
        chooseFile(exported, nullptr, [] { whenModal<QDialog>([](QDialog* d) { lucent::testing::clickOk(d); }); });
    });
    trigger("File", "Open session...");
    EXPECT_EQ(asked, 1);
    ASSERT_TRUE(QFileInfo::exists(exported));
    EXPECT_TRUE(sameBytes(io::readLabelFile(exported.toStdString(), block(24).geometry()).labels, painted));
    ASSERT_TRUE(waitFor([&] { return width() == 26; }));
}

TEST_F(UnsavedWork, AnAcceptedResultIsCopiedAtOnceAndACloseRemovesTheCopy) {
    SegmentationRequest request;
    request.seeds = {{8, 8, 3}};
    request.regionGrowing = {500, 2000, 6};
    QString error;
    ASSERT_TRUE(window->segment().startWith(Method::RegionGrowing, request, true, &error)) << error.toStdString();
    ASSERT_TRUE(window->segment().live().runFrames(-1, [] {}, &error)) << error.toStdString();
    EXPECT_TRUE(copies().isEmpty()) << "the interval (60 s) has not passed";
    ASSERT_TRUE(window->segment().acceptResult());
    window->autosave().waitForWrite();
    ASSERT_EQ(copies().size(), 1);
    const QString copy = QDir(recovery).filePath(copies().front());
    EXPECT_EQ(copy, window->autosave().copyPath());
    EXPECT_TRUE(copy.contains(QString("-%1-").arg(QCoreApplication::applicationPid())));
    SavedSession saved;
    ASSERT_TRUE(SessionFile::read(copy, saved));
    ASSERT_TRUE(saved.labels);
    EXPECT_TRUE(sameBytes(*saved.labels, *window->model().labels()));
    EXPECT_EQ(std::count(saved.labels->data(), saved.labels->data() + saved.labels->voxelCount(), 1), 9 * 9 * 8);
    EXPECT_TRUE(RecoveryCopies::orphaned(recovery).empty()) << "this process lives: its copy is not offered";
    answer("discard");
    EXPECT_TRUE(window->close());
    EXPECT_TRUE(copies().isEmpty()) << "a normal close leaves no copy";
}

TEST_F(UnsavedWork, ARunThatFailsMidWaySaysWhyAndLeavesLabelsHistoryAndMeasurements) {
    paint();
    Measurement ruler;
    ruler.kind = MeasurementKind::Ruler;
    ruler.axis = 2;
    ruler.slice = 3;
    const Geometry& g = window->model().volume()->geometry();
    ruler.points = {g.voxelToPatient({2, 2, 3}), g.voxelToPatient({10, 12, 3})};
    window->measurementPanel().add(ruler);
    const LabelMap labels = *window->model().labels();
    const std::string undo = window->model().history().undoText();
    const std::size_t steps = window->model().history().steps();
    // The run's first advance after its start fails, as a CUDA launch or allocation would (this
    // small region would be done within one advance).
    qputenv("LUCENT_FAULT_AFTER_STEPS", "1");
    SegmentationRequest request;
    request.seeds = {{8, 8, 3}};
    request.regionGrowing = {500, 2000, 6};
    QString error;
    const bool started = window->segment().startWith(Method::RegionGrowing, request, true, &error);
    const bool ran = started && window->segment().live().runFrames(-1, [] {}, &error);
    qunsetenv("LUCENT_FAULT_AFTER_STEPS");
    ASSERT_TRUE(started) << error.toStdString();
    EXPECT_FALSE(ran) << "the run failed";
    EXPECT_TRUE(error.contains("injected fault")) << error.toStdString();
    EXPECT_TRUE(window->statusBar()->currentMessage().contains("injected fault"))
        << "the user is told: " << window->statusBar()->currentMessage().toStdString();
    EXPECT_FALSE(window->segment().live().active()) << "the run ended";
    EXPECT_TRUE(sameBytes(*window->model().labels(), labels)) << "the label layer is untouched";
    EXPECT_EQ(window->model().history().undoText(), undo);
    EXPECT_EQ(window->model().history().steps(), steps);
    ASSERT_TRUE(window->model().undo());
    EXPECT_EQ(window->model().labels()->at(6, 6, 3), 0) << "the stroke before the run still undoes";
    EXPECT_EQ(window->measurementPanel().measurements().all().size(), 1u);
    EXPECT_TRUE(window->work().modified()) << "the unsaved work is still unsaved";
}

/// A copy of this window's work as a process that is gone leaves it: under another process's name,
/// with no live lock.
QString abandonedCopy(MainWindow& window, const QString& folder) {
    window.autosave().saveNow();
    window.autosave().waitForWrite();
    QDir().mkpath(folder);
    const QString copy = QDir(folder).filePath("lucent-1-1-1.lucent");
    QFile::copy(window.autosave().copyPath(), copy);
    return copy;
}

TEST_F(UnsavedWork, RestoreBringsBackLabelsMeasurementsAndZoom) {
    paint();
    Measurement ruler;
    ruler.kind = MeasurementKind::Ruler;
    ruler.axis = 2;
    ruler.slice = 3;
    const Geometry& g = window->model().volume()->geometry();
    ruler.points = {g.voxelToPatient({2, 2, 3}), g.voxelToPatient({10, 12, 3})};
    window->measurementPanel().add(ruler);
    axial()->setZoomPanMm(2.5, {3.0, -4.0});
    const LabelMap labels = *window->model().labels();
    const QString left = QString::fromStdString(dir.file("left"));
    const QString copy = abandonedCopy(*window, left);
    ASSERT_TRUE(QFileInfo::exists(copy));

    MainWindow again;
    again.autosave().setFolder(left);
    again.show();
    QString text;
    whenModal<QMessageBox>([&](QMessageBox* box) {
        text = box->text();
        for (QAbstractButton* b : box->buttons())
            if (b->text() == "Restore") QTest::mouseClick(b, Qt::LeftButton);
    });
    ASSERT_TRUE(again.recoverAtStart());
    EXPECT_TRUE(text.contains(paths[0]) && text.contains("1 measurement")) << text.toStdString();
    ASSERT_TRUE(waitFor([&] { return again.model().labels() != nullptr; }));
    EXPECT_TRUE(sameBytes(*again.model().labels(), labels));
    ASSERT_EQ(again.measurementPanel().measurements().all().size(), 1u);
    EXPECT_NEAR(again.measurementPanel().measurements().all()[0].value,
                window->measurementPanel().measurements().all()[0].value, 1e-9);
    EXPECT_DOUBLE_EQ(again.grid().view(render::Orientation::Axial)->view().zoom(), 2.5);
    EXPECT_TRUE(again.work().modified()) << "restored work is saved nowhere else";
    // Its own copy replaces the restored one.
    ASSERT_TRUE(waitFor([&] { return !QFileInfo::exists(copy); }));
    EXPECT_TRUE(QFileInfo::exists(again.autosave().copyPath()));
    EXPECT_NE(again.sessionPath(), copy) << "Save session goes beside the data, not into the recovery folder";
}

TEST_F(UnsavedWork, LaterKeepsTheCopyDiscardRemovesIt) {
    paint();
    const QString left = QString::fromStdString(dir.file("left"));
    const QString copy = abandonedCopy(*window, left);
    for (const QString answerWith : {"Later", "Discard"}) {
        MainWindow again;
        again.autosave().setFolder(left);
        whenModal<QMessageBox>([&](QMessageBox* box) {
            for (QAbstractButton* b : box->buttons())
                if (b->text() == answerWith) QTest::mouseClick(b, Qt::LeftButton);
        });
        EXPECT_FALSE(again.recoverAtStart());
        EXPECT_FALSE(again.model().hasVolume());
        EXPECT_EQ(QFileInfo::exists(copy), answerWith == "Later") << answerWith.toStdString();
    }
}

}  // namespace

int main(int argc, char** argv) {
    lucent::ui::prepareOpenGl();
    QApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    QApplication app(argc, argv);
    app.setOrganizationName("Lucent-tests");
    app.setApplicationName("unsaved");  // never touch the user's settings, nor the other tests'
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
