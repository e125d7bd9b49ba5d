/// @brief One measurement drawn on a slice (ruler, angle, elliptical or rectangular ROI) and the
/// maths that gives its figures: lengths and angles in patient space, ROI statistics over voxels.
#pragma once

#include "lucent/core/Vec3.h"
#include "lucent/core/Volume.h"

#include <cstddef>
#include <string>
#include <vector>

namespace lucent {

enum class MeasurementKind { Ruler, Angle, Ellipse, Rectangle };

/// "ruler", "angle", "ellipse", "rectangle" (the CSV's type column).
const char* measurementKindName(MeasurementKind kind);
/// How many points a finished measurement of `kind` has: 2 (ruler ends, ROI corners) or 3 (angle).
int measurementPointCount(MeasurementKind kind);

/// Figures of the voxels of a slice whose centres fall inside an ROI.
struct RoiStatistics {
    std::size_t voxels = 0;
    double mean = 0;     ///< of the stored values (HU for CT)
    double stddev = 0;   ///< population standard deviation (divides by the voxel count, as NumPy's std)
    double min = 0, max = 0;
    double areaMm2 = 0;  ///< the shape's own area in the slice's plane (not clipped to the volume)
};

/// A measurement lives on one plane of the volume grid, the plane of voxel index `slice` along
/// volume axis `axis` (the views show such planes, also for oblique series). Its points are in
/// patient coordinates (LPS, mm) so that they stay put when a view zooms or pans:
///  - ruler: the two ends; angle: first arm's end, vertex, second arm's end;
///  - ellipse / rectangle: two opposite corners of the box, whose sides follow the plane's two
///    voxel axes (the screen's axes); the ellipse is the one inscribed in that box.
struct Measurement {
    int id = 0;
    MeasurementKind kind = MeasurementKind::Ruler;
    int axis = 2;
    int slice = 0;
    std::string view;          ///< name of the view it was drawn on ("axial"), for the list
    std::vector<Vec3> points;
    double value = 0;          ///< length mm, angle degrees, ROI mean
    RoiStatistics roi;         ///< ROIs only
};

/// Distance between two patient points, mm.
double distanceMm(Vec3 a, Vec3 b);
/// Angle at `vertex` between the arms to `a` and `b`, degrees in [0, 180]; 0 when an arm is empty.
double angleDegrees(Vec3 a, Vec3 vertex, Vec3 b);

/// Statistics of the voxels of plane (`axis`, `slice`) whose centres lie inside the box spanned by
/// the patient points `cornerA` and `cornerB` (rectangle) or inside its inscribed ellipse; a
/// centre on the boundary counts as inside. Voxels outside the volume are not counted.
RoiStatistics roiStatistics(const Volume& volume, MeasurementKind kind, int axis, int slice, Vec3 cornerA,
                            Vec3 cornerB);

/// Recomputes `m.value` (and `m.roi`) from its points; ROIs need `volume`. Throws
/// std::invalid_argument when the point count does not fit the kind.
void computeMeasurement(Measurement& m, const Volume* volume);

/// The label drawn beside it on the view: "42.3 mm", "87.5 deg",
/// "mean 40.2 HU  sd 3.1\nmin 35  max 47\narea 120.5 mm2  (96 voxels)"; `unit` is "HU" or empty.
std::string measurementLabel(const Measurement& m, const std::string& unit);

/// CSV with a header row: id,type,view,slice,value,unit,mean,sd,min,max,voxels,area_mm2, then the
/// points' patient coordinates x0,y0,z0,x1,y1,z1,x2,y2,z2 (empty where a kind has fewer); numbers
/// in the C locale with 10 significant digits.
std::string measurementsCsv(const std::vector<Measurement>& measurements, const std::string& unit);

}  // namespace lucent
