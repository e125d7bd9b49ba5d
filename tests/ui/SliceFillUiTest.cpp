/// @brief Labels > Fill between slices driven like a user under Xvfb: the menu item and its key I,
/// the axis of the view in use (axial: k; sagittal: i), the fill in the background with its progress
/// and Cancel (the layer byte for byte as before), the preview drawn in the axial view before
/// deciding, Cancel (the layer as before), Keep and Edit > Undo, and several labels checked in the
/// dialog's list filled as one step.
#include "CtPhantom.h"
#include "MenuDriving.h"
#include "ViewerWindowTest.h"
#include "lucent/ui/LabelPanel.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/SliceFillModel.h"

#include <gtest/gtest.h>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QTest>

#include <algorithm>
#include <cstdlib>

using namespace lucent;
using namespace lucent::ui;
using render::Orientation;

namespace {

bool reddish(QRgb c) { return qRed(c) > qGreen(c) + 50 && qRed(c) > qBlue(c) + 50; }

class SliceFillUi : public lucent::testing::ViewerWindowTest {
protected:
    void SetUp() override {
        showWindow();
        activate();
        setVolume(lucent::testing::softTissueBox());
        window.model().setWindow({43, 60});
    }
    const LabelMap& layer() { return *window.model().labels(); }
    QDialog* prompt() { return window.findChild<QDialog*>("fillBetweenSlicesPrompt"); }
    QString promptText() { return prompt()->findChild<QLabel*>("fillPromptText")->text(); }
    QPushButton* button(const char* name) { return prompt()->findChild<QPushButton*>(name); }
    SliceFillModel& fill() { return *window.labelPanel().sliceFill(); }
    /// Waits for the fill in the background to end (its result handed to the GUI thread).
    bool filled() {
        return QTest::qWaitFor([&] { return !fill().running(); }, 20000) && button("fillKeepButton")->isEnabled();
    }
    bool sameAs(const LabelMap& other) {
        return std::equal(layer().data(), layer().data() + layer().voxelCount(), other.data());
    }
    /// Label 1: discs of radius 10 on slices a and b of `axis` (2: i-j planes around (48, 40); 0: j-k
    /// planes around (40, 20)).
    void drawDiscs(int axis, int a, int b) {
        window.model().editLabels(
            [&](LabelMap& m) {
                for (int k = 0; k < 40; ++k)
                    for (int j = 0; j < 80; ++j)
                        for (int i = 0; i < 96; ++i) {
                            const int along = axis == 0 ? i : k;
                            const double x = axis == 0 ? j - 40.0 : i - 48.0, y = axis == 0 ? k - 20.0 : j - 40.0;
                            if ((along == a || along == b) && x * x + y * y <= 100) m.at(i, j, k) = 1;
                        }
            },
            "Draw");
    }
    /// Whether the axial view, moved to slice k, draws label 1's colour at voxel (53, 45).
    bool axialShowsLabelAt(int k) {
        window.model().setCursor({48, 40, double(k)});
        const QImage img = view(Orientation::Axial)->grabFramebuffer();  // paints first: nothing to wait for
        // Off the cursor's lines, inside the disc.
        const auto p = view(Orientation::Axial)->view().voxelToScreen({53, 45, double(k)});
        if (const char* dir = std::getenv("LUCENT_FILL_SHOTS")) img.save(QString("%1/axial-%2.png").arg(dir).arg(k));
        return reddish(img.pixel(int(p[0]), int(p[1])));
    }
};

}  // namespace

