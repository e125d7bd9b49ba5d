/// @brief The Segment panel's model with no display and no engine: seeds to a request, the first
/// seed's interval, each method's parameters into its run, accept, and the session round trip of
/// every method's settings. A recording runner stands in for the live run.
#include "lucent/ui/SegmentationModel.h"
#include "lucent/ui/SessionFile.h"
#include "lucent/ui/ViewerModel.h"

#include "lucent/render/SliceViewGeometry.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace lucent;
using namespace lucent::ui;

namespace {

/// Records what the model asks of a run; a started run stays active until cancelled.
class RecordingRunner : public SegmentationRunner {
public:
    struct Call {
        std::string what;  // "start", "update", "cancel", "accept"
        Method method{};
        SegmentationRequest request;
    };
    std::vector<Call> calls;
    std::array<std::uint8_t, 256> acceptedLabels{};
    bool isActive = false;
    std::size_t resultVoxels = 100;  // what a run's result holds (0: a refused update)
    Method runMethod{};
    SegmentationRequest runRequest;
    std::vector<VoxelIndex> maskedVoxels;  // what the mask of the last start held, if any

    void setBackend(gpu::Backend) override {}
    void setStepsPerFrame(int) override {}
    bool start(Method method, SegmentationRequest request, bool, QString*) override {
        calls.push_back({"start", method, request});
        isActive = true;
        runMethod = method;
        runRequest = request;
        return true;
    }
    void update(const SegmentationRequest& request) override {
        calls.push_back({"update", runMethod, request});
        runRequest = request;
    }
    void cancel() override {
        calls.push_back({"cancel", runMethod, {}});
        isActive = false;
    }
    bool accept(std::uint8_t label, const QString&) override {
        calls.push_back({"accept", runMethod, {}});
        acceptedLabels.fill(0);
        acceptedLabels[1] = label;
        return true;
    }
    bool accept(const std::array<std::uint8_t, 256>& labelFor, const QString&) override {
        calls.push_back({"accept", runMethod, {}});
        acceptedLabels = labelFor;
        return true;
    }
    std::vector<bool> shownValues;
    void showOnlyValues(const std::vector<bool>& shown) override { shownValues = shown; }
    bool active() const override { return isActive; }
    std::size_t voxels() const override { return isActive ? resultVoxels : 0; }
    Method method() const override { return runMethod; }
    const SegmentationRequest& request() const override { return runRequest; }
    SlicePolygon polygon(int) const override { return {}; }
    int polygonCount() const override { return 0; }
    int shownStep() const override { return -1; }
    SlicePolygon latestPolygon() const override { return {}; }

    int count(const std::string& what) const {
        return int(std::count_if(calls.begin(), calls.end(), [&](const Call& c) { return c.what == what; }));
    }
};

/// 40 x 40 x 20, 0 outside a ball of 1000; around (30, 10, 10) a checkerboard of 900 / 1100.
std::shared_ptr<Volume> phantom() {
    Geometry g;
    g.dims = {40, 40, 20};
    auto v = std::make_shared<Volume>(g, PixelType::Int16);
    for (int k = 0; k < 20; ++k)
        for (int j = 0; j < 40; ++j)
            for (int i = 0; i < 40; ++i) {
                double value = (i - 15) * (i - 15) + (j - 20) * (j - 20) + (k - 10) * (k - 10) < 64 ? 1000 : 0;
                if (std::abs(i - 30) <= 3 && std::abs(j - 10) <= 3 && std::abs(k - 10) <= 3)
                    value = (i + j + k) % 2 ? 900 : 1100;
                v->setValue(v->geometry().index(i, j, k), value);
            }
    return v;
}

class SegmentationModelTest : public ::testing::Test {
protected:
    void SetUp() override {
        volume = phantom();
        viewer.setVolume(volume, SeriesInfo{}, "auto");
        QObject::connect(&model, &SegmentationModel::message, [this](const QString& m) { messages.push_back(m); });
    }
    /// A click of the seed tool at `v` (what SeedTool::press does: add, then tell).
    void click(VoxelIndex v) {
        auto seeds = model.seeds();
        seeds.push_back(v);
        model.seedTool().setSeeds(seeds);
        model.seedTool().changed();
    }
    std::shared_ptr<Volume> volume;
    ViewerModel viewer;
    RecordingRunner runner;
    SegmentationModel model{&viewer, &runner};
    std::vector<QString> messages;
};

}  // namespace

