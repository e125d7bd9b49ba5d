/// @brief The work's modified flag and its recovery copies without a display: WorkState's parts and
/// pending run, Autosave's copy (written only with changes, one name per window and process, the
/// previous copy kept when a write fails or the writer is killed mid-write with SIGKILL), and
/// RecoveryCopies, which offers only copies whose writer is gone and that hold work.
#include "FileSizeLimit.h"
#include "TempDir.h"

#include "lucent/ui/Autosave.h"
#include "lucent/ui/LabelMirror.h"
#include "lucent/ui/RecoveryCopies.h"
#include "lucent/ui/SessionFile.h"
#include "lucent/ui/ViewerModel.h"
#include "lucent/ui/WorkState.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace lucent;
using namespace lucent::ui;
using lucent::testing::TempDir;

namespace {

using Part = WorkState::Part;

Geometry smallGrid() {
    Geometry g;
    g.dims = {7, 5, 4};
    g.spacing = {0.8, 0.8, 2.0};
    return g;
}

/// A session whose labels hold `value` at voxel `index` only: what a copy must hold, byte for byte.
SavedSession sessionMarking(std::size_t index, std::uint8_t value) {
    SavedSession s;
    s.dataPath = "/data/small.nii";
    s.grid = smallGrid();
    s.labels = LabelMap(s.grid);
    s.labels->data()[index] = value;
    return s;
}

QByteArray bytesOf(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

TEST(WorkState, EachPartIsClearedByTheSaveThatKeepsIt) {
    WorkState work;
    QSignalSpy flips(&work, &WorkState::modifiedChanged);
    EXPECT_FALSE(work.modified());
    work.noteChange(Part::Labels);
    work.noteChange(Part::Measurements);
    EXPECT_TRUE(work.modified());
    ASSERT_EQ(flips.size(), 1) << "one flip, not one per change";
    work.markSaved(Part::Labels);  // a label export
    EXPECT_TRUE(work.modified()) << "the measurements are not in a label file";
    work.markSaved(Part::Measurements);
    EXPECT_FALSE(work.modified());
    ASSERT_EQ(flips.size(), 2);
    EXPECT_FALSE(flips.last().at(0).toBool());
}

TEST(WorkState, SeedsAreWorkUntilUsedUpAndALabelExportThenClearsTheMark) {
    WorkState work;
    work.noteSeeds(true);  // a seed clicked
    EXPECT_TRUE(work.modified());
    work.markSaved(Part::Labels);
    EXPECT_TRUE(work.modified()) << "a label file does not hold seeds";
    work.noteSeeds(true);
    work.noteChange(Part::Labels);  // Accept: the run into the labels...
    work.noteSeeds(false);          // ...and its seeds used up
    EXPECT_TRUE(work.modified()) << "the accepted labels";
    work.markSaved(Part::Labels);  // File > Export labels, the whole layer
    EXPECT_FALSE(work.modified()) << "nothing left that the export does not hold";
    work.noteSeeds(true);
    work.markSaved();  // a session keeps seeds
    EXPECT_FALSE(work.modified());
    // A restored copy's Session mark is not a seed's: an emptied seed list leaves it.
    work.noteChange(Part::Session);
    work.noteSeeds(false);
    EXPECT_TRUE(work.modified());
}

TEST(WorkState, APendingRunIsUnsavedUntilItEnds) {
    WorkState work;
    const auto before = work.revision();
    work.setRunPending(true);
    work.markSaved();
    EXPECT_TRUE(work.modified()) << "a session save does not hold the run's result";
    EXPECT_GT(work.revision(), before);
    work.setRunPending(false);
    EXPECT_FALSE(work.modified());
}

TEST(WorkState, FollowsTheModelsLabelEditsUndoAndTable) {
    ViewerModel model;
    SeriesInfo info;
    model.setVolume(std::make_shared<Volume>(smallGrid(), PixelType::Int16), info, "auto");
    WorkState work;
    work.follow(model);
    EXPECT_FALSE(work.modified());
    ASSERT_TRUE(model.editLabels([](LabelMap& m) { m.data()[3] = 1; }, "Paint"));
    EXPECT_TRUE(work.changed(Part::Labels));
    work.markSaved();
    ASSERT_TRUE(model.undo());
    EXPECT_TRUE(work.changed(Part::Labels)) << "an undo changes the layer too";
    work.markSaved();
    LabelInfo renamed = model.labelTable().labels().front();
    renamed.name = "Tumour";
    model.setLabelInfo(renamed);
    EXPECT_TRUE(work.changed(Part::Labels)) << "a renamed label";
    // Another volume (set on the model directly, as scripts and tests do): its empty layer, history
    // and default table are nothing to lose.
    work.markSaved();
    model.setVolume(std::make_shared<Volume>(smallGrid(), PixelType::Int16), info, "auto");
    EXPECT_FALSE(work.modified()) << "a new volume has no work of its own yet";
}

bool sameLayer(const LabelMap& a, const LabelMap& b) {
    return a.voxelCount() == b.voxelCount() && std::equal(a.data(), a.data() + a.voxelCount(), b.data());
}

TEST(LabelMirror, TheGuiThreadCopiesOnlyChangedBoxesAndTheWorkerTheWholeLayer) {
    ViewerModel model;
    SeriesInfo info;
    model.setVolume(std::make_shared<Volume>(smallGrid(), PixelType::Int16), info, "auto");
    LabelMirror mirror(model);
    EXPECT_EQ(mirror.sync().labels, nullptr) << "no layer yet";
    model.labelLayer().at(1, 1, 1) = 2;
    model.labelsEdited(nullptr);
    // A new layer: nothing copied here, the whole layer handed to the worker.
    LabelMirror::Sync first = mirror.sync();
    ASSERT_NE(first.labels, nullptr);
    ASSERT_TRUE(first.copyWhole);
    EXPECT_EQ(mirror.lastCopiedBytes(), 0u) << "the GUI thread copies no whole layer";
    EXPECT_EQ(model.layerReaders().held(), 1) << "the layer is held for the worker";
    std::thread(first.copyWhole).join();
    EXPECT_EQ(mirror.wholeCopies(), 1);
    EXPECT_EQ(model.layerReaders().held(), 0);
    EXPECT_TRUE(sameLayer(*first.labels, *model.labels()));
    // A stroke in a 2 x 2 x 1 box: only its rows are copied, here, and the copy equals the layer.
    VoxelBox box;
    box.lo = {3, 2, 2};
    box.hi = {4, 3, 2};
    for (int j = 2; j <= 3; ++j)
        for (int i = 3; i <= 4; ++i) model.labelLayer().at(i, j, 2) = 1;
    model.labelsEdited(&box);
    LabelMirror::Sync stroke = mirror.sync();
    EXPECT_FALSE(stroke.copyWhole);
    EXPECT_EQ(mirror.lastCopiedBytes(), 4u);
    EXPECT_EQ(stroke.labels, first.labels) << "the same mirror, updated in place";
    EXPECT_TRUE(sameLayer(*stroke.labels, *model.labels()));
    EXPECT_EQ(mirror.sync().labels, first.labels);
    EXPECT_EQ(mirror.lastCopiedBytes(), 0u) << "nothing changed";
    // An undo (a change of unknown extent) whose copy is dropped unrun (its write never started):
    // the layer is free again, and the next sync hands the whole layer out again.
    ASSERT_TRUE(model.editLabels([](LabelMap& m) { m.at(6, 4, 3) = 5; }, "Paint"));
    ASSERT_TRUE(model.undo());
    {
        LabelMirror::Sync dropped = mirror.sync();
        EXPECT_TRUE(dropped.copyWhole);
        EXPECT_EQ(mirror.lastCopiedBytes(), 0u);
    }
    EXPECT_EQ(model.layerReaders().held(), 0) << "a dropped copy holds nothing";
    LabelMirror::Sync again = mirror.sync();
    ASSERT_TRUE(again.copyWhole);
    EXPECT_EQ(mirror.lastCopiedBytes(), 0u);
    again.copyWhole();
    EXPECT_EQ(mirror.wholeCopies(), 2);
    EXPECT_TRUE(sameLayer(*again.labels, *model.labels()));
}

TEST(LabelMirror, AnEditWaitsForTheWorkersWholeCopy) {
    ViewerModel model;
    SeriesInfo info;
    model.setVolume(std::make_shared<Volume>(smallGrid(), PixelType::Int16), info, "auto");
    model.labelLayer().at(1, 1, 1) = 2;
    model.labelsEdited(nullptr);
    const LabelMap before = *model.labels();
    LabelMirror mirror(model);
    LabelMirror::Sync sync = mirror.sync();
    ASSERT_TRUE(sync.copyWhole);
    // An edit on another thread (standing for the GUI's next stroke) while the copy has not run.
    std::atomic<bool> edited{false};
    std::thread editor([&] {
        model.labelLayer().at(2, 2, 2) = 7;
        edited = true;
    });
    while (model.layerReaders().waiting() == 0 && !edited) std::this_thread::yield();
    EXPECT_FALSE(edited) << "the edit went ahead of the worker's copy";
    EXPECT_EQ(model.layerReaders().waiting(), 1);
    sync.copyWhole();
    editor.join();
    EXPECT_TRUE(edited);
    EXPECT_TRUE(sameLayer(*sync.labels, before)) << "the copy is the layer before the edit, never a torn one";
}

/// A work state and an autosave writing `state` into a temporary folder.
struct Saving {
    TempDir dir;
    WorkState work;
    SavedSession state = sessionMarking(5, 1);
    Autosave autosave{&work, [this]() -> std::optional<Autosave::Snapshot> { return Autosave::Snapshot{state, nullptr}; }};
    Saving() { autosave.setFolder(QString::fromStdString(dir.file("recovery"))); }
    QStringList files() const {
        return QDir(autosave.folder()).entryList({"lucent-*"}, QDir::Files);
    }
};

TEST(Autosave, WritesOnlyUnsavedChangesAndRemovesTheCopyOnceSaved) {
    Saving s;
    s.autosave.saveNow();
    s.autosave.waitForWrite();
    EXPECT_EQ(s.autosave.writes(), 0) << "nothing changed";
    s.work.noteChange(Part::Labels);
    s.autosave.saveNow();
    s.autosave.waitForWrite();
    ASSERT_EQ(s.autosave.writes(), 1);
    SavedSession read;
    QString error;
    ASSERT_TRUE(SessionFile::read(s.autosave.copyPath(), read, &error)) << error.toStdString();
    ASSERT_TRUE(read.labels);
    EXPECT_EQ(read.labels->data()[5], 1);
    EXPECT_EQ(read.dataPath, "/data/small.nii");
    EXPECT_TRUE(QFileInfo::exists(s.autosave.copyPath() + ".lock")) << "the live writer holds a lock";
    s.work.markSaved();
    EXPECT_TRUE(s.files().isEmpty()) << "saved work leaves no copy: " << s.files().join(",").toStdString();
}

TEST(Autosave, TwoWindowsNeverShareACopy) {
    Saving a, b;
    b.autosave.setFolder(a.autosave.folder());
    b.state = sessionMarking(9, 2);
    for (Saving* s : {&a, &b}) {
        s->work.noteChange(Part::Labels);
        s->autosave.saveNow();
        s->autosave.waitForWrite();
    }
    EXPECT_NE(a.autosave.copyPath(), b.autosave.copyPath());
    SavedSession ra, rb;
    ASSERT_TRUE(SessionFile::read(a.autosave.copyPath(), ra));
    ASSERT_TRUE(SessionFile::read(b.autosave.copyPath(), rb));
    EXPECT_EQ(ra.labels->data()[5], 1);
    EXPECT_EQ(rb.labels->data()[9], 2);
    EXPECT_TRUE(RecoveryCopies::orphaned(a.autosave.folder()).empty()) << "both writers live";
}

TEST(Autosave, AFailedWriteSaysSoAndKeepsThePreviousCopy) {
    Saving s;
    s.work.noteChange(Part::Labels);
    s.autosave.saveNow();
    s.autosave.waitForWrite();
    const QByteArray first = bytesOf(s.autosave.copyPath());
    ASSERT_FALSE(first.isEmpty());
    QSignalSpy failed(&s.autosave, &Autosave::failed);
    // A full disk: the temporary is written, then the write fails before it replaces the copy.
    s.autosave.setBeforeRename([] { throw std::runtime_error("No space left on device"); });
    s.state = sessionMarking(6, 3);
    s.work.noteChange(Part::Labels);
    s.autosave.saveNow();
    s.autosave.waitForWrite();
    ASSERT_EQ(failed.size(), 1);
    EXPECT_TRUE(failed.front().at(0).toString().contains("No space left on device"));
    EXPECT_EQ(bytesOf(s.autosave.copyPath()), first) << "the previous copy, byte for byte";
    EXPECT_EQ(s.files().size(), 2) << "the copy and its lock, no temporary: " << s.files().join(",").toStdString();
    s.autosave.setBeforeRename({});
    s.autosave.saveNow();  // the next try writes the new state
    s.autosave.waitForWrite();
    SavedSession read;
    ASSERT_TRUE(SessionFile::read(s.autosave.copyPath(), read));
    EXPECT_EQ(read.labels->data()[6], 3);
}

TEST(Autosave, AFullDiskDuringTheRealWriteKeepsThePreviousCopyAndLaterCopiesWork) {
    Saving s;
    s.work.noteChange(Part::Labels);
    s.autosave.saveNow();
    s.autosave.waitForWrite();
    const QByteArray first = bytesOf(s.autosave.copyPath());
    ASSERT_GT(first.size(), 64);
    QSignalSpy failed(&s.autosave, &Autosave::failed);
    s.state = sessionMarking(6, 3);
    s.work.noteChange(Part::Labels);
    {
        lucent::testing::FileSizeLimit full(64);  // the disk fills part-way through the new copy
        s.autosave.saveNow();
        s.autosave.waitForWrite();
    }
    ASSERT_EQ(failed.size(), 1);
    const QString message = failed.front().at(0).toString();
    EXPECT_TRUE(message.contains(s.autosave.copyPath()) && message.contains("File too large")) << message.toStdString();
    EXPECT_EQ(bytesOf(s.autosave.copyPath()), first) << "the previous copy, byte for byte";
    EXPECT_EQ(s.files().size(), 2) << "the copy and its lock, no temporary: " << s.files().join(",").toStdString();
    s.autosave.saveNow();  // space again: the next copy holds the new state
    s.autosave.waitForWrite();
    EXPECT_EQ(failed.size(), 1);
    SavedSession read;
    ASSERT_TRUE(SessionFile::read(s.autosave.copyPath(), read));
    EXPECT_EQ(read.labels->data()[6], 3);
}

TEST(RecoveryCopies, OffersOnlyCopiesWhoseWriterIsGoneAndClaimsThem) {
    Saving s;
    s.work.noteChange(Part::Labels);
    s.autosave.saveNow();
    s.autosave.waitForWrite();
    // The same copy under the name of a process that is gone, with no lock: left by a crash.
    const QString left = QDir(s.autosave.folder()).filePath("lucent-1-2-3.lucent");
    ASSERT_TRUE(QFile::copy(s.autosave.copyPath(), left));
    auto found = RecoveryCopies::orphaned(s.autosave.folder());
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].path, left);
    EXPECT_EQ(found[0].dataPath, "/data/small.nii");
    EXPECT_EQ(found[0].labelledVoxels, 1u);
    EXPECT_TRUE(found[0].describe().contains("/data/small.nii"));
    EXPECT_TRUE(RecoveryCopies::orphaned(s.autosave.folder()).empty()) << "claimed by the first look";
    found.clear();  // released
    EXPECT_EQ(RecoveryCopies::orphaned(s.autosave.folder()).size(), 1u);
    RecoveryCopies::remove(left);
    EXPECT_FALSE(QFileInfo::exists(left));
}

