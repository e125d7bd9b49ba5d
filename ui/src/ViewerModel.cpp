/// @brief Viewer state changes and their signals.
#include "lucent/ui/ViewerModel.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace lucent::ui {

ViewerModel::ViewerModel(QObject* parent) : QObject(parent) {}

void ViewerModel::setVolume(std::shared_ptr<const Volume> volume, const SeriesInfo& info, const QString& preferredPreset) {
    emit volumeAboutToChange();
    m_volume = std::move(volume);
    m_frames.clear();
    m_frame = 0;
    m_series = info;
    m_labels.reset();
    m_lastLabelBox.reset();
    m_changeBoxes.clear();
    m_history.clear();
    m_table = LabelTable();
    m_table.ensure(1);
    m_activeLabel = 1;
    ++m_tableGeneration;
    ++m_volumeGeneration;
    ++m_labelGeneration;
    const auto& d = m_volume->geometry().dims;
    m_cursor = {(d[0] - 1) / 2.0, (d[1] - 1) / 2.0, std::floor((d[2] - 1) / 2.0)};
    // CT presets only make sense in HU: other modalities start from the histogram. Values that are
    // CT's (air near -1000) make a CT even when the file names no modality (a raw or NIfTI head). A
    // CT with no window chosen opens in a CT window, not the histogram's (W 2000+: the brain flat grey).
    const std::string modality = info.modality.empty() ? m_volume->metadata().modality : info.modality;
    const bool ct = modality == "CT" || (modality.empty() && render::valuesLookLikeCt(*m_volume));
    m_isCt = ct;
    m_preset = (ct && !preferredPreset.isEmpty()) ? preferredPreset : QStringLiteral("auto");
    if (ct && m_preset == "auto")
        m_preset = QString::fromStdString(
            render::defaultCtPreset(info.description + " " + info.studyDescription + " " + m_volume->metadata().description));
    // The scan's own window (DICOM Window Center / Width) wins over a remembered preset, as in every
    // PACS viewer; an explicit --preset is applied after this by the app, so it still wins.
    if (!m_volume->metadata().windows.empty()) m_preset = QString::fromStdString(render::fileWindowName(0));
    if (!applyPreset(m_preset)) applyPreset("auto");
    emit volumeChanged();
    emit labelsChanged();
    emit historyChanged();
    emit labelTableChanged();
    emit activeLabelChanged(m_activeLabel);
    emit cursorChanged();
}

bool ViewerModel::setLabels(std::shared_ptr<const LabelMap> labels, const QString& source, QString& error) {
    if (!m_volume) {
        error = "Open a volume before a mask.";
        return false;
    }
    const Geometry& v = m_volume->geometry();
    const Geometry& l = labels->geometry();
    if (l.dims != v.dims) {
        error = QString("%1: the mask is %2 x %3 x %4 voxels, the volume %5 x %6 x %7.")
                    .arg(source).arg(l.dims[0]).arg(l.dims[1]).arg(l.dims[2]).arg(v.dims[0]).arg(v.dims[1]).arg(v.dims[2]);
        return false;
    }
    // Same size but placed elsewhere (origin, spacing or orientation) is a different grid.
    if (!l.sameGrid(v, 0.05 * std::min({v.spacing.x, v.spacing.y, v.spacing.z}))) {
        error = QString("%1: the mask's origin, spacing or orientation differ from the volume's.").arg(source);
        return false;
    }
    // The layer is edited in place (accepted results, undo), so it is the viewer's own copy.
    m_labels = std::make_shared<LabelMap>(*labels);
    m_lastLabelBox.reset();
    m_changeBoxes.clear();
    m_history.clear();
    ++m_labelGeneration;
    addEntriesForLayerValues();
    emit labelsChanged();
    emit historyChanged();
    return true;
}

void ViewerModel::clearLabels() {
    m_labels.reset();
    m_lastLabelBox.reset();
    m_changeBoxes.clear();
    m_history.clear();
    ++m_labelGeneration;
    emit labelsChanged();
    emit historyChanged();
}

bool ViewerModel::closeLabels() {
    const bool any = m_labels && m_labels->count(0) != m_labels->voxelCount();
    if (!any) {
        clearLabels();
        return false;
    }
    return editLabels([](LabelMap& layer) { std::fill(layer.data(), layer.data() + layer.voxelCount(), 0); },
                      "Close labels");
}

