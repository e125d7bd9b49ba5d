/// @brief The brush's value range (Slicer's editable intensity range): "Only values from L to U"
/// in the label panel, on the same histogram band as region growing's interval, and Labels > Pick
/// brush range at cursor (V), which sets L and U from the voxel at the cursor by region growing's
/// first-seed rule (core's seedInterval).
#pragma once

#include "lucent/core/ValueHistogram.h"

#include <QObject>

#include <optional>

class QAction;
class QCheckBox;
class QDoubleSpinBox;
class QWidget;

namespace lucent::ui {

class BrushTool;
class IntervalHistogram;
class ViewerModel;

class BrushRange : public QObject {
    Q_OBJECT
public:
    BrushRange(ViewerModel* model, BrushTool* brush, QWidget* parent);

    /// The panel's row: the check box and the two bounds, the histogram band under them.
    QWidget* widget() const { return m_row; }
    QAction* pickAction() const { return m_pick; }
    /// Sets the bounds from the voxel at the cursor and turns the range on; false without a volume.
    bool pickAtCursor();

signals:
    void message(const QString& text);

private:
    /// Gives the brush the range shown (or none when the box is off), and the band the bounds.
    void apply();
    /// The volume's histogram under the bounds (made on first use, once per volume).
    void showHistogram();

    ViewerModel* m_model;
    BrushTool* m_brush;
    QWidget* m_row;
    QCheckBox* m_on;
    QDoubleSpinBox *m_lower, *m_upper;
    QAction* m_pick;
    IntervalHistogram* m_band;
    std::optional<ValueHistogram> m_histogram;
};

}  // namespace lucent::ui