/// Leaves the copy `s` wrote as a crash does: under the name of a process that is gone, no lock.
QString leftByACrash(Saving& s) {
    s.autosave.saveNow();
    s.autosave.waitForWrite();
    const QString left = QDir(s.autosave.folder()).filePath("lucent-1-2-3.lucent");
    QFile::remove(left);
    return QFile::copy(s.autosave.copyPath(), left) ? left : QString();
}

TEST(RecoveryCopies, ACopyOfNothingIsNotOfferedAndIsRemovedWhileOneOfAMeasurementIs) {
    Saving s;
    s.state.labels = LabelMap(s.state.grid);  // the layer as a run leaves it before its result is accepted
    s.work.setRunPending(true);  // killed mid-run: modified, so a copy is written
    const QString empty = leftByACrash(s);
    ASSERT_FALSE(empty.isEmpty());
    ASSERT_EQ(s.autosave.writes(), 1) << "the copy was written";
    EXPECT_TRUE(RecoveryCopies::orphaned(s.autosave.folder()).empty())
        << "0 labelled voxels, 0 measurements: nothing to recover";
    EXPECT_FALSE(QFileInfo::exists(empty)) << "and nothing to ask about at the next start";
    EXPECT_FALSE(QFileInfo::exists(empty + ".lock"));

    // A measurement alone is work.
    Measurement ruler;
    ruler.points = {{0, 0, 0}, {3, 4, 0}};
    s.state.measurements = {ruler};
    s.work.noteChange(Part::Measurements);
    const QString measured = leftByACrash(s);
    auto found = RecoveryCopies::orphaned(s.autosave.folder());
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].path, measured);
    EXPECT_EQ(found[0].labelledVoxels, 0u);
    EXPECT_EQ(found[0].measurements, 1u);
    found.clear();

    // Labels painted, copied, then erased to nothing: the latest copy holds nothing to lose.
    s.state.measurements.clear();
    s.state.labels->data()[5] = 1;
    s.work.noteChange(Part::Labels);
    leftByACrash(s);
    found = RecoveryCopies::orphaned(s.autosave.folder());
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].labelledVoxels, 1u);
    found.clear();
    s.state.labels->data()[5] = 0;  // the eraser
    s.work.noteChange(Part::Labels);
    const QString erased = leftByACrash(s);
    EXPECT_TRUE(RecoveryCopies::orphaned(s.autosave.folder()).empty());
    EXPECT_FALSE(QFileInfo::exists(erased));

    // A copy that cannot be read is still offered: the user hears of it.
    QFile damaged(erased);
    ASSERT_TRUE(damaged.open(QIODevice::WriteOnly));
    damaged.write("not a session");
    damaged.close();
    found = RecoveryCopies::orphaned(s.autosave.folder());
    ASSERT_EQ(found.size(), 1u);
    EXPECT_TRUE(found[0].dataPath.isEmpty());
}