LabelMap& ViewerModel::labelLayer() {
    m_readers.waitUntilFree();
    if (!m_labels) m_labels = std::make_shared<LabelMap>(m_volume ? m_volume->geometry() : Geometry{});
    return *m_labels;
}

void ViewerModel::labelsEdited(const VoxelBox* box) {
    if (box) m_lastLabelBox = *box;
    else m_lastLabelBox.reset();
    ++m_labelGeneration;
    // A brush stroke changes the layer at every mouse move, often several times between two
    // frames: the views upload the union of the boxes since their last upload, not the whole layer.
    m_changeBoxes.emplace_back(m_labelGeneration, m_lastLabelBox);
    while (m_changeBoxes.size() > 256) m_changeBoxes.pop_front();
    emit labelsChanged();
    emit historyChanged();
}

std::optional<VoxelBox> ViewerModel::labelChangeSince(int generation) const {
    if (m_changeBoxes.empty() || m_changeBoxes.back().first != m_labelGeneration) return std::nullopt;
    // Every generation after `generation` must be in the list, each with a box.
    std::optional<VoxelBox> box;
    int expected = m_labelGeneration;
    for (auto it = m_changeBoxes.rbegin(); it != m_changeBoxes.rend() && it->first > generation; ++it, --expected) {
        if (it->first != expected || !it->second) return std::nullopt;
        box = merge(box, *it->second);
    }
    if (expected != generation) return std::nullopt;  // older changes were forgotten
    return box;
}

bool ViewerModel::undo() {
    m_readers.waitUntilFree();
    if (!m_labels || !m_history.undo(*m_labels)) return false;
    labelsEdited(nullptr);
    addEntriesForLayerValues();
    return true;
}

bool ViewerModel::redo() {
    m_readers.waitUntilFree();
    if (!m_labels || !m_history.redo(*m_labels)) return false;
    labelsEdited(nullptr);
    addEntriesForLayerValues();
    return true;
}

bool ViewerModel::editLabels(const std::function<void(LabelMap&)>& edit, const std::string& description) {
    if (!m_volume) return false;
    LabelMap& layer = labelLayer();
    const LabelMap before = layer;
    edit(layer);
    if (!m_history.record(before, layer, description)) return false;
    labelsEdited(nullptr);
    return true;
}

void ViewerModel::setLabelInfo(const LabelInfo& info) {
    m_table.set(info);
    ++m_tableGeneration;
    emit labelTableChanged();
}

void ViewerModel::setLabelTable(const LabelTable& table) {
    m_table = table;
    if (m_activeLabel && !m_table.find(m_activeLabel) && !m_table.empty()) setActiveLabel(m_table.labels().front().value);
    ++m_tableGeneration;
    emit labelTableChanged();
}

void ViewerModel::removeLabel(std::uint8_t value) {
    if (!value) return;
    if (m_labels) {
        const std::string name = "Remove " + m_table.nameOf(value);
        editLabels([value](LabelMap& layer) {
            for (std::size_t i = 0; i < layer.voxelCount(); ++i)
                if (layer[i] == value) layer[i] = 0;
        }, name);
    }
    m_table.remove(value);
    ++m_tableGeneration;
    emit labelTableChanged();
    if (m_activeLabel == value) {
        // The next label up, else the last one, else a new Label 1: something always receives results.
        const auto& labels = m_table.labels();
        auto next = std::find_if(labels.begin(), labels.end(), [&](const LabelInfo& l) { return l.value > value; });
        setActiveLabel(next != labels.end() ? next->value : labels.empty() ? std::uint8_t(1) : labels.back().value);
    }
}

std::array<bool, 256> ViewerModel::valuesInLayer() const {
    std::array<bool, 256> present{};
    if (!m_labels) return present;
    const std::array<std::size_t, 256> counts = valueCounts(*m_labels);
    for (std::size_t value = 0; value < 256; ++value) present[value] = counts[value] > 0;
    return present;
}

void ViewerModel::addEntriesForLayerValues() {
    if (!m_labels) return;
    const std::array<bool, 256> present = valuesInLayer();
    bool added = false;
    for (int value = 1; value < 256; ++value)
        if (present[std::size_t(value)] && !m_table.find(std::uint8_t(value))) {
            m_table.ensure(std::uint8_t(value));
            added = true;
        }
    if (!added) return;
    ++m_tableGeneration;
    emit labelTableChanged();
}

