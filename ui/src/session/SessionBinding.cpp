/// @brief Session capture from the model, the view grid and the window's parts, and its restore.
#include "lucent/ui/SessionBinding.h"

#include "lucent/core/GridMatch.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <algorithm>
#include <cmath>

namespace lucent::ui {

namespace {

constexpr render::Orientation kOrientations[] = {render::Orientation::Axial, render::Orientation::Coronal,
                                                 render::Orientation::Sagittal};

/// Patient -> voxel goes through an inverse matrix: indices that were whole come back a few ulps
/// off, and a slice index must stay the slice it was.
Vec3 snapToWhole(Vec3 v) {
    for (int a = 0; a < 3; ++a)
        if (std::abs(v[a] - std::round(v[a])) < 1e-6) v[a] = std::round(v[a]);
    return v;
}

}  // namespace

SessionBinding::SessionBinding(ViewerModel& model, ViewGrid* views, SessionParts parts)
    : m_model(model), m_views(views), m_parts(std::move(parts)) {}

SavedSession SessionBinding::capture(const QString& dataPath, bool withLabels) const {
    const Geometry& grid = m_model.volume()->geometry();
    SavedSession s;
    s.dataPath = dataPath;
    // DICOM: which series of the folder. A volume file's id is its own path: nothing to choose,
    // and an absolute path would outlive a moved folder.
    const QString id = QString::fromStdString(m_model.series().id);
    if (id != s.dataPath) s.seriesId = id;
    s.grid = grid;
    s.frame = m_model.frame();
    s.window = m_model.window();
    s.preset = m_model.preset();
    s.linearInterpolation = m_model.linearInterpolation();
    s.hud = m_model.hudVisible();
    s.anatomicalPlanes = m_model.planeMode() == render::PlaneMode::Patient;
    s.overlayOpacity = m_model.overlayOpacity();
    s.cursorPatient = grid.voxelToPatient(m_model.cursor());
    if (m_views) captureViews(s);
    if (withLabels && m_model.labels()) s.labels = *m_model.labels();
    s.labelTable = m_model.labelTable();
    s.activeLabel = m_model.activeLabel();
    if (m_parts.segmentSettings) s.segmentation = m_parts.segmentSettings();
    if (m_parts.measurements) s.measurements = m_parts.measurements();
    if (m_parts.panels) s.panels = m_parts.panels();
    return s;
}

void SessionBinding::captureViews(SavedSession& s) const {
    const ViewGrid& views = *m_views;
    s.layout = layoutName(views.layoutMode());
    s.activeView =
        render::orientationName(views.activeView() ? views.activeView()->orientation() : render::Orientation::Axial);
    s.maximised = views.maximised();
    for (std::size_t i = 0; i < 3; ++i) {
        const SliceViewWidget* v = views.view(kOrientations[i]);
        s.views[i] = {v->view().zoom(), v->view().panMm(), std::nullopt};
    }
}

QString SessionBinding::gridProblem(const SavedSession& state, const Geometry& grid, const QString& source) {
    // The one "same voxels" tolerance: labels, cursor and measurements are placed without resampling.
    if (grid.dims == state.grid.dims && grid.sameGrid(state.grid, sameVoxelsToleranceMm(state.grid))) return {};
    return QString(
               "%1: the data %2 is no longer on the grid the session was saved on (%3); its labels and "
               "measurements would land on other voxels. The session was not opened.")
        .arg(source, state.dataPath, QString::fromStdString(describeGridDifference(grid, state.grid)));
}

QStringList SessionBinding::apply(const SavedSession& s, const QString& source) const {
    QStringList warnings;
    if (s.frame >= m_model.frameCount())
        warnings << QString("%1: frame %2 is not in the data (%3 frames)")
                        .arg(source)
                        .arg(s.frame + 1)
                        .arg(m_model.frameCount());
    m_model.setFrame(s.frame);
    if (m_views) applyViewArrangement(s);
    applyDisplay(s, source, warnings);
    applyLabels(s, source, warnings);
    applyParts(s, source, warnings);
    // Last: arranging the layout and the volume's arrival reset nothing after this.
    if (m_views) applyZoomPan(s);
    return warnings;
}

void SessionBinding::applyViewArrangement(const SavedSession& s) const {
    ViewGrid& views = *m_views;
    for (render::Orientation o : kOrientations)
        if (s.activeView == render::orientationName(o)) views.setActiveView(views.view(o));
    Layout layout = Layout::Grid2x2;
    parseLayout(s.layout, layout);
    views.setLayoutMode(layout);
    if (s.maximised != views.maximised()) views.toggleMaximised();
}

void SessionBinding::applyDisplay(const SavedSession& s, const QString& source, QStringList& warnings) const {
    m_model.setLinearInterpolation(s.linearInterpolation);
    m_model.setHudVisible(s.hud);
    // A session saved without the toggle shows the volume's own planes, as it was saved.
    m_model.setPlaneMode(s.anatomicalPlanes.value_or(false) ? render::PlaneMode::Patient : render::PlaneMode::Volume);
    // The named window first (so the Window/Level menu checks it), then the window as it was left
    // (a right-drag moves it off the preset).
    if (!s.preset.isEmpty() && !m_model.applyPreset(s.preset))
        warnings << QString("%1: the window '%2' does not exist for this volume").arg(source, s.preset);
    m_model.setWindow(s.window);
    m_model.setOverlayOpacity(s.overlayOpacity);
    m_model.setCursor(snapToWhole(m_model.volume()->geometry().patientToVoxel(s.cursorPatient)));
}

void SessionBinding::applyLabels(const SavedSession& s, const QString& source, QStringList& warnings) const {
    if (s.labels) {
        auto labels = std::make_shared<LabelMap>(m_model.volume()->geometry());
        std::copy(s.labels->data(), s.labels->data() + labels->voxelCount(), labels->data());
        QString error;
        if (!m_model.setLabels(labels, source, error)) warnings << error;
    }
    m_model.setLabelTable(s.labelTable);
    m_model.setActiveLabel(s.activeLabel);
}

void SessionBinding::applyParts(const SavedSession& s, const QString& source, QStringList& warnings) const {
    if (m_parts.restoreSegmentSettings) {
        const Geometry& grid = m_model.volume()->geometry();
        SegmentSettings segmentation = s.segmentation;
        auto& seeds = segmentation.request.seeds;
        const auto outside = std::remove_if(seeds.begin(), seeds.end(),
                                            [&](const VoxelIndex& v) { return !grid.contains(v.i, v.j, v.k); });
        if (outside != seeds.end())
            warnings
                << QString("%1: %2 seed(s) outside the volume were left out").arg(source).arg(seeds.end() - outside);
        seeds.erase(outside, seeds.end());
        m_parts.restoreSegmentSettings(segmentation);
    }
    if (m_parts.addMeasurement)
        for (const Measurement& m : s.measurements) {
            try {
                m_parts.addMeasurement(m);
            } catch (const std::exception& e) {
                warnings << QString("%1: a %2 was left out (%3)").arg(source, measurementKindName(m.kind), e.what());
            }
        }
    // The panels as they were (the Segment panel shows itself for its method): the views' size.
    if (m_parts.restorePanels && !s.panels.isEmpty() && !m_parts.restorePanels(s.panels))
        warnings << QString("%1: the panels' arrangement was not restored (another Qt version?)").arg(source);
}

void SessionBinding::applyZoomPan(const SavedSession& s) const {
    for (std::size_t i = 0; i < 3; ++i) {
        SliceViewWidget* v = m_views->view(kOrientations[i]);
        if (s.views[i].panPixels)
            v->setZoomPan(s.views[i].zoom, *s.views[i].panPixels);
        else
            v->setZoomPanMm(s.views[i].zoom, s.views[i].panMm);
    }
    m_views->updateViews();
}

}  // namespace lucent::ui
