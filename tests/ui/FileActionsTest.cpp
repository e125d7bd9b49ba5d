/// @brief The File and Edit menus' action groups without a main window: opening, saving and the recent
/// paths through a stand-in for the window; the label files' items following the volume's DICOM source;
/// Close labels; Undo and Redo following the model's history.
#include "ActionGroupHost.h"

#include "lucent/ui/HistoryActions.h"
#include "lucent/ui/LabelFileActions.h"
#include "lucent/ui/LabelFiles.h"
#include "lucent/ui/SessionActions.h"

#include <QStringList>

using namespace lucent;
using namespace lucent::ui;
using FileGroups = lucent::testing::ActionGroupTest;

namespace {

/// The window as the session items see it: what they asked is recorded.
struct FakeWindow {
    QStringList opened, sessions;
    std::vector<bool> saves;  // ask (Save session as...) or not
    SessionHost host(QWidget* window) {
        SessionHost h;
        h.window = window;
        h.openPath = [this](const QString& path) {
            opened << path;
            return true;
        };
        h.openSession = [this](const QString& path) {
            sessions << path;
            return true;
        };
        h.saveSession = [this](bool ask) {
            saves.push_back(ask);
            return true;
        };
        return h;
    }
};

}  // namespace

TEST_F(FileGroups, SaveAndSaveAsGoThroughTheWindowAndQuitClosesIt) {
    FakeWindow fake;
    SessionActions actions(fake.host(&window));
    actions.addSaveTo(&menu);
    actions.addQuitTo(&menu);
    item(menu, "Save session")->trigger();
    item(menu, "Save session as...")->trigger();
    EXPECT_EQ(fake.saves, (std::vector<bool>{false, true}));
    EXPECT_EQ(actions.save()->shortcut(), QKeySequence(QKeySequence::Save));
    ASSERT_TRUE(window.isVisible());
    actions.quit()->trigger();
    EXPECT_FALSE(window.isVisible());
}

TEST_F(FileGroups, TheRecentMenuListsTheLastTenPathsNewestFirstAndOpensThem) {
    FakeWindow fake;
    SessionActions actions(fake.host(&window));
    actions.addRecentTo(&menu);
    EXPECT_FALSE(actions.recentMenu()->isEnabled()) << "nothing opened yet";
    for (int i = 0; i < 12; ++i) actions.addRecent(QString("/data/%1").arg(i));
    actions.addRecent("/data/5");  // again: to the top, listed once
    const QStringList recent = actions.recentFiles();
    ASSERT_EQ(recent.size(), SessionActions::kRecent);
    EXPECT_EQ(recent.front(), "/data/5");
    EXPECT_EQ(recent.count("/data/5"), 1);
    EXPECT_EQ(recent[1], "/data/11");
    EXPECT_FALSE(recent.contains("/data/1")) << "the oldest fall off";
    ASSERT_TRUE(actions.recentMenu()->isEnabled());
    ASSERT_EQ(actions.recentMenu()->actions().size(), SessionActions::kRecent);
    actions.recentMenu()->actions()[1]->trigger();
    EXPECT_EQ(fake.opened, QStringList{"/data/11"});
}

TEST_F(FileGroups, ExportAsDicomSegFollowsTheVolumesDicomSource) {
    LabelFiles files(&model, &window);
    LabelFileActions actions(&model, &files);
    actions.addTo(&menu);
    QAction* seg = actions.exportDicomSeg();
    EXPECT_FALSE(seg->isEnabled());
    EXPECT_EQ(seg->text(), "Export labels as DICOM SEG (open a DICOM series first)");
    EXPECT_EQ(seg->statusTip(), "A DICOM SEG open a DICOM series first");
    loadVolume();
    EXPECT_FALSE(seg->isEnabled());
    EXPECT_EQ(seg->text(), "Export labels as DICOM SEG (needs a volume read from a DICOM series)");
    loadVolume(true);
    EXPECT_TRUE(seg->isEnabled());
    EXPECT_EQ(seg->text(), "Export labels as DICOM SE&G...");
    EXPECT_EQ(seg->toolTip(), "A DICOM SEG that references the open series");
    EXPECT_TRUE(menu.toolTipsVisible()) << "the reason shows on the greyed item";
}

TEST_F(FileGroups, CloseLabelsIsOneStepThatUndoAndRedoFollow) {
    LabelFiles files(&model, &window);
    LabelFileActions labels(&model, &files);
    HistoryActions history(&model);
    history.addTo(&menu);
    EXPECT_FALSE(history.undo()->isEnabled());
    EXPECT_FALSE(history.redo()->isEnabled());
    loadVolume();
    ASSERT_TRUE(model.editLabels([](LabelMap& m) { m.at(4, 4, 4) = 1; }, "Paint"));
    EXPECT_TRUE(history.undo()->isEnabled());
    EXPECT_EQ(history.undo()->text(), "Undo Paint");
    labels.closeLabels()->trigger();
    EXPECT_EQ(model.labels()->count(0), model.labels()->voxelCount()) << "closed as one step: the layer cleared";
    EXPECT_EQ(history.undo()->text(), "Undo Close labels");
    history.undo()->trigger();
    EXPECT_EQ(model.labels()->at(4, 4, 4), 1) << "Undo brings the voxels back";
    EXPECT_TRUE(history.redo()->isEnabled());
    EXPECT_EQ(history.redo()->shortcut(), QKeySequence("Ctrl+Shift+Z"));
    history.redo()->trigger();
    EXPECT_EQ(model.labels()->count(0), model.labels()->voxelCount());
    labels.closeLabels()->trigger();  // an empty layer goes without a step
    EXPECT_EQ(model.labels(), nullptr);
    EXPECT_FALSE(history.undo()->isEnabled());
}