TEST_F(SegmentationModelTest, TheFirstSeedSetsTheIntervalAndStartsRegionGrowing) {
    model.enterMode(Method::RegionGrowing);
    EXPECT_EQ(model.tool(), &model.seedTool());
    click({15, 20, 10});  // inside the ball: a flat 5 x 5 x 5 cube of 1000
    ASSERT_EQ(runner.count("start"), 1);
    const auto& r = runner.calls.back().request;
    EXPECT_EQ(runner.calls.back().method, Method::RegionGrowing);
    EXPECT_EQ(r.seeds, (std::vector<VoxelIndex>{{15, 20, 10}}));
    // The class of 1000 in a volume of 0, 900, 1000 and 1100: 1000 alone, the others left out.
    EXPECT_GT(r.regionGrowing.lower, 900);
    EXPECT_LE(r.regionGrowing.lower, 1000);
    EXPECT_GE(r.regionGrowing.upper, 1000);
    EXPECT_LT(r.regionGrowing.upper, 1100);
    const double lower = r.regionGrowing.lower;
    // A second seed keeps the interval and regrows the running run.
    click({14, 20, 10});
    EXPECT_EQ(runner.count("start"), 1);
    ASSERT_EQ(runner.count("update"), 1);
    EXPECT_EQ(runner.runRequest.seeds.size(), 2u);
    EXPECT_EQ(runner.runRequest.regionGrowing.lower, lower);
}

TEST_F(SegmentationModelTest, ASeedOnATextureTakesItsOwnValuesClassAndPlusWidensToTheTexture) {
    model.enterMode(Method::RegionGrowing);
    click({30, 10, 10});  // the 900 / 1100 checkerboard: this voxel holds 900 ((30 + 10 + 10) % 2 == 0 is 1100)
    const double seed = volume->value(30, 10, 10);
    EXPECT_LE(model.lower(), seed);
    EXPECT_GE(model.upper(), seed);
    EXPECT_TRUE(model.lower() > 1000 || model.upper() < 1000) << "its own value's class, not the ball's too";
    EXPECT_EQ(runner.runRequest.regionGrowing.lower, model.lower());
    // Widened step by step (the + key) until the texture's other value comes in.
    int steps = 0;
    const double other = seed == 900 ? 1100 : 900;
    while (!(model.lower() <= other && other <= model.upper()) && steps < 100) model.stepInterval(1), ++steps;
    EXPECT_LT(steps, 100);
    EXPECT_GT(steps, 0);
}

TEST_F(SegmentationModelTest, ASeedAtTheBallsEdgeTakesTheBallsValueNotTheEdgesSpread) {
    model.enterMode(Method::RegionGrowing);
    click({22, 20, 10});  // 7 voxels from the centre: its cube has 1000 (ball) and 0 (outside)
    // The class of the seed's own value, as inside the ball: the histogram does not see the edge.
    EXPECT_GT(model.lower(), 900);
    EXPECT_LE(model.lower(), 1000);
    EXPECT_GE(model.upper(), 1000);
    EXPECT_LT(model.upper(), 1100);
}

TEST_F(SegmentationModelTest, IntervalEditsRegrowAndAReversedIntervalWaits) {
    model.enterMode(Method::RegionGrowing);
    click({15, 20, 10});
    model.setInterval(500.4, 1500.6);  // whole units, as the boxes show them
    EXPECT_EQ(runner.runRequest.regionGrowing.lower, 500);
    EXPECT_EQ(runner.runRequest.regionGrowing.upper, 1501);
    const int updates = runner.count("update");
    model.setInterval(1600, 1500);
    EXPECT_EQ(runner.count("update"), updates) << "lower above upper: no run until it is an interval";
    model.setInterval(900, 1100);
    model.setConnectivity(26);
    EXPECT_EQ(runner.runRequest.regionGrowing.connectivity, 26);
    // A drag up by 10 pixels widens each side by 10 units of 0.5 % of the range (1100): 55.
    model.dragInterval(0, 10, true);
    EXPECT_EQ(model.lower(), 845);
    EXPECT_EQ(model.upper(), 1155);
    model.dragInterval(4, 10, false);  // then right: both move up by 4 x 5.5 = 22
    EXPECT_EQ(model.lower(), 867);
    EXPECT_EQ(model.upper(), 1177);
    // A long drag sideways stops where the interval's lower bound reaches the data's last value
    // (or its upper the first), its width kept: an interval wholly beyond the data holds no voxel
    // (seen in the viewer: [1469, 1469] on an MR whose values are 0-1059).
    const auto [first, last] = volume->range();
    model.dragInterval(400, 10, false);
    EXPECT_EQ(model.lower(), last);
    EXPECT_EQ(model.upper() - model.lower(), 1177 - 867);
    model.dragInterval(-400, 10, false);
    EXPECT_EQ(model.upper(), first);
    model.clearSeeds();
    EXPECT_FALSE(runner.isActive);
    EXPECT_TRUE(model.seeds().empty());
}

