/// @brief The panels' action groups without a main window (the panels over a model and a view grid): the
/// Segment menu's methods and Accept following what the model offers; the label tools and the measuring
/// tools as the views' tool, each letting go when another takes the views; the Labels menu's edits.
#include "ActionGroupHost.h"
#include "EventLoopWait.h"

#include "lucent/ui/LabelActions.h"
#include "lucent/ui/LabelPanel.h"
#include "lucent/ui/MeasureActions.h"
#include "lucent/ui/MeasurementPanel.h"
#include "lucent/ui/SegmentActions.h"
#include "lucent/ui/SegmentPanel.h"

#include <QSignalSpy>

using namespace lucent;
using namespace lucent::ui;
using lucent::testing::waitFor;
using PanelGroups = lucent::testing::ActionGroupTest;

TEST_F(PanelGroups, AcceptIsOfferedOnceARunHasAResultAndWritesItIntoTheLayer) {
    SegmentPanel panel(&model, grid, &window);
    panel.live().setBackend(gpu::Backend::Cpu);
    SegmentActions actions(&panel);
    actions.addTo(&menu);
    EXPECT_FALSE(actions.accept()->isEnabled()) << "no run";
    loadVolume();
    item(menu, "Region growing (click seeds)")->trigger();
    EXPECT_EQ(panel.model().mode(), Method::RegionGrowing);
    EXPECT_FALSE(actions.accept()->isEnabled()) << "a method, no seed: nothing to accept";
    SegmentationRequest r;
    r.seeds = {{24, 20, 6}};  // the ball's centre
    r.regionGrowing = {500, 1500, 6};
    ASSERT_TRUE(panel.startWith(Method::RegionGrowing, r, true));
    ASSERT_TRUE(waitFor([&] { return !panel.live().running() && actions.accept()->isEnabled(); }))
        << "the finished run's voxels make it acceptable";
    actions.accept()->trigger();
    ASSERT_NE(model.labels(), nullptr);
    EXPECT_GT(model.labels()->voxelCount() - model.labels()->count(0), 100u);
    EXPECT_FALSE(actions.accept()->isEnabled()) << "accepted: the run is over";
}

TEST_F(PanelGroups, WideningWithoutASeedSaysWhatItNeeds) {
    SegmentPanel panel(&model, grid, &window);
    SegmentActions actions(&panel);
    actions.addTo(&menu);
    loadVolume();
    QSignalSpy said(&panel, &SegmentPanel::message);
    item(menu, "Widen interval")->trigger();
    ASSERT_EQ(said.count(), 1);
    EXPECT_TRUE(said[0][0].toString().contains("click a seed first")) << said[0][0].toString().toStdString();
    EXPECT_EQ(item(menu, "Widen interval")->shortcuts(), (QList<QKeySequence>{QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)}));
}

TEST_F(PanelGroups, TheLabelAndMeasuringToolsTakeTheViewsInTurn) {
    LabelPanel labels(&model, grid, &window);
    MeasurementPanel measure(&model, grid, &window);
    MeasureActions measuring(&measure, grid);
    LabelToolActions& tools = labels.tools();
    loadVolume();
    tools.paint()->trigger();
    EXPECT_EQ(grid->activeTool(), &labels.brush());
    EXPECT_TRUE(tools.brushChosen());
    EXPECT_FALSE(labels.brush().erase());
    tools.erase()->trigger();
    EXPECT_TRUE(labels.brush().erase());
    measuring.ruler()->trigger();
    EXPECT_EQ(grid->activeTool(), &measure.tool());
    EXPECT_FALSE(tools.erase()->isChecked()) << "the measuring tool took the views: the eraser let go";
    tools.keepClicked()->trigger();
    EXPECT_EQ(grid->activeTool(), &tools.pick());
    EXPECT_FALSE(measuring.ruler()->isChecked());
    tools.keepClicked()->trigger();  // unchecked: the views navigate again
    EXPECT_EQ(grid->activeTool(), nullptr);
}

TEST_F(PanelGroups, TheLabelsMenuHoldsThePanelsToolsAndEditsTheActiveLabel) {
    LabelPanel panel(&model, grid, &window);
    LabelActions actions(&panel);
    actions.addTo(&menu);
    for (const char* text : {"Label panel", "Paint brush", "Eraser", "Keep clicked island", "Pick brush range at cursor",
                             "Keep largest island", "Remove small islands", "Fill between slices", "Add label",
                             "Export statistics..."})
        EXPECT_NE(item(menu, text), nullptr) << text;
    EXPECT_EQ(item(menu, "Paint brush"), panel.tools().paint()) << "the panel's buttons and the menu share the tool";
    loadVolume();
    const std::uint8_t before = model.activeLabel();
    actions.addLabel()->trigger();
    EXPECT_NE(model.activeLabel(), before);
    EXPECT_NE(model.labelTable().find(model.activeLabel()), nullptr);
    // Two islands of the active label: Keep largest keeps the bigger one, as one undoable step.
    const std::uint8_t label = model.activeLabel();
    ASSERT_TRUE(model.editLabels(
        [label](LabelMap& m) {
            for (int i = 2; i < 8; ++i) m.at(i, 2, 2) = label;
            m.at(30, 30, 8) = label;
        },
        "Paint"));
    actions.keepLargest()->trigger();
    EXPECT_EQ(model.labels()->at(30, 30, 8), 0);
    EXPECT_EQ(model.labels()->at(4, 2, 2), label);
    EXPECT_EQ(QString::fromStdString(model.history().undoText()), "Keep largest island");
}
