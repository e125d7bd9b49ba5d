/// @brief Everything a session file (.lucent) restores: the data to load and, once it is in, the
/// frame, window, layout, cursor, zoom, labels with their table, segmentation settings and
/// measurements. A plain value, so that it is compared and tested without a window.
#pragma once

#include "lucent/core/Geometry.h"
#include "lucent/core/LabelMap.h"
#include "lucent/core/LabelTable.h"
#include "lucent/core/Measurement.h"
#include "lucent/render/WindowLevel.h"
#include "lucent/ui/SegmentSettings.h"

#include <QByteArray>
#include <QString>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace lucent::ui {

/// Zoom and pan of one slice view. The pan is in mm along screen right and down (as
/// SliceViewGeometry keeps it): a window of another size or pixel ratio shows the same point of the
/// patient at the view's centre. Sessions of earlier builds stored device pixels (panPixels).
struct SavedView {
    double zoom = 1.0;
    std::array<double, 2> panMm{0, 0};
    std::optional<std::array<double, 2>> panPixels;  ///< read from an earlier build's "pan"
};

struct SavedSession {
    /// The format this build writes and the newest one it reads.
    static constexpr int kFormatVersion = 1;

    // The data. The path is absolute in memory; the file stores it relative to its own folder
    // when the data lies under that folder, so that a folder moved as a whole keeps working.
    QString dataPath;
    QString seriesId;  ///< the volume under dataPath (DICOM: its id or SeriesInstanceUID)
    Geometry grid;     ///< the volume's grid when saved: the data must still have it
    int frame = 0;     ///< 4D: the frame shown

    // Display.
    render::WindowLevel window;
    QString preset;          ///< the named window last applied ("brain", "file1", "auto")
    QString layout = "2x2";  ///< "1x1", "2x2", "1+3"
    QString activeView = "axial";
    bool maximised = false;
    bool linearInterpolation = true;
    bool hud = true;
    std::optional<bool> anatomicalPlanes;  ///< View > Anatomical planes, where the build has it
    float overlayOpacity = 0.5f;
    Vec3 cursorPatient;              ///< LPS mm: survives a grid stored with other axis signs
    std::array<SavedView, 3> views;  ///< axial, coronal, sagittal
    /// The panels and toolbars as QMainWindow::saveState() gives them (which are shown, where):
    /// the views' size depends on them.
    QByteArray panels;

    // Labels: the layer on `grid` (none when nothing was painted or loaded) and its table.
    std::optional<LabelMap> labels;
    LabelTable labelTable;
    std::uint8_t activeLabel = 1;

    SegmentSettings segmentation;
    /// Kind, plane and patient points; values and ROI statistics are recomputed on load.
    std::vector<Measurement> measurements;
};

}  // namespace lucent::ui