TEST_F(SegmentationModelTest, APressOnASeedsVoxelAddsNoSecondSeed) {
    model.enterMode(Method::RegionGrowing);
    render::SliceViewGeometry view;
    view.setVolume(volume->geometry());
    view.setViewport(400, 400);
    view.setCursor({15, 20, 10});
    int changes = 0;
    const auto told = model.seedTool().changed;
    model.seedTool().changed = [&] {
        ++changes;
        told();
    };
    const auto at = view.voxelToScreen({15, 20, 10});
    EXPECT_TRUE(model.seedTool().press(view, at[0], at[1], false));
    EXPECT_TRUE(model.seedTool().press(view, at[0] + 0.2, at[1] - 0.2, false)) << "the same voxel: handled";
    ASSERT_EQ(model.seeds().size(), 1u) << "seen in the viewer: a second click listed the same voxel twice";
    EXPECT_EQ(changes, 1);
    const auto next = view.voxelToScreen({16, 20, 10});
    EXPECT_TRUE(model.seedTool().press(view, next[0], next[1], false));
    EXPECT_EQ(model.seeds().size(), 2u) << "the voxel beside it is a new seed";
}

TEST_F(SegmentationModelTest, EachMethodGetsItsParameters) {
    model.enterMode(Method::FuzzyConnectedness);
    EXPECT_FALSE(model.fuzzyConnectednessBlocker().isEmpty()) << "no seeds yet";
    click({15, 20, 10});
    EXPECT_EQ(runner.count("start"), 0) << "fuzzy connectedness starts from its dialog, not from a click";
    FuzzyConnectednessParams fc;
    fc.threshold = 0.3;
    fc.objectMean = 1000;
    fc.objectSigma = 40;
    fc.diffSigma = 12;
    ASSERT_TRUE(model.startFuzzyConnectedness(fc));
    EXPECT_EQ(runner.runMethod, Method::FuzzyConnectedness);
    EXPECT_EQ(runner.runRequest.fuzzyConnectedness.threshold, 0.3);
    EXPECT_EQ(runner.runRequest.fuzzyConnectedness.objectSigma, 40);
    EXPECT_EQ(runner.runRequest.seeds.size(), 1u);
    model.setThreshold(0.75);
    EXPECT_EQ(runner.calls.back().what, "update");
    EXPECT_EQ(runner.runRequest.fuzzyConnectedness.threshold, 0.75);

    model.enterMode(Method::Snake);
    EXPECT_FALSE(runner.isActive) << "another method's run ends";
    EXPECT_EQ(model.tool(), &model.rectangleTool());
    model.setPropagate(true);
    model.rectangleTool().finished(7, {3, 4, 30, 33});
    EXPECT_EQ(runner.runMethod, Method::Snake);
    EXPECT_EQ(runner.runRequest.snake.slice, 7);
    EXPECT_EQ(runner.runRequest.snake.rect, (std::array<int, 4>{3, 4, 30, 33}));
    EXPECT_TRUE(runner.runRequest.snake.propagate);

    // The default domain: the box grown by 10 % of its larger side (30 px: 3 px), clipped to the slice.
    EXPECT_EQ(runner.runRequest.snake.domain, (std::array<int, 4>{0, 1, 33, 36}));
    model.setSnakeDomainMargin(-1);  // the whole slice, the paper's setting
    model.rectangleTool().finished(7, {3, 4, 30, 33});
    EXPECT_FALSE(runner.runRequest.snake.domain.has_value());
    model.setSnakeDomainMargin(0);  // the box itself, and never less than 2 px around it
    model.rectangleTool().finished(7, {10, 12, 20, 22});
    EXPECT_EQ(runner.runRequest.snake.domain, (std::array<int, 4>{8, 10, 22, 24}));
    model.setSnakeStepMax(5);
    model.setSnakeMinSegment(3);
    model.rectangleTool().finished(7, {10, 12, 20, 22});
    EXPECT_EQ(runner.runRequest.snake.stepMax, 5);
    EXPECT_EQ(runner.runRequest.snake.minSegment, 3);

    model.enterMode(Method::FuzzyCMeans);
    EXPECT_EQ(model.tool(), nullptr);
    FuzzyCMeansParams fcm;
    fcm.clusters = 4;
    fcm.fuzziness = 1.5;
    ASSERT_TRUE(model.startFuzzyCMeans(fcm, true));
    EXPECT_EQ(runner.runRequest.fuzzyCMeans.clusters, 4);
    EXPECT_EQ(runner.runRequest.fuzzyCMeans.fuzziness, 1.5);
    EXPECT_EQ(runner.runRequest.mask, nullptr) << "an empty label layer masks nothing";
}

