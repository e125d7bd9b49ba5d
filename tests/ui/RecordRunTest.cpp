/// @brief Segment > Record this run... driven as a presenter does under Xvfb: the menu opened with
/// the mouse, the dialog's Browse... answered in Qt's own file dialog, the options typed; the next
/// run started (a seed clicked) is recorded step-exact into PNGs (one frame per engine step and the
/// start, each different from the one before, the engine's time per step in frames.json), then the
/// run shown is recorded again from its start into an MP4, every second step. Stop in the progress
/// window ends a recording with the frames so far.
#include "CtPhantom.h"
#include "MenuDriving.h"

#include "lucent/core/seg/RegionGrowingCpu.h"
#include "lucent/ui/RecordRunDialog.h"
#include "lucent/ui/RunRecording.h"
#include "lucent/ui/SegmentPanel.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QProcess>
#include <QProgressDialog>
#include <QTimer>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace lucent;
using namespace lucent::ui;
using lucent::testing::chooseFile;
using lucent::testing::typeInto;
using lucent::testing::waitFor;
using lucent::testing::whenModal;

namespace {

class RecordRun : public lucent::testing::MenuWindow {
protected:
    void SetUp() override {
        MenuWindow::SetUp();
        window->setLayoutMode(Layout::Single);  // one small view: each frame drawn and grabbed quickly
        window->resize(720, 540);
        volume = lucent::testing::ctBallPhantom({96, 80, 40}, false);
        SeriesInfo info;
        info.modality = "CT";
        window->model().setVolume(volume, info, "");
        QTest::qWait(50);
        live().setBackend(gpu::Backend::Cpu);
    }
    LiveSegmentation& live() { return window->segment().live(); }
    RunRecording& recording() { return *window->segment().recording(); }

    /// Segment > Record this run... as a user reaches it: the menu bar's Segment, then the item.
    void clickRecordThisRun() {
        QMenuBar* bar = window->menuBar();
        QAction* segment = nullptr;
        for (QAction* a : bar->actions())
            if (a->menu() && lucent::testing::plain(a->text()) == "Segment") segment = a;
        ASSERT_NE(segment, nullptr);
        QTest::mouseClick(bar, Qt::LeftButton, {}, bar->actionGeometry(segment).center());
        QMenu* menu = segment->menu();
        ASSERT_TRUE(waitFor([&] { return menu->isVisible(); }, 5000));
        QAction* item = action("Segment", "Record this run...");
        ASSERT_NE(item, nullptr);
        QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(item).center());
    }
    /// Answers the dialog: `path` typed or chosen with Browse..., `every` and `fps` typed, Record.
    void answerDialog(const QString& path, bool browse, const QString& every, const QString& fps) {
        whenModal<RecordRunDialog>([=](RecordRunDialog* d) {
            auto* field = d->findChild<QLineEdit*>("recordPath");
            if (browse) {
                chooseFile(path);
                QTest::mouseClick(d->findChild<QPushButton*>("recordBrowse"), Qt::LeftButton);
            } else {
                field->setFocus();
                QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
                QTest::keyClicks(field, path);
            }
            typeInto(d->findChild<QSpinBox*>("recordEvery"), every);
            typeInto(d->findChild<QSpinBox*>("recordFps"), fps);
            lucent::testing::clickOk(d);
            if (d->isVisible()) d->reject();
        });
    }
    /// Closes the non-modal closing message (as a user clicks its OK) and returns its text.
    QString closeMessage() {
        QString text;
        for (auto* box : window->findChildren<QMessageBox*>("recordMessage")) {
            text = box->text();
            box->close();
        }
        return text;
    }
    /// Engine steps of region growing on `request` to its end (the engine alone, no window).
    int stepsToEnd(SegmentationRequest request) {
        request.volume = volume.get();
        RegionGrowingCpu engine;
        engine.start(request);
        int steps = 0;
        while (!engine.finished() && steps < 10000) {
            engine.step(1);
            ++steps;
        }
        return steps;
    }

    std::shared_ptr<Volume> volume;
};

}  // namespace

