/// @brief The viewer's state without widgets: volume, labels, linked cursor, window/level, opacity.
#pragma once

#include "lucent/core/LabelHistory.h"
#include "lucent/core/LabelMap.h"
#include "lucent/core/SeriesInfo.h"
#include "lucent/core/Volume.h"
#include "lucent/core/seg/SegmentationRequest.h"
#include "lucent/render/WindowLevel.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace lucent::ui {

class ViewerModel : public QObject {
    Q_OBJECT
public:
    explicit ViewerModel(QObject* parent = nullptr);

    /// Takes the volume; resets the cursor to the centre, labels to none, the window to the
    /// remembered preset when it suits the modality (CT presets for CT), else auto.
    void setVolume(std::shared_ptr<const Volume> volume, const SeriesInfo& info, const QString& preferredPreset);
    std::shared_ptr<const Volume> volume() const { return m_volume; }
    const SeriesInfo& series() const { return m_series; }
    bool hasVolume() const { return m_volume != nullptr; }
    /// Increases whenever the voxels change, so views know to upload again.
    int volumeGeneration() const { return m_volumeGeneration; }

    /// Shows `labels` over the volume; false and `error` when its grid differs from the volume's.
    bool setLabels(std::shared_ptr<const LabelMap> labels, const QString& source, QString& error);
    void clearLabels();
    std::shared_ptr<const LabelMap> labels() const { return m_labels; }
    int labelGeneration() const { return m_labelGeneration; }

    /// The label layer accepted results and edits go into (made empty on the volume's grid the
    /// first time); call labelsEdited() after changing it.
    LabelMap& labelLayer();
    /// Tells the views that `box` of the layer changed (all when null): they upload only that box.
    void labelsEdited(const VoxelBox* box);
    /// The box of the change that made the current generation from the previous one, when known.
    std::optional<VoxelBox> lastLabelChange() const { return m_lastLabelBox; }
    /// Undo / redo of accepted results and edits (run-length deltas); cleared with a new volume or mask.
    LabelHistory& history() { return m_history; }
    bool undo();
    bool redo();

    Vec3 cursor() const { return m_cursor; }
    /// Clamped to the volume.
    void setCursor(Vec3 voxel);
    /// Moves the cursor by `delta` slices along volume axis `axis`.
    void moveCursor(int axis, int delta);

    render::WindowLevel window() const { return m_window; }
    void setWindow(render::WindowLevel window);
    /// Applies a preset by name ("lung", ..., "auto"); false for an unknown name.
    bool applyPreset(const QString& name);
    QString preset() const { return m_preset; }

    float overlayOpacity() const { return m_opacity; }
    void setOverlayOpacity(float opacity);

    /// "i j k | x y z mm | value HU" for the status bar; empty outside the volume.
    QString describeVoxel(Vec3 voxel) const;
    /// The DICOM file holding slice k (empty for volume files and filled gaps).
    QString sliceFile(int k) const;

signals:
    void volumeChanged();
    void labelsChanged();
    void cursorChanged();
    void windowChanged();
    /// The undo history changed (texts of Undo / Redo to refresh).
    void historyChanged();

private:
    std::shared_ptr<const Volume> m_volume;
    std::shared_ptr<LabelMap> m_labels;
    std::optional<VoxelBox> m_lastLabelBox;
    LabelHistory m_history;
    SeriesInfo m_series;
    int m_volumeGeneration = 0, m_labelGeneration = 0;
    Vec3 m_cursor;
    render::WindowLevel m_window;
    QString m_preset = "auto";
    float m_opacity = 0.5f;
};

}  // namespace lucent::ui