TEST_F(SegmentationModelTest, FuzzyCMeansOverTheLabelLayer) {
    auto layer = std::make_shared<LabelMap>(volume->geometry());
    (*layer)[volume->geometry().index(15, 20, 10)] = 2;
    QString error;
    ASSERT_TRUE(viewer.setLabels(layer, "test", error)) << error.toStdString();
    model.enterMode(Method::FuzzyCMeans);
    ASSERT_TRUE(model.layerCanMask());
    ASSERT_TRUE(model.startFuzzyCMeans(FuzzyCMeansParams{}, true));
    ASSERT_NE(runner.runRequest.mask, nullptr);
    EXPECT_EQ((*runner.runRequest.mask)[volume->geometry().index(15, 20, 10)], 2);
    EXPECT_EQ(runner.runRequest.mask->count(0), layer->voxelCount() - 1);
}

TEST_F(SegmentationModelTest, AcceptWritesTheChosenClustersOrTheLabel) {
    model.enterMode(Method::FuzzyCMeans);
    ASSERT_TRUE(model.startFuzzyCMeans(FuzzyCMeansParams{}, false));  // 3 clusters
    model.setClusterChosen(2, false);
    EXPECT_EQ(runner.shownValues, (std::vector<bool>{true, false, true})) << "an unticked cluster leaves the preview";
    ASSERT_TRUE(model.accept(1));
    EXPECT_EQ(runner.acceptedLabels[1], 1) << "an empty layer: new labels from 1";
    EXPECT_EQ(runner.acceptedLabels[2], 0) << "an unticked cluster is left out";
    EXPECT_EQ(runner.acceptedLabels[3], 2) << "the next free label, not the cluster's number";

    model.enterMode(Method::RegionGrowing);
    click({15, 20, 10});
    LabelInfo locked = *viewer.labelTable().find(1);
    locked.locked = true;
    viewer.setLabelInfo(locked);
    EXPECT_FALSE(model.accept(1));
    ASSERT_FALSE(messages.empty());
    EXPECT_TRUE(messages.back().contains("locked")) << messages.back().toStdString();
    ASSERT_TRUE(model.accept(4));
    EXPECT_EQ(runner.acceptedLabels[1], 4);
    EXPECT_EQ(viewer.activeLabel(), 4);
    EXPECT_TRUE(model.seeds().empty()) << "accepted seeds are used up";
}

