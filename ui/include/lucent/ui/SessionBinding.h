/// @brief Between the viewer's models and a SavedSession: what is shown now, the check that a
/// loaded volume can take a session, and a session put back once its volume is in. It reads and
/// writes the ViewerModel, the ViewGrid and the parts handed to it, never widgets by name.
#pragma once

#include "lucent/core/Measurement.h"
#include "lucent/ui/SavedSession.h"
#include "lucent/ui/SegmentSettings.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace lucent::ui {

class ViewerModel;
class ViewGrid;

/// What a session keeps beyond the model and the views, each optional (an empty one is neither
/// captured nor restored): the Segment panel's settings, the measurements, the docks' arrangement.
struct SessionParts {
    std::function<SegmentSettings()> segmentSettings;
    std::function<void(const SegmentSettings&)> restoreSegmentSettings;
    std::function<std::vector<Measurement>()> measurements;
    /// Throws std::exception when the measurement does not fit the volume.
    std::function<void(const Measurement&)> addMeasurement;
    std::function<QByteArray()> panels;
    std::function<bool(const QByteArray&)> restorePanels;
};

class SessionBinding {
public:
    /// `views` may be null (no layout, active view, zoom or pan then: a model without a window).
    explicit SessionBinding(ViewerModel& model, ViewGrid* views = nullptr, SessionParts parts = {});

    /// The session of the model (which must hold a volume) loaded from `dataPath`: series, frame,
    /// window, drawing settings, cursor, labels and their table; layout, zoom and pan from the views;
    /// segmentation settings, measurements and panels from the parts.
    /// Without `withLabels` the label voxels are left out (their table stays): a caller that keeps
    /// its own copy of the layer (the autosave's LabelMirror) spares the GUI thread a full copy.
    SavedSession capture(const QString& dataPath, bool withLabels = true) const;
    /// Why a volume on `grid` cannot take `state` (the data changed since the session was saved),
    /// naming `source`; empty when it can.
    static QString gridProblem(const SavedSession& state, const Geometry& grid, const QString& source);
    /// Puts `state` back, the model's volume having just been loaded from the session's data.
    /// Returns what could not be restored (a seed or measurement outside the volume), naming `source`.
    QStringList apply(const SavedSession& state, const QString& source) const;

private:
    void captureViews(SavedSession& s) const;
    void applyViewArrangement(const SavedSession& s) const;
    void applyDisplay(const SavedSession& s, const QString& source, QStringList& warnings) const;
    void applyLabels(const SavedSession& s, const QString& source, QStringList& warnings) const;
    void applyParts(const SavedSession& s, const QString& source, QStringList& warnings) const;
    void applyZoomPan(const SavedSession& s) const;

    ViewerModel& m_model;
    ViewGrid* m_views;
    SessionParts m_parts;
};

}  // namespace lucent::ui
