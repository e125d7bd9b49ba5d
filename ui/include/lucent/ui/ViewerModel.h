/// @brief The viewer's state without widgets: volume, labels, linked cursor, window/level, opacity,
/// and how the views draw (interpolation, HUD, plane mode), which menus and sessions bind to.
#pragma once

#include "lucent/core/LabelHistory.h"
#include "lucent/core/LabelMap.h"
#include "lucent/core/LabelTable.h"
#include "lucent/core/SeriesInfo.h"
#include "lucent/core/Volume.h"
#include "lucent/core/seg/SegmentationRequest.h"
#include "lucent/render/SliceViewGeometry.h"
#include "lucent/render/WindowLevel.h"
#include "lucent/ui/LayerReaders.h"

#include <QObject>
#include <QString>

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lucent::ui {

class ViewerModel : public QObject {
    Q_OBJECT
public:
    explicit ViewerModel(QObject* parent = nullptr);

    /// What an action that needs a volume says when none is open (menus, panels, tools, status bar).
    static constexpr const char* noVolumeMessage = "Open a volume first.";

    /// Takes the volume; resets the cursor to the centre, labels to none, the window to the scan's
    /// own first window when it has one ("file1"), else the remembered preset when it suits the
    /// modality (CT presets for CT), else auto.
    void setVolume(std::shared_ptr<const Volume> volume, const SeriesInfo& info, const QString& preferredPreset);
    std::shared_ptr<const Volume> volume() const { return m_volume; }
    const SeriesInfo& series() const { return m_series; }
    bool hasVolume() const { return m_volume != nullptr; }
    /// The volume is a CT (its modality, or its values when the file names none): its values are HU.
    bool isCt() const { return m_isCt; }
    /// A 4D file's volumes on one grid, frame 0 being the volume just set (call after setVolume,
    /// which forgets the frames of the previous volume). Empty or one: a single volume.
    void setFrames(std::vector<std::shared_ptr<const Volume>> frames);
    int frameCount() const { return m_frames.empty() ? 1 : int(m_frames.size()); }
    int frame() const { return m_frame; }
    /// Shows frame `index` (clamped): only the voxels change; cursor, labels and window stay.
    void setFrame(int index);
    /// Increases whenever the voxels change, so views know to upload again.
    int volumeGeneration() const { return m_volumeGeneration; }

    /// Shows `labels` over the volume; false and `error` when its grid differs from the volume's.
    bool setLabels(std::shared_ptr<const LabelMap> labels, const QString& source, QString& error);
    /// Drops the layer and its undo history (a new mask or volume replaces them).
    void clearLabels();
    /// File > Close labels: clears every voxel as one undoable step ("Close labels") when the layer
    /// holds any; the table stays, so undo brings the voxels back with their names and colours. An
    /// empty layer (or none) is dropped as clearLabels() does. True when a step was recorded.
    bool closeLabels();
    std::shared_ptr<const LabelMap> labels() const { return m_labels; }
    int labelGeneration() const { return m_labelGeneration; }
    /// Label values with voxels in the layer (one pass over it).
    std::array<bool, 256> valuesInLayer() const;

    /// The label layer accepted results and edits go into (made empty on the volume's grid the
    /// first time); call labelsEdited() after changing it. Waits for workers reading it in place.
    LabelMap& labelLayer();
    /// Workers reading the layer in place (the autosave's copy): the layer's changes wait for them.
    const LayerReaders& layerReaders() const { return m_readers; }
    /// Tells the views that `box` of the layer changed (all when null): they upload only that box.
    void labelsEdited(const VoxelBox* box);
    /// The box of the change that made the current generation from the previous one, when known.
    std::optional<VoxelBox> lastLabelChange() const { return m_lastLabelBox; }
    /// The box holding every change since label generation `generation`; none when one of them
    /// changed the whole layer, or when `generation` is too old to be remembered (upload all).
    std::optional<VoxelBox> labelChangeSince(int generation) const;
    /// Undo / redo of accepted results and edits (run-length deltas); cleared with a new volume or mask.
    LabelHistory& history() { return m_history; }
    bool undo();
    bool redo();
    /// Runs `edit` on the label layer as one undoable step named `description` ("Keep largest
    /// island"); the views and statistics follow. False (and no step) when nothing changed.
    bool editLabels(const std::function<void(LabelMap&)>& edit, const std::string& description);
    /// Tells the Edit menu that a step was recorded outside editLabels() (a brush stroke).
    void notifyHistoryChanged() { emit historyChanged(); }

    /// Name, colour, opacity, visibility and lock of each label (the views colour by it). A new
    /// volume starts with "Label 1"; a mask adds default entries for the values it holds.
    const LabelTable& labelTable() const { return m_table; }
    /// Adds or replaces one label's entry.
    void setLabelInfo(const LabelInfo& info);
    /// Replaces the whole table (an imported label file's names and colours).
    void setLabelTable(const LabelTable& table);
    /// Removes a label: its voxels are cleared as one undoable step ("Remove Label 2") and its
    /// entry goes; the active label moves to the next one left.
    void removeLabel(std::uint8_t value);
    /// Adds default entries for values present in the layer without one (after an undo or accept).
    void addEntriesForLayerValues();
    /// Increases whenever the table changes, so the views rewrite their colour table.
    int labelTableGeneration() const { return m_tableGeneration; }
    /// The label that brushes paint and accepted results get (made with defaults when new).
    std::uint8_t activeLabel() const { return m_activeLabel; }
    void setActiveLabel(std::uint8_t value);

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
    /// Clamped to [0, 1].
    void setOverlayOpacity(float opacity);

    // How the views draw. Each setter emits its signal once, and only when the value changes, so
    // that a menu action bound both ways does not loop.
    /// Linear (else nearest) sampling of the slices.
    bool linearInterpolation() const { return m_linear; }
    void setLinearInterpolation(bool on);
    /// The heads-up display over the slice views (annotations, run panel).
    bool hudVisible() const { return m_hud; }
    void setHudVisible(bool on);
    /// Volume: slices along the volume's own axes; Patient: resliced to the patient's planes.
    render::PlaneMode planeMode() const { return m_planeMode; }
    void setPlaneMode(render::PlaneMode mode);

    /// "voxel i,j,k (slice k + 1) | x, y, z mm (LPS) | value HU" for the status bar: the index as
    /// --seed takes it, the slice numbered from 1 as the views number it; empty outside the volume.
    QString describeVoxel(Vec3 voxel) const;
    /// The DICOM file holding slice k (empty for volume files and filled gaps).
    QString sliceFile(int k) const;

signals:
    /// Before another volume replaces the current one: holders of the old one's device memory let
    /// it go first, so two volumes never sit on the GPU at once.
    void volumeAboutToChange();
    void volumeChanged();
    void labelsChanged();
    void cursorChanged();
    void windowChanged();
    /// The undo history changed (texts of Undo / Redo to refresh).
    void historyChanged();
    /// A label's name, colour, opacity, visibility or lock changed, or labels were added or removed.
    void labelTableChanged();
    void activeLabelChanged(std::uint8_t value);
    /// Another frame of a 4D volume is shown (volume() changed its voxels, nothing else).
    void frameChanged();
    void overlayOpacityChanged(float opacity);
    void linearInterpolationChanged(bool on);
    void hudVisibleChanged(bool on);
    void planeModeChanged(render::PlaneMode mode);

private:
    std::shared_ptr<const Volume> m_volume;
    std::vector<std::shared_ptr<const Volume>> m_frames;  // a 4D file's volumes; empty for one volume
    int m_frame = 0;
    std::shared_ptr<LabelMap> m_labels;
    LayerReaders m_readers;
    std::optional<VoxelBox> m_lastLabelBox;
    std::deque<std::pair<int, std::optional<VoxelBox>>> m_changeBoxes;  // (generation made, its box)
    LabelTable m_table;
    std::uint8_t m_activeLabel = 1;
    int m_tableGeneration = 0;
    LabelHistory m_history;
    SeriesInfo m_series;
    int m_volumeGeneration = 0, m_labelGeneration = 0;
    Vec3 m_cursor;
    render::WindowLevel m_window;
    QString m_preset = "auto";
    float m_opacity = 0.5f;
    bool m_isCt = false;  // the volume is a CT (modality, or values when the file names none)
    bool m_linear = true;  // smooth MPR by default, as readers expect; nearest stays a choice
    bool m_hud = true;
    render::PlaneMode m_planeMode = render::PlaneMode::Volume;
};

}  // namespace lucent::ui