TEST_F(SegmentationModelTest, TheBackgroundClusterStartsUntickedOncePerRunUnlessTheUserTicked) {
    // The phantom's faces are all air (0): the cluster nearest 0 is the background.
    model.enterMode(Method::FuzzyCMeans);
    ASSERT_TRUE(model.startFuzzyCMeans(FuzzyCMeansParams{}, false));  // 3 clusters
    model.clustersSettled({1000.0, 2.0, 950.0});
    EXPECT_EQ(model.backgroundCluster(), 2);
    EXPECT_EQ(model.clustersChosen(), (std::vector<bool>{true, false, true}));
    EXPECT_EQ(runner.shownValues, (std::vector<bool>{true, false, true})) << "the air leaves the preview and the 3D pane";
    model.setClusterChosen(2, true);
    model.clustersSettled({1000.0, 2.0, 950.0});
    EXPECT_EQ(model.clustersChosen(), (std::vector<bool>{true, true, true})) << "once a run: the user's tick stands";

    ASSERT_TRUE(model.startFuzzyCMeans(FuzzyCMeansParams{}, false));
    EXPECT_EQ(model.backgroundCluster(), 0) << "a new run has not settled";
    model.setClusterChosen(3, false);  // ticked before the run settled
    model.clustersSettled({2.0, 1000.0, 950.0});
    EXPECT_EQ(model.clustersChosen(), (std::vector<bool>{true, true, false})) << "the user's ticks stand";

    auto layer = std::make_shared<LabelMap>(volume->geometry());
    (*layer)[volume->geometry().index(15, 20, 10)] = 1;
    QString error;
    ASSERT_TRUE(viewer.setLabels(layer, "test", error)) << error.toStdString();
    ASSERT_TRUE(model.startFuzzyCMeans(FuzzyCMeansParams{}, true));
    model.clustersSettled({2.0, 1000.0, 950.0});
    EXPECT_EQ(model.clustersChosen(), (std::vector<bool>{true, true, true})) << "a run inside the layer has no air";
    EXPECT_EQ(model.backgroundCluster(), 0);
}

TEST_F(SegmentationModelTest, ClustersGoIntoNewLabelsNeverIntoOnesInUse) {
    // Label 1 holds voxels, label 2 is named but still empty, label 3 was never made: in use are 1 and 2.
    viewer.editLabels([](LabelMap& l) { l.at(1, 1, 1) = 1; }, "paint");
    LabelInfo tumour;
    tumour.value = 2;
    tumour.name = "Tumour";
    viewer.setLabelInfo(tumour);
    model.enterMode(Method::FuzzyCMeans);
    ASSERT_TRUE(model.startFuzzyCMeans(FuzzyCMeansParams{}, false));  // 3 clusters
    model.setClusterChosen(2, false);
    ASSERT_TRUE(model.accept(1)) << "the Accept as label box plays no part for new labels";
    EXPECT_EQ(runner.acceptedLabels[1], 3);
    EXPECT_EQ(runner.acceptedLabels[2], 0);
    EXPECT_EQ(runner.acceptedLabels[3], 4);

    // Into one label: the panel's box, refused when it is locked.
    ASSERT_TRUE(model.startFuzzyCMeans(FuzzyCMeansParams{}, false));
    model.setClusterTarget(ClusterTarget::OneLabel);
    model.setClusterChosen(1, false);
    LabelInfo locked = tumour;
    locked.locked = true;
    viewer.setLabelInfo(locked);
    EXPECT_FALSE(model.accept(2));
    ASSERT_FALSE(messages.empty());
    EXPECT_TRUE(messages.back().contains("locked")) << messages.back().toStdString();
    ASSERT_TRUE(model.accept(7));
    EXPECT_EQ(runner.acceptedLabels[1], 0);
    EXPECT_EQ(runner.acceptedLabels[2], 7);
    EXPECT_EQ(runner.acceptedLabels[3], 7);
    EXPECT_EQ(viewer.activeLabel(), 7);
}

TEST(ClusterTargets, NewLabelsSkipTakenValuesAndCountTheClustersLeftWithout) {
    TakenLabels taken{};
    taken[0] = true;
    for (int v = 1; v < 254; ++v) taken[std::size_t(v)] = true;  // only 254 and 255 are free
    const ClusterLabels to = clusterLabels({true, true, true}, 3, ClusterTarget::NewLabels, 9, taken);
    EXPECT_EQ(to.labelFor[1], 254);
    EXPECT_EQ(to.labelFor[2], 255);
    EXPECT_EQ(to.labelFor[3], 0);
    EXPECT_EQ(to.missing, 1);
    EXPECT_TRUE(to.any());
    EXPECT_FALSE(clusterLabels({false, false}, 2, ClusterTarget::OneLabel, 9, taken).any());
}

