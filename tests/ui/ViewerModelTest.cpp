/// @brief The viewer's models without a display: ViewerModel's drawing settings (interpolation, HUD,
/// plane mode, overlay opacity: set, one signal per change, none when unchanged) and a session
/// captured from one model and applied to another through SessionBinding alone.
#include "lucent/ui/SessionBinding.h"
#include "lucent/ui/ViewerModel.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

using namespace lucent;
using namespace lucent::ui;

namespace {

/// Every value a signal carried, in order.
template <class T>
struct Recorder {
    std::vector<T> values;
    void operator()(T v) { values.push_back(v); }
};

std::shared_ptr<const Volume> smallVolume() {
    Geometry g;
    g.dims = {6, 5, 4};
    g.spacing = {0.8, 0.8, 2.0};
    g.origin = {-10.0, 20.0, 5.0};
    auto v = std::make_shared<Volume>(g, PixelType::Int16);
    for (std::size_t i = 0; i < v->voxelCount(); ++i) v->setValue(i, double(i % 17) * 10.0 - 40.0);
    return v;
}

/// A model holding smallVolume(), as after opening a file.
std::unique_ptr<ViewerModel> loadedModel() {
    auto model = std::make_unique<ViewerModel>();
    SeriesInfo info;
    info.id = "/data/small.nii";
    model->setVolume(smallVolume(), info, "auto");
    return model;
}

}  // namespace

TEST(ViewerModelViewSettings, StartAsADefaultSessionHasThem) {
    ViewerModel model;
    const SavedSession defaults;
    EXPECT_EQ(model.linearInterpolation(), defaults.linearInterpolation);
    EXPECT_EQ(model.hudVisible(), defaults.hud);
    EXPECT_EQ(model.planeMode(), render::PlaneMode::Volume);  // a session without the toggle: volume planes
    EXPECT_FLOAT_EQ(model.overlayOpacity(), defaults.overlayOpacity);
}

TEST(ViewerModelViewSettings, LinearInterpolationSignalsOncePerChange) {
    ViewerModel model;
    Recorder<bool> seen;
    QObject::connect(&model, &ViewerModel::linearInterpolationChanged, [&](bool on) { seen(on); });
    EXPECT_TRUE(model.linearInterpolation()) << "smooth by default";
    model.setLinearInterpolation(false);
    EXPECT_FALSE(model.linearInterpolation());
    model.setLinearInterpolation(false);  // unchanged: silent
    model.setLinearInterpolation(true);
    EXPECT_TRUE(model.linearInterpolation());
    EXPECT_EQ(seen.values, (std::vector<bool>{false, true}));
}

TEST(ViewerModelViewSettings, HudVisibleSignalsOncePerChange) {
    ViewerModel model;
    Recorder<bool> seen;
    QObject::connect(&model, &ViewerModel::hudVisibleChanged, [&](bool on) { seen(on); });
    model.setHudVisible(true);  // already shown: silent
    model.setHudVisible(false);
    EXPECT_FALSE(model.hudVisible());
    model.setHudVisible(false);
    model.setHudVisible(true);
    EXPECT_TRUE(model.hudVisible());
    EXPECT_EQ(seen.values, (std::vector<bool>{false, true}));
}

TEST(ViewerModelViewSettings, PlaneModeSignalsOncePerChange) {
    ViewerModel model;
    Recorder<render::PlaneMode> seen;
    QObject::connect(&model, &ViewerModel::planeModeChanged, [&](render::PlaneMode m) { seen(m); });
    model.setPlaneMode(render::PlaneMode::Volume);  // already: silent
    model.setPlaneMode(render::PlaneMode::Patient);
    EXPECT_EQ(model.planeMode(), render::PlaneMode::Patient);
    model.setPlaneMode(render::PlaneMode::Patient);
    model.setPlaneMode(render::PlaneMode::Volume);
    EXPECT_EQ(seen.values, (std::vector<render::PlaneMode>{render::PlaneMode::Patient, render::PlaneMode::Volume}));
}

TEST(ViewerModelViewSettings, OverlayOpacityIsClampedAndSignalsOncePerChange) {
    ViewerModel model;
    Recorder<float> seen;
    QObject::connect(&model, &ViewerModel::overlayOpacityChanged, [&](float o) { seen(o); });
    model.setOverlayOpacity(0.25f);
    model.setOverlayOpacity(0.25f);  // unchanged: silent
    model.setOverlayOpacity(1.7f);   // clamped to 1
    EXPECT_FLOAT_EQ(model.overlayOpacity(), 1.0f);
    model.setOverlayOpacity(2.0f);  // clamps to the 1 it has: silent
    model.setOverlayOpacity(-3.0f);
    EXPECT_FLOAT_EQ(model.overlayOpacity(), 0.0f);
    EXPECT_EQ(seen.values, (std::vector<float>{0.25f, 1.0f, 0.0f}));
}

TEST(ViewerModelViewSettings, OpacityDoesNotPassForAWindowChange) {
    // The Window/Level menu re-checks its entries on windowChanged(): opacity is another property.
    ViewerModel model;
    int windows = 0;
    QObject::connect(&model, &ViewerModel::windowChanged, [&] { ++windows; });
    model.setOverlayOpacity(0.8f);
    EXPECT_EQ(windows, 0);
}