TEST_F(RecordRun, TheNextRunStartedIsRecordedOneFramePerStepThenTheRunShownAgainAsMp4) {
    QTemporaryDir tmp;
    const QString folder = QDir(tmp.path()).filePath("frames");
    answerDialog(folder, true, "1", "30");
    clickRecordThisRun();
    ASSERT_TRUE(waitFor([&] { return recording().armed(); }, 10000)) << "no run yet: armed for the next";
    EXPECT_TRUE(closeMessage().contains("when the next run starts"));

    key(Qt::Key_G);  // Segment > Region growing, then a seed in the ball: the run starts, recorded
    QTest::mouseClick(axial(), Qt::LeftButton, {}, screenOf(48, 40));
    ASSERT_TRUE(waitFor([&] { return !recording().armed() && !recording().recording(); }));
    const QString message = closeMessage();
    ASSERT_EQ(message, recording().lastMessage());
    EXPECT_STREQ(sessionStateName(live().published().state), "finished");

    const int steps = stepsToEnd(live().request());
    ASSERT_GT(steps, 3);
    const QStringList pngs = QDir(folder).entryList({"frame-*.png"}, QDir::Files, QDir::Name);
    EXPECT_EQ(pngs.size(), steps + 1) << "the start and one frame per engine step";
    EXPECT_EQ(message, QString("recorded %1 frames to %2").arg(steps + 1).arg(folder));
    QImage previous;
    for (int i = 0; i < pngs.size(); ++i) {
        const QImage frame(QDir(folder).filePath(pngs[i]));
        ASSERT_FALSE(frame.isNull()) << pngs[i].toStdString();
        if (i > 0) {
            EXPECT_NE(frame, previous) << "frame " << i << " shows its step";
        }
        previous = frame;
    }
    QFile notesFile(QDir(folder).filePath("frames.json"));
    ASSERT_TRUE(notesFile.open(QIODevice::ReadOnly));
    const QJsonArray notes = QJsonDocument::fromJson(notesFile.readAll()).object()["frames"].toArray();
    ASSERT_EQ(notes.size(), steps + 1);
    for (int i = 1; i < notes.size(); ++i) {
        EXPECT_EQ(notes[i].toObject()["iteration"].toInt(), i) << "frame k is the engine after step k";
        EXPECT_GT(notes[i].toObject()["ms_per_step"].toDouble(), 0.0) << "the HUD's time per step, frame " << i;
    }

    // The run shown, recorded again from its start: an MP4, one frame every second step.
    if (QStandardPaths::findExecutable("ffmpeg").isEmpty()) GTEST_SKIP() << "no ffmpeg";
    const QString mp4 = QDir(tmp.path()).filePath("again.mp4");
    answerDialog(mp4, false, "2", "12");
    clickRecordThisRun();
    ASSERT_TRUE(waitFor([&] { return !recording().armed() && !recording().recording() && recording().lastMessage().contains("again.mp4"); }));
    const int frames = 1 + (steps + 1) / 2;  // the start, steps 2, 4, ... and the last
    EXPECT_EQ(closeMessage(), QString("recorded %1 frames to %2").arg(frames).arg(mp4));
    EXPECT_FALSE(QFile::exists(mp4 + ".part"));
    if (QStandardPaths::findExecutable("ffprobe").isEmpty()) return;
    QProcess probe;
    probe.start("ffprobe", {"-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                            "stream=nb_read_frames,r_frame_rate", "-of", "csv=p=0", mp4});
    ASSERT_TRUE(probe.waitForFinished(30000));
    EXPECT_EQ(QString(probe.readAllStandardOutput()).trimmed(), QString("12/1,%1").arg(frames));
}

TEST_F(RecordRun, StopInTheProgressWindowKeepsTheFramesSoFar) {
    QTemporaryDir tmp;
    const QString folder = QDir(tmp.path()).filePath("stopped");
    // The progress window's Stop, clicked once it says 3 frames were written.
    QString progressText;
    auto* watcher = new QTimer(&lucent::testing::pendingHandlers());
    QObject::connect(watcher, &QTimer::timeout, [&, watcher] {
        auto* progress = window->findChild<QProgressDialog*>("recordProgress");
        if (!progress || !progress->isVisible() || !progress->labelText().contains(": 3 frames written")) return;
        watcher->stop();
        progressText = progress->labelText();
        auto* stop = progress->findChild<QPushButton*>();
        if (stop) QTest::mouseClick(stop, Qt::LeftButton);
    });
    watcher->start(1);
    answerDialog(folder, false, "1", "30");
    clickRecordThisRun();
    ASSERT_TRUE(waitFor([&] { return recording().armed(); }, 10000));
    closeMessage();
    key(Qt::Key_G);
    QTest::mouseClick(axial(), Qt::LeftButton, {}, screenOf(48, 40));
    ASSERT_TRUE(waitFor([&] { return !recording().armed() && !recording().recording(); }));
    EXPECT_EQ(progressText, QString("Recording to %1: 3 frames written").arg(folder));
    // Clicked while frame 4 (step 3) was being drawn: that frame is the last.
    const QString message = closeMessage();
    EXPECT_EQ(message, QString("recorded 4 frames to %1 (stopped before the run's end)").arg(folder));
    EXPECT_EQ(QDir(folder).entryList({"frame-*.png"}, QDir::Files).size(), 4);
    EXPECT_TRUE(QFile::exists(QDir(folder).filePath("frames.json"))) << "the notes of the frames kept";
    EXPECT_STREQ(sessionStateName(live().published().state), "paused") << "the run waits where it stopped";
    EXPECT_EQ(live().published().steps, 3);
}