TEST_F(SegmentationModelTest, AcceptIsOfferedOnlyForAResultThatHoldsSomething) {
    EXPECT_FALSE(model.canAccept()) << "no run";
    model.enterMode(Method::RegionGrowing);
    click({15, 20, 10});
    ASSERT_TRUE(runner.isActive);
    EXPECT_TRUE(model.canAccept());
    // The interval moved off the seed: the engine refused, the run is finished with 0 voxels.
    runner.resultVoxels = 0;
    EXPECT_FALSE(model.canAccept());
    EXPECT_FALSE(model.accept(1));
    EXPECT_EQ(runner.count("accept"), 0) << "nothing was asked of the run";
    EXPECT_TRUE(runner.isActive) << "the run stays: the interval back over the seed grows again";
    EXPECT_EQ(model.seeds().size(), 1u) << "and its seeds are not used up";
    runner.resultVoxels = 100;
    EXPECT_TRUE(model.canAccept());

    // Fuzzy C-means with every cluster unticked would write nothing either.
    model.enterMode(Method::FuzzyCMeans);
    ASSERT_TRUE(model.startFuzzyCMeans(FuzzyCMeansParams{}, false));  // 3 clusters
    for (int c : {1, 2, 3}) model.setClusterChosen(c, false);
    EXPECT_FALSE(model.canAccept());
    EXPECT_FALSE(model.accept(1));
    EXPECT_EQ(runner.count("accept"), 0);
    model.setClusterChosen(2, true);
    EXPECT_TRUE(model.canAccept());
    ASSERT_TRUE(model.accept(1));
    EXPECT_EQ(runner.acceptedLabels[2], 1) << "the first free label";
    EXPECT_EQ(runner.acceptedLabels[1], 0);
}

TEST_F(SegmentationModelTest, EveryMethodsSettingsSurviveASessionFile) {
    model.enterMode(Method::Snake);
    model.seedTool().setSeeds({{1, 2, 3}, {4, 5, 6}});
    model.setInterval(-120, 340);
    model.setConnectivity(26);
    FuzzyConnectednessParams fc;
    fc.threshold = 0.625;
    fc.objectMean = 55.5;
    fc.diffSigma = 7.25;
    FuzzyCMeansParams fcm;
    fcm.clusters = 5;
    fcm.fuzziness = 2.5;
    fcm.epsilon = 0.01;
    fcm.maxIterations = 77;
    model.startFuzzyConnectedness(fc);
    model.startFuzzyCMeans(fcm, false);
    model.rectangleTool().finished(9, {2, 3, 20, 21});
    model.setPropagate(true);
    model.setBackend(gpu::Backend::Cpu);
    model.setStepsPerFrame(12);
    model.setSnakeDomainMargin(-1);
    model.setSnakeStepMax(7);
    model.setSnakeMinSegment(4);
    model.enterMode(Method::Snake);

    SavedSession saved;
    saved.dataPath = "/data/x.nii";
    saved.grid = volume->geometry();
    saved.segmentation = model.settings();
    const SavedSession back = SessionFile::fromJson(SessionFile::toJson(saved, "/data/x.lucent"), "/data/x.lucent");
    RecordingRunner other;
    SegmentationModel restored(&viewer, &other);
    restored.restoreSettings(back.segmentation);
    EXPECT_EQ(restored.mode(), Method::Snake);
    EXPECT_EQ(restored.lower(), -120);
    EXPECT_EQ(restored.upper(), 340);
    EXPECT_EQ(restored.connectivity(), 26);
    EXPECT_EQ(restored.fuzzyConnectedness().threshold, 0.625);
    EXPECT_EQ(restored.fuzzyConnectedness().objectMean, 55.5);
    EXPECT_FALSE(restored.fuzzyConnectedness().objectSigma.has_value());
    EXPECT_EQ(restored.fuzzyConnectedness().diffSigma, 7.25);
    EXPECT_EQ(restored.fuzzyCMeans().clusters, 5);
    EXPECT_EQ(restored.fuzzyCMeans().fuzziness, 2.5);
    EXPECT_EQ(restored.fuzzyCMeans().epsilon, 0.01);
    EXPECT_EQ(restored.fuzzyCMeans().maxIterations, 77);
    EXPECT_EQ(restored.snake().slice, 9);
    EXPECT_EQ(restored.snake().rect, (std::array<int, 4>{2, 3, 20, 21}));
    EXPECT_TRUE(restored.snake().propagate);
    EXPECT_EQ(restored.snakeDomainMargin(), -1);
    EXPECT_EQ(restored.snake().stepMax, 7);
    EXPECT_EQ(restored.snake().minSegment, 4);
    EXPECT_EQ(restored.backend(), gpu::Backend::Cpu);
    EXPECT_EQ(restored.stepsPerFrame(), 12);
    EXPECT_EQ(other.count("start"), 0) << "restoring starts no run";
}