TEST(SessionBindingModels, CapturesTheDrawingSettingsFromTheModel) {
    auto model = loadedModel();
    model->setLinearInterpolation(false);
    model->setHudVisible(false);
    model->setPlaneMode(render::PlaneMode::Patient);
    model->setOverlayOpacity(0.3f);
    const SavedSession s = SessionBinding(*model).capture("/data/small.nii");
    EXPECT_FALSE(s.linearInterpolation);
    EXPECT_FALSE(s.hud);
    ASSERT_TRUE(s.anatomicalPlanes.has_value());
    EXPECT_TRUE(*s.anatomicalPlanes);
    EXPECT_FLOAT_EQ(s.overlayOpacity, 0.3f);
    EXPECT_EQ(s.dataPath, "/data/small.nii");
    EXPECT_TRUE(s.seriesId.isEmpty());  // a volume file's id is its path: nothing to choose
}

TEST(SessionBindingModels, RoundTripOfDrawingSettingsThroughTwoModels) {
    auto saved = loadedModel();
    saved->setLinearInterpolation(false);
    saved->setHudVisible(false);
    saved->setPlaneMode(render::PlaneMode::Patient);
    saved->setOverlayOpacity(0.3f);
    const SavedSession s = SessionBinding(*saved).capture("/data/small.nii");

    auto restored = loadedModel();
    int changes = 0;
    for (auto signal : {&ViewerModel::linearInterpolationChanged, &ViewerModel::hudVisibleChanged})
        QObject::connect(restored.get(), signal, [&](bool) { ++changes; });
    QObject::connect(restored.get(), &ViewerModel::planeModeChanged, [&](render::PlaneMode) { ++changes; });
    QObject::connect(restored.get(), &ViewerModel::overlayOpacityChanged, [&](float) { ++changes; });
    EXPECT_TRUE(SessionBinding(*restored).apply(s, "test.lucent").isEmpty());
    EXPECT_FALSE(restored->linearInterpolation());
    EXPECT_FALSE(restored->hudVisible());
    EXPECT_EQ(restored->planeMode(), render::PlaneMode::Patient);
    EXPECT_FLOAT_EQ(restored->overlayOpacity(), 0.3f);
    EXPECT_EQ(changes, 4);  // each setting changed once
    EXPECT_EQ(restored->cursor(), saved->cursor());
}

TEST(SessionBindingModels, ApplyPutsDefaultSettingsBackToo) {
    // A session saved with the defaults turns a model's other settings back to them.
    auto model = loadedModel();
    const SavedSession s = SessionBinding(*model).capture("/data/small.nii");
    model->setLinearInterpolation(false);
    model->setHudVisible(false);
    model->setPlaneMode(render::PlaneMode::Patient);
    model->setOverlayOpacity(0.9f);
    SessionBinding(*model).apply(s, "test.lucent");
    EXPECT_TRUE(model->linearInterpolation());
    EXPECT_TRUE(model->hudVisible());
    EXPECT_EQ(model->planeMode(), render::PlaneMode::Volume);
    EXPECT_FLOAT_EQ(model->overlayOpacity(), 0.5f);
}

TEST(SessionBindingModels, ASessionWithoutThePlaneToggleShowsVolumePlanes) {
    auto model = loadedModel();
    SavedSession s = SessionBinding(*model).capture("/data/small.nii");
    s.anatomicalPlanes.reset();  // written by a build without the toggle
    model->setPlaneMode(render::PlaneMode::Patient);
    SessionBinding(*model).apply(s, "old.lucent");
    EXPECT_EQ(model->planeMode(), render::PlaneMode::Volume);
}

namespace {

/// 20 x 20 x 10: air (-1000) around a head-like block of `inside` (HU-like values, or not).
std::shared_ptr<Volume> airAround(double air, double inside, const std::string& description) {
    Geometry g;
    g.dims = {20, 20, 10};
    auto v = std::make_shared<Volume>(g, PixelType::Int16);
    for (int k = 0; k < 10; ++k)
        for (int j = 0; j < 20; ++j)
            for (int i = 0; i < 20; ++i) v->setValue(g.index(i, j, k), (i > 4 && i < 15 && j > 4 && j < 15) ? inside : air);
    v->metadata().description = description;
    return v;
}

QString presetAfterOpening(std::shared_ptr<Volume> v, const QString& remembered) {
    ViewerModel model;
    model.setVolume(std::move(v), SeriesInfo{}, remembered);  // the file names no modality
    return model.preset();
}

}  // namespace

TEST(ViewerModelWindow, ValuesOfCtOpenInACtWindowEvenWithoutAModality) {
    // Air at -1000 HU: a CT, whatever the file says. A head (by its name) opens in the brain window,
    // anything else in a soft-tissue one; the user's remembered preset wins over both.
    EXPECT_EQ(presetAfterOpening(airAround(-1000, 40, "cranium.mhd"), "auto"), "brain");
    EXPECT_EQ(presetAfterOpening(airAround(-1024, 40, "chest_ct.nii.gz"), "auto"), "abdomen");
    EXPECT_EQ(presetAfterOpening(airAround(-1000, 40, "cranium.mhd"), "lung"), "lung");
    // MR-like values (never near -1000) keep the histogram's window.
    EXPECT_EQ(presetAfterOpening(airAround(0, 400, "brain_t1.nii.gz"), "auto"), "auto");
    EXPECT_EQ(presetAfterOpening(airAround(0, 400, "brain_t1.nii.gz"), "lung"), "auto") << "CT presets need HU";
    ViewerModel model;
    model.setVolume(airAround(-1000, 40, "head"), SeriesInfo{}, "auto");
    EXPECT_EQ(model.window().width, 80);
    EXPECT_EQ(model.window().level, 40);
}