void ViewerModel::setActiveLabel(std::uint8_t value) {
    if (!value) return;
    if (!m_table.find(value)) {
        m_table.ensure(value);
        ++m_tableGeneration;
        emit labelTableChanged();
    }
    if (value == m_activeLabel) return;
    m_activeLabel = value;
    emit activeLabelChanged(value);
}

void ViewerModel::setFrames(std::vector<std::shared_ptr<const Volume>> frames) {
    m_frames.clear();
    m_frame = 0;
    if (frames.size() < 2 || !m_volume) return;
    for (const auto& f : frames)
        if (!f || f->geometry().dims != m_volume->geometry().dims) return;  // not one grid: keep the volume alone
    m_frames = std::move(frames);
    m_volume = m_frames.front();
}

void ViewerModel::setFrame(int index) {
    if (m_frames.empty()) return;
    index = std::clamp(index, 0, int(m_frames.size()) - 1);
    if (index == m_frame) return;
    m_frame = index;
    m_volume = m_frames[std::size_t(index)];
    ++m_volumeGeneration;  // the views upload the new voxels
    emit frameChanged();
}

void ViewerModel::setCursor(Vec3 voxel) {
    if (!m_volume) return;
    const auto& d = m_volume->geometry().dims;
    for (int a = 0; a < 3; ++a) voxel[a] = std::clamp(voxel[a], 0.0, double(d[a] - 1));
    if (voxel == m_cursor) return;
    m_cursor = voxel;
    emit cursorChanged();
}

void ViewerModel::moveCursor(int axis, int delta) {
    Vec3 c = m_cursor;
    c[axis] = std::round(c[axis]) + delta;
    setCursor(c);
}

void ViewerModel::setWindow(render::WindowLevel window) {
    window.width = std::max(1e-3, window.width);
    m_window = window;
    emit windowChanged();
}

bool ViewerModel::applyPreset(const QString& name) {
    if (!m_volume) return false;
    const auto w = render::presetWindow(name.toStdString(), *m_volume);
    if (!w) return false;
    m_preset = name;
    setWindow(*w);
    return true;
}

void ViewerModel::setOverlayOpacity(float opacity) {
    opacity = std::clamp(opacity, 0.0f, 1.0f);
    if (opacity == m_opacity) return;
    m_opacity = opacity;
    emit overlayOpacityChanged(m_opacity);
}

void ViewerModel::setLinearInterpolation(bool on) {
    if (on == m_linear) return;
    m_linear = on;
    emit linearInterpolationChanged(on);
}

void ViewerModel::setHudVisible(bool on) {
    if (on == m_hud) return;
    m_hud = on;
    emit hudVisibleChanged(on);
}

void ViewerModel::setPlaneMode(render::PlaneMode mode) {
    if (mode == m_planeMode) return;
    m_planeMode = mode;
    emit planeModeChanged(mode);
}

QString ViewerModel::describeVoxel(Vec3 voxel) const {
    if (!m_volume) return {};
    const Geometry& g = m_volume->geometry();
    const int i = int(std::lround(voxel.x)), j = int(std::lround(voxel.y)), k = int(std::lround(voxel.z));
    if (!g.contains(i, j, k)) return {};
    const Vec3 p = g.voxelToPatient({double(i), double(j), double(k)});
    const double value = m_volume->value(i, j, k);
    const bool ct = m_isCt;  // HU: a CT by its modality or by its values
    // "i,j,k" as `lucent segment --seed i,j,k` takes it: one index convention, copied as it reads;
    // then the slice as the views and the seed list number it, from 1 (issue 43 item 8: the view
    // said "slice 54 / 108" where this said 53).
    QString text = QString("voxel %1,%2,%3 (slice %4)   |   %5, %6, %7 mm (LPS)   |   %8%9")
                       .arg(i).arg(j).arg(k).arg(k + 1)
                       .arg(p.x, 0, 'f', 1).arg(p.y, 0, 'f', 1).arg(p.z, 0, 'f', 1)
                       .arg(value, 0, 'g', 6).arg(ct ? " HU" : "");
    if (m_labels) text += QString("   |   label %1").arg((*m_labels)[g.index(i, j, k)]);
    return text;
}

QString ViewerModel::sliceFile(int k) const {
    if (!m_volume) return {};
    const auto& files = m_volume->metadata().sliceFiles;
    return k >= 0 && k < int(files.size()) ? QString::fromStdString(files[k]) : QString();
}

}  // namespace lucent::ui