TEST_F(SliceFillUi, TheMenuFillsAlongTheAxialViewShowsItAndCancelTakesItBack) {
    drawDiscs(2, 10, 20);
    const LabelMap drawn = layer();
    view(Orientation::Axial)->setFocus();
    ASSERT_EQ(window.grid().activeView(), view(Orientation::Axial));
    QAction* item = lucent::testing::menuAction(window, "Labels", "Fill between slices");
    ASSERT_NE(item, nullptr) << "Labels > Fill between slices";
    EXPECT_EQ(item->shortcut(), QKeySequence("I"));
    EXPECT_TRUE(axialShowsLabelAt(10)) << "slice 10 is drawn";
    EXPECT_FALSE(axialShowsLabelAt(15)) << "slice 15 holds nothing before the fill";
    item->trigger();
    ASSERT_NE(prompt(), nullptr);
    ASSERT_TRUE(prompt()->isVisible());
    ASSERT_TRUE(filled());
    EXPECT_TRUE(promptText().contains("filled on 9 axial slices (k)")) << promptText().toStdString();
    for (int k = 11; k <= 19; ++k) EXPECT_EQ(layer().at(48, 40, k), 1) << "slice " << k;
    EXPECT_EQ(layer().at(48, 40, 9), 0);
    EXPECT_EQ(layer().at(48, 40, 21), 0);
    // The prompt leaves the views free: the preview is seen on a filled slice before deciding.
    EXPECT_TRUE(axialShowsLabelAt(15)) << "the preview is drawn in the axial view";
    EXPECT_EQ(action("undoAction")->text(), "Undo Fill between slices");

    QTest::mouseClick(button("fillCancelButton"), Qt::LeftButton);
    EXPECT_FALSE(prompt()->isVisible());
    EXPECT_TRUE(sameAs(drawn)) << "Cancel: the layer as drawn, byte for byte";
    EXPECT_EQ(action("undoAction")->text(), "Undo Draw");
    EXPECT_FALSE(axialShowsLabelAt(15)) << "the cancelled preview is gone from the view";
}

TEST_F(SliceFillUi, TheKeyFillsAlongTheSagittalViewKeepAndUndo) {
    drawDiscs(0, 30, 40);
    const LabelMap drawn = layer();
    view(Orientation::Sagittal)->setFocus();
    ASSERT_EQ(window.grid().activeView(), view(Orientation::Sagittal));
    ASSERT_EQ(view(Orientation::Sagittal)->view().normalAxis(), 0);
    QTest::keyClick(view(Orientation::Sagittal), Qt::Key_I);
    ASSERT_NE(prompt(), nullptr);
    ASSERT_TRUE(prompt()->isVisible()) << "I is Fill between slices";
    ASSERT_TRUE(filled());
    EXPECT_TRUE(promptText().contains("filled on 9 sagittal slices (i)")) << promptText().toStdString();
    for (int i = 31; i <= 39; ++i) EXPECT_EQ(layer().at(i, 40, 20), 1) << "slice i = " << i;
    const LabelMap filled = layer();

    QTest::mouseClick(button("fillKeepButton"), Qt::LeftButton);
    EXPECT_FALSE(prompt()->isVisible());
    EXPECT_FALSE(window.labelPanel().sliceFill()->previewing());
    EXPECT_TRUE(sameAs(filled)) << "Keep leaves the fill";
    action("undoAction")->trigger();
    EXPECT_TRUE(sameAs(drawn)) << "Edit > Undo takes it back";
    action("redoAction")->trigger();
    EXPECT_TRUE(sameAs(filled));
}

TEST_F(SliceFillUi, ALockedLabelIsRefusedWithAMessageAndNoPrompt) {
    drawDiscs(2, 10, 20);
    LabelInfo info = *window.model().labelTable().find(1);
    info.locked = true;
    window.model().setLabelInfo(info);
    const LabelMap drawn = layer();
    QString said;
    QObject::connect(&window.labelPanel(), &LabelPanel::message, [&](const QString& m) { said = m; });
    lucent::testing::menuAction(window, "Labels", "Fill between slices")->trigger();
    EXPECT_TRUE(said.contains("locked")) << said.toStdString();
    EXPECT_TRUE(prompt() == nullptr || !prompt()->isVisible());
    EXPECT_TRUE(sameAs(drawn));
}