TEST_F(SegmentationModelTest, ANewVolumeClearsTheSeeds) {
    model.enterMode(Method::RegionGrowing);
    click({15, 20, 10});
    int seedSignals = 0;
    QObject::connect(&model, &SegmentationModel::seedsChanged, [&] { ++seedSignals; });
    viewer.setVolume(phantom(), SeriesInfo{}, "auto");
    EXPECT_TRUE(model.seeds().empty());
    EXPECT_EQ(seedSignals, 1);
}

TEST_F(SegmentationModelTest, AFloatVolumesIntervalKeepsTheSeedItCameFrom) {
    // An MR rescaled to fractions (issue 43's dot): a seed of 116.75 and a run started with the
    // interval [116.75, 300], as the demo starts it. Rounded to whole values the lower bound was 117
    // and left out the seed, so region growing stopped at it.
    Geometry g;
    g.dims = {24, 24, 8};
    auto mr = std::make_shared<Volume>(g, PixelType::Float32);
    for (std::size_t i = 0; i < mr->voxelCount(); ++i) mr->setValue(i, i % 24 < 12 ? 116.75 : 20.5);
    viewer.setVolume(mr, SeriesInfo{}, "auto");
    SegmentationRequest request;
    request.seeds = {{3, 5, 4}};
    request.regionGrowing.lower = 116.75;
    request.regionGrowing.upper = 300;
    ASSERT_TRUE(model.startWith(Method::RegionGrowing, request, false, nullptr));
    EXPECT_EQ(model.intervalDecimals(), 2);
    EXPECT_DOUBLE_EQ(model.lower(), 116.75);
    EXPECT_DOUBLE_EQ(runner.runRequest.regionGrowing.lower, 116.75);
    // A bound between the shown decimals is rounded outward: the values it held stay inside.
    model.setInterval(20.504, 116.7501);
    EXPECT_DOUBLE_EQ(model.lower(), 20.5);
    EXPECT_DOUBLE_EQ(model.upper(), double(116.76f));
    // Integer data keeps whole stored units.
    viewer.setVolume(phantom(), SeriesInfo{}, "auto");
    EXPECT_EQ(model.intervalDecimals(), 0);
    model.setInterval(977.6, 1022.4);
    EXPECT_EQ(model.lower(), 978);
    EXPECT_EQ(model.upper(), 1022);
}

TEST_F(SegmentationModelTest, AcceptPutsTheViewToolDownUntilTheMethodIsChosenAgain) {
    int toolChanges = 0;
    QObject::connect(&model, &SegmentationModel::toolChanged, [&] { ++toolChanges; });
    model.enterMode(Method::RegionGrowing);
    click({15, 20, 10});
    ASSERT_TRUE(model.canAccept());
    // A locked label refuses the accept: the run and the tool stay.
    LabelInfo locked = *viewer.labelTable().find(1);
    locked.locked = true;
    viewer.setLabelInfo(locked);
    EXPECT_FALSE(model.accept(1));
    EXPECT_EQ(model.tool(), &model.seedTool()) << "a refused accept keeps the tool";
    EXPECT_EQ(toolChanges, 0);
    ASSERT_TRUE(model.accept(2));
    EXPECT_EQ(model.tool(), nullptr) << "after Accept a click on a view plants no seed";
    EXPECT_EQ(toolChanges, 1);
    EXPECT_EQ(model.mode(), Method::RegionGrowing) << "the method's page stays";
    model.enterMode(Method::RegionGrowing);  // the menu item or its key again
    EXPECT_EQ(model.tool(), &model.seedTool());
    EXPECT_EQ(toolChanges, 2) << "the same method chosen again arms its tool";

    // The snake's rectangle alike.
    model.enterMode(Method::Snake);
    model.rectangleTool().finished(7, {3, 4, 30, 33});
    ASSERT_TRUE(model.accept(2));
    EXPECT_EQ(model.tool(), nullptr);
    model.enterMode(Method::Snake);
    EXPECT_EQ(model.tool(), &model.rectangleTool());
}
