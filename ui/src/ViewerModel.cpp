/// @brief Viewer state changes and their signals.
#include "lucent/ui/ViewerModel.h"

#include <algorithm>
#include <cmath>

namespace lucent::ui {

ViewerModel::ViewerModel(QObject* parent) : QObject(parent) {}

void ViewerModel::setVolume(std::shared_ptr<const Volume> volume, const SeriesInfo& info, const QString& preferredPreset) {
    m_volume = std::move(volume);
    m_series = info;
    m_labels.reset();
    m_lastLabelBox.reset();
    m_history.clear();
    ++m_volumeGeneration;
    ++m_labelGeneration;
    const auto& d = m_volume->geometry().dims;
    m_cursor = {(d[0] - 1) / 2.0, (d[1] - 1) / 2.0, std::floor((d[2] - 1) / 2.0)};
    // CT presets only make sense in HU: other modalities start from the histogram.
    const bool ct = m_volume->metadata().modality == "CT" || info.modality == "CT";
    m_preset = (ct && !preferredPreset.isEmpty()) ? preferredPreset : QStringLiteral("auto");
    if (!applyPreset(m_preset)) applyPreset("auto");
    emit volumeChanged();
    emit labelsChanged();
    emit historyChanged();
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
    m_history.clear();
    ++m_labelGeneration;
    emit labelsChanged();
    emit historyChanged();
    return true;
}

void ViewerModel::clearLabels() {
    m_labels.reset();
    m_lastLabelBox.reset();
    m_history.clear();
    ++m_labelGeneration;
    emit labelsChanged();
    emit historyChanged();
}

LabelMap& ViewerModel::labelLayer() {
    if (!m_labels) m_labels = std::make_shared<LabelMap>(m_volume ? m_volume->geometry() : Geometry{});
    return *m_labels;
}

void ViewerModel::labelsEdited(const VoxelBox* box) {
    if (box) m_lastLabelBox = *box;
    else m_lastLabelBox.reset();
    ++m_labelGeneration;
    emit labelsChanged();
    emit historyChanged();
}

bool ViewerModel::undo() {
    if (!m_labels || !m_history.undo(*m_labels)) return false;
    labelsEdited(nullptr);
    return true;
}

bool ViewerModel::redo() {
    if (!m_labels || !m_history.redo(*m_labels)) return false;
    labelsEdited(nullptr);
    return true;
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
    m_opacity = std::clamp(opacity, 0.0f, 1.0f);
    emit windowChanged();
}

QString ViewerModel::describeVoxel(Vec3 voxel) const {
    if (!m_volume) return {};
    const Geometry& g = m_volume->geometry();
    const int i = int(std::lround(voxel.x)), j = int(std::lround(voxel.y)), k = int(std::lround(voxel.z));
    if (!g.contains(i, j, k)) return {};
    const Vec3 p = g.voxelToPatient({double(i), double(j), double(k)});
    const double value = m_volume->value(i, j, k);
    const bool ct = m_volume->metadata().modality == "CT";
    QString text = QString("voxel %1, %2, %3   |   %4, %5, %6 mm (LPS)   |   %7%8")
                       .arg(i).arg(j).arg(k)
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