/// The child of KillDuringTheWriteKeepsThePreviousCopy: writes copy 1 (label 1 at voxel 5), then
/// starts copy 2 (label 2 at voxel 7) and stops for good between its temporary and the rename.
int childWrites(const QString& folder) {
    WorkState work;
    SavedSession state = sessionMarking(5, 1);
    Autosave autosave(&work, [&]() -> std::optional<Autosave::Snapshot> { return Autosave::Snapshot{state, nullptr}; });
    autosave.setFolder(folder);
    work.noteChange(Part::Labels);
    autosave.saveNow();
    autosave.waitForWrite();
    if (autosave.writes() != 1) return 3;
    autosave.setBeforeRename([folder] {
        QFile(folder + ".stalled").open(QIODevice::WriteOnly);  // the parent kills once it sees this
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    });
    state = sessionMarking(7, 2);
    work.noteChange(Part::Labels);
    autosave.saveNow();
    autosave.waitForWrite();
    return 4;  // never reached
}

TEST(Autosave, KillDuringTheWriteKeepsThePreviousCopy) {
    TempDir dir;
    const QString folder = QString::fromStdString(dir.file("recovery"));
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // A fresh process image: Qt's thread pool must not be a fork of this one's.
        const std::string self = QCoreApplication::applicationFilePath().toStdString();
        const std::string dirArg = folder.toStdString();
        execl(self.c_str(), self.c_str(), "--autosave-child", dirArg.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    // The child says when it stands between copy 2's complete temporary and its rename.
    bool stalled = false;
    for (int i = 0; i < 6000 && !stalled; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        stalled = QFileInfo::exists(folder + ".stalled");
    }
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(stalled) << "the child never reached its second write (status " << status << ")";
    EXPECT_EQ(QDir(folder).entryList({"*.partial-*"}, QDir::Files).size(), 1) << "copy 2 was killed as a temporary";
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    auto found = RecoveryCopies::orphaned(folder);
    ASSERT_EQ(found.size(), 1u) << "the killed writer's copy is offered";
    SavedSession read;
    QString error;
    ASSERT_TRUE(SessionFile::read(found[0].path, read, &error)) << error.toStdString();
    ASSERT_TRUE(read.labels);
    EXPECT_EQ(read.labels->data()[5], 1) << "copy 1, whole";
    EXPECT_EQ(read.labels->data()[7], 0) << "nothing of the killed copy 2";
    RecoveryCopies::remove(found[0].path);
    EXPECT_TRUE(QDir(folder).entryList({"*.partial-*"}, QDir::Files).isEmpty()) << "its temporary goes with it";
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    app.setOrganizationName("Lucent-tests");
    app.setApplicationName("autosave");
    if (argc == 3 && std::string(argv[1]) == "--autosave-child") return childWrites(QString::fromLocal8Bit(argv[2]));
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
