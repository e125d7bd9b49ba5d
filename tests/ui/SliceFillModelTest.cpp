/// @brief Labels > Fill between slices' model without a display: the fill as a preview in the layer
/// (one undo step), Keep, Cancel (the layer byte for byte as before, no step left), another edit that
/// keeps the preview, the axis given, the refusals (locked, absent, nothing between).
#include "lucent/ui/SliceFillModel.h"
#include "lucent/ui/ViewerModel.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace lucent;
using namespace lucent::ui;

namespace {

std::unique_ptr<ViewerModel> modelWithVolume() {
    Geometry g;
    g.dims = {40, 36, 30};
    auto v = std::make_shared<Volume>(g, PixelType::Int16);
    auto model = std::make_unique<ViewerModel>();
    SeriesInfo info;
    info.id = "/data/fill.nii";
    model->setVolume(v, info, "auto");
    return model;
}

/// A disc of radius r centred at (cx, cy) on slice s of axis `axis` (0: the j-k plane, 2: i-j).
void disc(LabelMap& m, int axis, int s, double cx, double cy, double r, std::uint8_t value) {
    const auto& d = m.geometry().dims;
    for (int k = 0; k < d[2]; ++k)
        for (int j = 0; j < d[1]; ++j)
            for (int i = 0; i < d[0]; ++i) {
                const int along = axis == 0 ? i : axis == 1 ? j : k;
                const double x = axis == 0 ? j : i, y = axis == 2 ? j : k;
                if (along == s && (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) m.at(i, j, k) = value;
            }
}

bool same(const LabelMap& a, const LabelMap& b) { return std::equal(a.data(), a.data() + a.voxelCount(), b.data()); }

/// Label 1 drawn on slices 5 and 15 of k (one step, "Draw").
std::unique_ptr<ViewerModel> drawn() {
    auto model = modelWithVolume();
    model->editLabels([](LabelMap& m) { disc(m, 2, 5, 20, 18, 8, 1), disc(m, 2, 15, 22, 18, 7, 1); }, "Draw");
    return model;
}

}  // namespace

TEST(SliceFillModel, CancelTakesThePreviewBackByteForByte) {
    auto model = drawn();
    const LabelMap before = *model->labels();
    SliceFillModel fill(model.get());
    int started = 0, ended = 0;
    QObject::connect(&fill, &SliceFillModel::previewChanged, [&](bool on) { (on ? started : ended) += 1; });
    QString why;
    ASSERT_TRUE(fill.preview(2, {1}, &why)) << why.toStdString();
    EXPECT_TRUE(fill.previewing());
    EXPECT_EQ(started, 1);
    for (int k = 6; k <= 14; ++k) EXPECT_EQ(model->labels()->at(21, 18, k), 1) << "slice " << k << " filled";
    EXPECT_EQ(model->labels()->at(21, 18, 4), 0) << "nothing below the first drawn slice";
    EXPECT_EQ(model->history().undoText(), SliceFillModel::kStepName);
    ASSERT_EQ(fill.report().labels.size(), 1u);
    EXPECT_EQ(fill.report().labels[0].filledSlices, 9);
    EXPECT_TRUE(fill.summary().contains("filled on 9 slices of k")) << fill.summary().toStdString();

    EXPECT_TRUE(fill.cancel());
    EXPECT_FALSE(fill.previewing());
    EXPECT_EQ(ended, 1);
    EXPECT_TRUE(same(*model->labels(), before));
    EXPECT_EQ(model->history().undoText(), "Draw") << "the drawing is the last step again";
    EXPECT_FALSE(fill.cancel()) << "nothing left to cancel";
}

TEST(SliceFillModel, KeepLeavesOneUndoableStep) {
    auto model = drawn();
    const LabelMap before = *model->labels();
    SliceFillModel fill(model.get());
    ASSERT_TRUE(fill.preview(2, {1}));
    const LabelMap filled = *model->labels();
    fill.accept();
    EXPECT_FALSE(fill.previewing());
    EXPECT_FALSE(fill.cancel());
    EXPECT_TRUE(same(*model->labels(), filled));
    ASSERT_TRUE(model->undo());
    EXPECT_TRUE(same(*model->labels(), before));
    ASSERT_TRUE(model->redo());
    EXPECT_TRUE(same(*model->labels(), filled));
}

TEST(SliceFillModel, AnotherEditKeepsThePreviewAsAnOrdinaryStep) {
    auto model = drawn();
    SliceFillModel fill(model.get());
    ASSERT_TRUE(fill.preview(2, {1}));
    model->editLabels([](LabelMap& m) { m.at(0, 0, 0) = 2; }, "Paint");
    EXPECT_FALSE(fill.previewing());
    EXPECT_FALSE(fill.cancel()) << "the paint step is on top: cancelling must not undo it";
    EXPECT_EQ(model->labels()->at(0, 0, 0), 2);
    EXPECT_EQ(model->labels()->at(21, 18, 10), 1);
    EXPECT_EQ(model->history().undoText(), "Paint");
}

TEST(SliceFillModel, TheAxisGivenIsTheOneFilledAlong) {
    auto model = modelWithVolume();
    model->editLabels([](LabelMap& m) { disc(m, 0, 10, 18, 15, 6, 3), disc(m, 0, 20, 18, 15, 6, 3); }, "Draw");
    SliceFillModel fill(model.get());
    QString why;
    EXPECT_FALSE(fill.preview(2, {3}, &why)) << "along k every slice of the discs' span holds label 3";
    EXPECT_TRUE(why.contains("Nothing to fill")) << why.toStdString();
    EXPECT_EQ(model->history().undoText(), "Draw") << "no step recorded";
    ASSERT_TRUE(fill.preview(0, {3}, &why)) << why.toStdString();
    for (int i = 11; i <= 19; ++i) EXPECT_EQ(model->labels()->at(i, 18, 15), 3) << "slice i = " << i;
    EXPECT_EQ(fill.report().axis, 0);
}

TEST(SliceFillModel, LockedAbsentAndSingleSliceLabelsAreRefusedWithTheLayerUnchanged) {
    auto model = drawn();
    model->editLabels([](LabelMap& m) { disc(m, 2, 8, 5, 5, 2, 2); }, "Draw 2");
    const LabelMap before = *model->labels();
    SliceFillModel fill(model.get());
    QString why;
    EXPECT_FALSE(fill.preview(2, {4}, &why));
    EXPECT_TRUE(why.contains("no voxel")) << why.toStdString();
    EXPECT_FALSE(fill.preview(2, {2}, &why)) << "label 2 lies on one slice";
    EXPECT_TRUE(why.contains("Nothing to fill")) << why.toStdString();
    LabelInfo info = *model->labelTable().find(1);
    info.locked = true;
    model->setLabelInfo(info);
    EXPECT_FALSE(fill.preview(2, {1}, &why));
    EXPECT_TRUE(why.contains("locked")) << why.toStdString();
    EXPECT_FALSE(fill.previewing());
    EXPECT_TRUE(same(*model->labels(), before));
    EXPECT_EQ(model->history().undoText(), "Draw 2");
}

TEST(SliceFillModel, AStopLeavesTheLayerAsItWasAndTheNextFillEqualsTheEngines) {
    auto model = drawn();
    const LabelMap before = *model->labels();
    SliceFillModel fill(model.get());
    QStringList said;
    std::vector<int> progress;
    QObject::connect(&fill, &SliceFillModel::finished, [&](bool ok, const QString& why) { said << (ok ? "filled" : why); });
    QObject::connect(&fill, &SliceFillModel::progressChanged, [&](int p) { progress.push_back(p); });
    ASSERT_TRUE(fill.start(2, {1}));
    EXPECT_TRUE(fill.running());
    QString why;
    EXPECT_FALSE(fill.start(2, {1}, &why)) << "one fill at a time";
    EXPECT_TRUE(why.contains("running")) << why.toStdString();
    fill.stop();  // however far the worker got, its result is dropped
    fill.wait();
    EXPECT_FALSE(fill.running());
    ASSERT_EQ(said.size(), 1);
    EXPECT_TRUE(said[0].contains("cancelled")) << said[0].toStdString();
    EXPECT_FALSE(fill.previewing());
    EXPECT_TRUE(same(*model->labels(), before));
    EXPECT_EQ(model->history().undoText(), "Draw");

    ASSERT_TRUE(fill.start(2, {1}));
    fill.wait();
    EXPECT_EQ(said.back(), "filled");
    EXPECT_EQ(progress.back(), 1000);
    LabelMap engine = before;
    SliceFillOptions options;
    options.axis = 2;
    options.labels = {1};
    fillBetweenSlices(engine, options);
    EXPECT_TRUE(same(*model->labels(), engine)) << "the preview is the engine's fill";
}

TEST(SliceFillModel, AnEditWhileFillingDropsTheResult) {
    auto model = drawn();
    SliceFillModel fill(model.get());
    QString said;
    QObject::connect(&fill, &SliceFillModel::finished, [&](bool, const QString& why) { said = why; });
    ASSERT_TRUE(fill.start(2, {1}));
    model->editLabels([](LabelMap& m) { m.at(0, 0, 0) = 2; }, "Paint");  // waits for the worker's copy
    fill.wait();
    EXPECT_TRUE(said.contains("changed while filling")) << said.toStdString();
    EXPECT_EQ(model->history().undoText(), "Paint");
    EXPECT_EQ(model->labels()->at(21, 18, 10), 0) << "nothing filled over the newer layer";
}

TEST(SliceFillModel, SeveralLabelsFillTogetherAsOneStep) {
    auto model = drawn();
    model->editLabels([](LabelMap& m) { disc(m, 2, 3, 6, 6, 3, 2), disc(m, 2, 13, 7, 6, 3, 2); }, "Draw 2");
    const LabelMap before = *model->labels();
    SliceFillModel fill(model.get());
    ASSERT_TRUE(fill.preview(2, {1, 2}));
    ASSERT_EQ(fill.report().labels.size(), 2u);
    EXPECT_EQ(model->labels()->at(21, 18, 10), 1);
    EXPECT_EQ(model->labels()->at(6, 6, 8), 2);
    EXPECT_TRUE(fill.summary().contains("Label 2 filled on 9 slices")) << fill.summary().toStdString();
    EXPECT_TRUE(fill.cancel());
    EXPECT_TRUE(same(*model->labels(), before)) << "one step takes both back";
}