TEST_F(SliceFillUi, CancelWhileFillingLeavesTheLabelsAndTheNextFillKeptIsTheEngines) {
    drawDiscs(2, 10, 20);
    const LabelMap drawn = layer();
    view(Orientation::Axial)->setFocus();
    lucent::testing::menuAction(window, "Labels", "Fill between slices")->trigger();
    ASSERT_NE(prompt(), nullptr);
    ASSERT_TRUE(prompt()->isVisible()) << "the dialog shows at once, while the fill runs";
    EXPECT_TRUE(fill().running());
    EXPECT_TRUE(prompt()->findChild<QProgressBar*>("fillProgress")->isVisible());
    EXPECT_FALSE(button("fillKeepButton")->isEnabled()) << "nothing to keep yet";
    EXPECT_TRUE(promptText().contains("Filling")) << promptText().toStdString();
    // Cancel before the worker's result is taken: whatever it got to, the layer stays as drawn.
    QTest::mouseClick(button("fillCancelButton"), Qt::LeftButton);
    EXPECT_FALSE(prompt()->isVisible());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !fill().running(); }, 20000));
    EXPECT_FALSE(fill().previewing());
    EXPECT_TRUE(sameAs(drawn)) << "a cancelled fill leaves the layer byte for byte";
    EXPECT_EQ(action("undoAction")->text(), "Undo Draw") << "and no step";

    QTest::keyClick(view(Orientation::Axial), Qt::Key_I);
    ASSERT_TRUE(filled());
    QTest::mouseClick(button("fillKeepButton"), Qt::LeftButton);
    LabelMap engine = drawn;
    SliceFillOptions options;
    options.axis = 2;
    options.labels = {1};
    fillBetweenSlices(engine, options);
    EXPECT_TRUE(sameAs(engine)) << "kept: the engine's fill of the drawn layer";
    EXPECT_EQ(action("undoAction")->text(), "Undo Fill between slices");
}

TEST_F(SliceFillUi, LabelsCheckedInTheDialogAreFilledTogetherAsOneStep) {
    drawDiscs(2, 10, 20);
    LabelInfo second;
    second.value = 2;
    second.name = "Vessel";
    second.rgb = {40, 200, 40};
    window.model().setLabelInfo(second);
    window.model().editLabels(
        [](LabelMap& m) {
            for (int k : {12, 18})
                for (int j = 5; j < 12; ++j)
                    for (int i = 5; i < 12; ++i) m.at(i, j, k) = 2;
        },
        "Draw vessel");
    const LabelMap drawn = layer();
    view(Orientation::Axial)->setFocus();
    QTest::keyClick(view(Orientation::Axial), Qt::Key_I);
    ASSERT_TRUE(filled());
    EXPECT_EQ(layer().at(8, 8, 15), 0) << "only the active label at first";
    auto* list = prompt()->findChild<QListWidget*>("fillLabelList");
    ASSERT_NE(list, nullptr);
    ASSERT_EQ(list->count(), 2);
    QListWidgetItem* vessel = list->item(1);
    EXPECT_EQ(vessel->text(), "Vessel");
    EXPECT_EQ(list->item(0)->checkState(), Qt::Checked);
    // The box at the item's left is its check box.
    const QRect r = list->visualItemRect(vessel);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, QPoint(r.left() + r.height() / 2, r.center().y()));
    ASSERT_EQ(vessel->checkState(), Qt::Checked) << "clicking the box checks the label";
    ASSERT_TRUE(filled());
    EXPECT_TRUE(promptText().contains("Vessel filled on 5 axial slices (k)")) << promptText().toStdString();
    if (const char* dir = std::getenv("LUCENT_FILL_SHOTS")) prompt()->grab().save(QString("%1/fill-dialog.png").arg(dir));
    EXPECT_EQ(layer().at(8, 8, 15), 2);
    EXPECT_EQ(layer().at(48, 40, 15), 1);
    QTest::mouseClick(button("fillKeepButton"), Qt::LeftButton);
    EXPECT_EQ(action("undoAction")->text(), "Undo Fill between slices");
    action("undoAction")->trigger();
    EXPECT_TRUE(sameAs(drawn)) << "one step held both labels' fill";
}
