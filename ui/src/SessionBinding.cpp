/// @brief Session capture from the window's model, panels, grid and View actions, and its restore.
#include "lucent/ui/SessionBinding.h"

#include "lucent/core/GridMatch.h"
#include "lucent/ui/LabelPanel.h"
#include "lucent/ui/MainWindow.h"
#include "lucent/ui/MeasurementPanel.h"
#include "lucent/ui/SegmentPanel.h"

#include <QAction>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace lucent::ui {

namespace {

constexpr render::Orientation kOrientations[] = {render::Orientation::Axial, render::Orientation::Coronal,
                                                 render::Orientation::Sagittal};

/// A View menu toggle by object name, set to `on` through trigger() so that its handler runs.
void setToggle(MainWindow& window, const char* name, bool on) {
    if (QAction* a = window.findChild<QAction*>(name); a && a->isCheckable() && a->isChecked() != on) a->trigger();
}

bool toggleState(MainWindow& window, const char* name, bool fallback) {
    const QAction* a = window.findChild<QAction*>(name);
    return a ? a->isChecked() : fallback;
}

/// Patient -> voxel goes through an inverse matrix: indices that were whole come back a few ulps
/// off, and a slice index must stay the slice it was.
Vec3 snapToWhole(Vec3 v) {
    for (int a = 0; a < 3; ++a)
        if (std::abs(v[a] - std::round(v[a])) < 1e-6) v[a] = std::round(v[a]);
    return v;
}

}  // namespace

SavedSession SessionBinding::capture(MainWindow& window) {
    ViewerModel& model = window.model();
    const Geometry& grid = model.volume()->geometry();
    SavedSession s;
    s.dataPath = window.currentPath();
    // DICOM: which series of the folder. A volume file's id is its own path: nothing to choose,
    // and an absolute path would outlive a moved folder.
    const QString id = QString::fromStdString(model.series().id);
    if (id != s.dataPath) s.seriesId = id;
    s.grid = grid;
    s.frame = model.frame();
    s.window = model.window();
    s.preset = model.preset();
    ViewGrid& views = window.grid();
    s.layout = layoutName(views.layoutMode());
    s.activeView =
        render::orientationName(views.activeView() ? views.activeView()->orientation() : render::Orientation::Axial);
    s.maximised = views.maximised();
    s.linearInterpolation = toggleState(window, "linearInterpolation", false);
    s.hud = toggleState(window, "hudToggle", true);
    if (window.findChild<QAction*>("anatomicalPlanes"))
        s.anatomicalPlanes = toggleState(window, "anatomicalPlanes", false);
    s.overlayOpacity = model.overlayOpacity();
    s.cursorPatient = grid.voxelToPatient(model.cursor());
    for (std::size_t i = 0; i < 3; ++i) {
        const SliceViewWidget* v = views.view(kOrientations[i]);
        s.views[i] = {v->view().zoom(), v->view().panMm(), std::nullopt};
    }
    s.panels = window.saveState();
    if (model.labels()) s.labels = *model.labels();
    s.labelTable = model.labelTable();
    s.activeLabel = model.activeLabel();
    s.segmentation = window.segment().settings();
    s.measurements = window.measurementPanel().measurements().all();
    return s;
}

QString SessionBinding::gridProblem(const SavedSession& state, const Geometry& grid, const QString& source) {
    // The one "same voxels" tolerance: labels, cursor and measurements are placed without resampling.
    if (grid.dims == state.grid.dims && grid.sameGrid(state.grid, sameVoxelsToleranceMm(state.grid))) return {};
    return QString(
               "%1: the data %2 is no longer on the grid the session was saved on (%3); its labels and "
               "measurements would land on other voxels. The session was not opened.")
        .arg(source, state.dataPath, QString::fromStdString(describeGridDifference(grid, state.grid)));
}

QStringList SessionBinding::apply(MainWindow& window, const SavedSession& s, const QString& source) {
    QStringList warnings;
    ViewerModel& model = window.model();
    const Geometry& grid = model.volume()->geometry();
    if (s.frame >= model.frameCount())
        warnings << QString("%1: frame %2 is not in the data (%3 frames)")
                        .arg(source)
                        .arg(s.frame + 1)
                        .arg(model.frameCount());
    model.setFrame(s.frame);

    ViewGrid& views = window.grid();
    for (render::Orientation o : kOrientations)
        if (s.activeView == render::orientationName(o)) views.setActiveView(views.view(o));
    Layout layout = Layout::Grid2x2;
    parseLayout(s.layout, layout);
    window.setLayoutMode(layout);
    if (s.maximised != views.maximised()) views.toggleMaximised();
    setToggle(window, "linearInterpolation", s.linearInterpolation);
    setToggle(window, "hudToggle", s.hud);
    // A session saved without the toggle shows the volume's own planes, as it was saved.
    setToggle(window, "anatomicalPlanes", s.anatomicalPlanes.value_or(false));

    // The named window first (so the Window/Level menu checks it), then the window as it was left
    // (a right-drag moves it off the preset).
    if (!s.preset.isEmpty() && !model.applyPreset(s.preset))
        warnings << QString("%1: the window '%2' does not exist for this volume").arg(source, s.preset);
    model.setWindow(s.window);
    if (auto* opacity = window.findChild<QSlider*>("opacitySlider"))
        opacity->setValue(int(std::lround(s.overlayOpacity * 100)));
    model.setOverlayOpacity(s.overlayOpacity);
    model.setCursor(snapToWhole(grid.patientToVoxel(s.cursorPatient)));

    if (s.labels) {
        auto labels = std::make_shared<LabelMap>(grid);
        std::copy(s.labels->data(), s.labels->data() + labels->voxelCount(), labels->data());
        QString error;
        if (!model.setLabels(labels, source, error)) warnings << error;
    }
    model.setLabelTable(s.labelTable);
    model.setActiveLabel(s.activeLabel);

    SegmentSettings segmentation = s.segmentation;
    auto& seeds = segmentation.request.seeds;
    const auto outside =
        std::remove_if(seeds.begin(), seeds.end(), [&](const VoxelIndex& v) { return !grid.contains(v.i, v.j, v.k); });
    if (outside != seeds.end())
        warnings << QString("%1: %2 seed(s) outside the volume were left out").arg(source).arg(seeds.end() - outside);
    seeds.erase(outside, seeds.end());
    window.segment().restoreSettings(segmentation);

    for (const Measurement& m : s.measurements) {
        try {
            window.measurementPanel().add(m);
        } catch (const std::exception& e) {
            warnings << QString("%1: a %2 was left out (%3)").arg(source, measurementKindName(m.kind), e.what());
        }
    }
    // The panels as they were (the Segment panel shows itself for its method): the views' size.
    if (!s.panels.isEmpty() && !window.restoreState(s.panels))
        warnings << QString("%1: the panels' arrangement was not restored (another Qt version?)").arg(source);
    // Last: arranging the layout and the volume's arrival reset nothing after this.
    for (std::size_t i = 0; i < 3; ++i) {
        SliceViewWidget* v = views.view(kOrientations[i]);
        if (s.views[i].panPixels)
            v->setZoomPan(s.views[i].zoom, *s.views[i].panPixels);
        else
            v->setZoomPanMm(s.views[i].zoom, s.views[i].panMm);
    }
    views.updateViews();
    return warnings;
}

}  // namespace lucent::ui
