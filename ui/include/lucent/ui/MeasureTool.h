/// @brief The measuring gestures on a slice view (Qt-free): drag a ruler or an ROI box, click the
/// three points of an angle, drag any end point or corner of a finished one to edit it; and the
/// drawing of every measurement on the shown slice.
#pragma once

#include "lucent/core/MeasurementSet.h"
#include "lucent/ui/ViewTool.h"

#include <functional>
#include <optional>
#include <string>

namespace lucent::ui {

class MeasureTool : public ViewTool {
public:
    /// Points of finished measurements within this many device pixels of a press are grabbed.
    static constexpr double kGrabPixels = 8.0;

    explicit MeasureTool(MeasurementSet* set) : m_set(set) {}

    /// Called after a measurement was added, edited or (by the tool) dropped.
    std::function<void()> changed;
    /// Called with the reason when a press cannot start a measurement (an ROI on a resliced plane).
    std::function<void(const std::string&)> refused;

    /// What a press on empty space starts; drops an angle half placed.
    void setKind(MeasurementKind kind);
    MeasurementKind kind() const { return m_kind; }
    /// Drops what is being drawn (an angle with one or two points, a drag in progress).
    void cancel();
    /// The measurement added or edited last (0: none yet): the list selects it.
    int lastId() const { return m_lastId; }
    /// The measurement being drawn, nullopt when none.
    const std::optional<Measurement>& pending() const { return m_pending; }

    bool press(const render::SliceViewGeometry& view, double x, double y, bool shift) override;
    bool drag(const render::SliceViewGeometry& view, double x, double y) override;
    bool release(const render::SliceViewGeometry& view, double x, double y) override;
    /// The measurement being drawn (finished ones come from drawMeasurements).
    void overlay(const render::SliceViewGeometry& view, render::ViewOverlay& out) const override;

private:
    Measurement planeMeasurement(const render::SliceViewGeometry& view) const;
    /// Adds the pending measurement to the set when it is more than a click; clears it.
    void finish(const render::SliceViewGeometry& view);

    MeasurementSet* m_set;
    MeasurementKind m_kind = MeasurementKind::Ruler;
    std::optional<Measurement> m_pending;
    int m_editId = 0, m_editPoint = -1;
    int m_lastId = 0;
};

/// The patient point under screen point (x, y), on the plane of the shown slice (its normal
/// component is the slice index, not the cursor's fraction; on a resliced plane, the plane's point).
Vec3 patientOnSlice(const render::SliceViewGeometry& view, double x, double y);

/// Lines, handles and labels of the measurements of `set` that lie on the shown slice; `selected`
/// is drawn in another colour; `unit` ("HU" or empty) goes into the ROI labels.
void drawMeasurements(const render::SliceViewGeometry& view, const MeasurementSet& set, int selected,
                      const std::string& unit, render::ViewOverlay& out);

/// One measurement's drawing (also the pending one).
void drawMeasurement(const render::SliceViewGeometry& view, const Measurement& m, bool selected,
                     const std::string& unit, render::ViewOverlay& out);

}  // namespace lucent::ui
