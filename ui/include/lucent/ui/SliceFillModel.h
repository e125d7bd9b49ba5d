/// @brief Labels > Fill between slices without widgets: the chosen labels filled between their
/// slices on the axis of the view in use, shown as a preview (one undo step, in the layer) until it
/// is kept or cancelled.
#pragma once

#include "lucent/core/SliceFill.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <vector>

namespace lucent::ui {

class ViewerModel;

class SliceFillModel : public QObject {
    Q_OBJECT
public:
    /// The undo step's name (Edit > Undo Fill between slices).
    static constexpr const char* kStepName = "Fill between slices";

    explicit SliceFillModel(ViewerModel* model, QObject* parent = nullptr);

    /// Fills `labels` between their slices along volume axis `axis` (0..2) in the label layer, as
    /// one undo step, and holds the result as a preview. False, with `why` and the layer unchanged,
    /// without a volume, for a locked label, a label with no voxel, or nothing to fill.
    bool preview(int axis, const std::vector<std::uint8_t>& labels, QString* why = nullptr);
    bool previewing() const { return m_previewing; }
    /// The figures of the last fill.
    const SliceFillReport& report() const { return m_report; }
    /// "Label 1 filled on 40 slices of k (31024 voxels)", a line per label.
    QString summary() const;
    /// Keeps the preview (the undo step stays).
    void accept();
    /// Takes the preview back (undoes its step, leaving no trace but a Redo). False when there is no
    /// preview; a change of the layer since the preview (a stroke, an undo) kept it already.
    bool cancel();

signals:
    /// The preview started or ended (kept, cancelled, or kept by another edit of the layer).
    void previewChanged(bool previewing);

private:
    void end();

    ViewerModel* m_model;
    SliceFillReport m_report;
    bool m_previewing = false;
    int m_generation = -1;  ///< the layer's generation the preview made
};

}  // namespace lucent::ui
