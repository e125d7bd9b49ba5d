/// @brief The maths of one 2D view: which volume axes map to the screen, and screen <-> voxel <-> patient.
#pragma once

#include "lucent/core/Geometry.h"
#include "lucent/core/VolumePlane.h"

#include <array>
#include <optional>
#include <string>

namespace lucent::render {

enum class Orientation { Axial, Coronal, Sagittal };

const char* orientationName(Orientation o);

/// What a view's plane is: the volume's own plane nearest to the orientation (`Volume`, the
/// default), or the patient's true axial / coronal / sagittal plane resliced from it (`Patient`).
enum class PlaneMode { Volume, Patient };

/// A view shows the volume plane orthogonal to the volume axis closest to the orientation's patient
/// normal, so an oblique series is shown in its own plane (no resampling across slices). Screen
/// axes follow the radiological convention: axial right = patient left, down = posterior;
/// coronal right = left, down = inferior; sagittal right = posterior, down = inferior.
/// Screen coordinates are pixels from the top-left corner, pixel centres at +0.5.
///
/// In `PlaneMode::Patient` the screen axes are exactly the patient directions of that convention
/// (axial: right = L, down = P, normal = S; coronal: right = L, down = I, normal = P; sagittal:
/// right = P, down = I, normal = L) and the plane goes through the cursor with that normal, so an
/// oblique series is resampled (the shader needs no change: screen -> voxel is still affine). Slices
/// are planes along the normal, one step apart (the spacing of the volume axis nearest the normal,
/// projected on it), numbered from the volume's bounding box (of its voxel centres) in the direction
/// in which that axis's index grows; zoom 1 fits the volume's extent projected on the plane. For a
/// volume whose axes are the patient's (identity or permuted, flips included) both modes give the
/// same mapping, slices and letters.
class SliceViewGeometry {
public:
    void setVolume(const Geometry& geometry);
    void setOrientation(Orientation orientation);
    void setPlaneMode(PlaneMode mode);
    PlaneMode planeMode() const { return m_mode; }
    /// Whether the shown plane is a plane of the volume grid with the screen along two voxel axes
    /// (always in Volume mode; in Patient mode when the volume's axes are the patient's): tools that
    /// work on voxel planes (the snake, ROI statistics) need it.
    bool showsVolumePlane() const { return m_mode == PlaneMode::Volume || m_aligned; }
    /// The plane of the volume grid the screen shows, when every pixel maps onto one plane at an
    /// integer index (what a view's plane textures can hold); empty for a resampled oblique plane.
    std::optional<VolumePlane> shownVolumePlane() const;
    void setViewport(int width, int height);
    /// Zoom 1 fits the slice in the viewport; pan is in screen pixels at the present zoom and
    /// viewport. It is kept in millimetres (panMm), so a resized viewport, another zoom or another
    /// device pixel ratio keeps the same point of the patient at the viewport centre.
    void setZoom(double zoom) { m_zoom = zoom; }
    void setPan(double dx, double dy);
    void setPanMm(std::array<double, 2> mm) { m_panMm = mm; }
    /// Continuous voxel index of the linked cursor; its component along the normal is the slice.
    void setCursor(Vec3 voxel) { m_cursor = voxel; }

    Orientation orientation() const { return m_orientation; }
    double zoom() const { return m_zoom; }
    std::array<double, 2> pan() const;
    /// The pan in mm along screen right and down.
    std::array<double, 2> panMm() const { return m_panMm; }
    Vec3 cursor() const { return m_cursor; }
    int width() const { return m_width; }
    int height() const { return m_height; }
    /// Volume axis (0, 1, 2) shown left-right, top-bottom, and through the screen (in Patient mode:
    /// the volume axes nearest to those directions).
    int rightAxis() const { return m_axes[0]; }
    int downAxis() const { return m_axes[1]; }
    int normalAxis() const { return m_axes[2]; }
    /// The slice index shown (the cursor rounded along the normal).
    int slice() const;
    int sliceCount() const;
    /// The cursor moved onto slice `index` (clamped to the slices): in Volume mode only its
    /// component along the normal axis changes; in Patient mode it moves along the patient normal,
    /// and where that line leaves the volume it is moved to the nearest point of that plane inside
    /// the volume (so every slice can be reached and the result is a voxel index in the volume).
    Vec3 cursorOnSlice(int index) const;
    /// Whether a continuous voxel position lies on the shown slice (within half a slice step).
    bool onSlice(Vec3 voxel) const;
    /// Unit patient (LPS) vectors of screen right, screen down and the slice normal (the direction
    /// in which slice numbers grow).
    Vec3 rightDirection() const;
    Vec3 downDirection() const;
    Vec3 normalDirection() const;
    /// Distance between neighbouring slices in mm.
    double sliceStepMm() const;

    Vec3 screenToVoxel(double x, double y) const;
    std::array<double, 2> voxelToScreen(Vec3 voxel) const;
    Vec3 screenToPatient(double x, double y) const { return m_geometry.voxelToPatient(screenToVoxel(x, y)); }
    /// Screen pixels per millimetre.
    double pixelsPerMm() const;
    /// voxel(x, y) = origin + x * dx + y * dy (continuous voxel index): what the shader evaluates.
    void shaderMapping(Vec3& origin, Vec3& dx, Vec3& dy) const;
    /// Patient-direction letter at the right, left, top and bottom edges ("L", "R", "A", ...; two
    /// letters such as "LA" when the direction is oblique by more than about 20 degrees).
    std::string edgeLetter(int edge) const;  ///< 0 right, 1 left, 2 top, 3 bottom

    const Geometry& geometry() const { return m_geometry; }

private:
    void chooseAxes();
    void placePatientPlanes();
    double fitScale() const;  // pixels per mm at zoom 1
    double planeOffset() const;  // Patient mode: position of the shown slice along m_normal, mm

    Geometry m_geometry;
    Orientation m_orientation = Orientation::Axial;
    PlaneMode m_mode = PlaneMode::Volume;
    // Patient mode: screen right, down and slice normal (LPS), the volume centre, the projected
    // extents (mm) used to fit, the first slice's offset along the normal, the step and the count.
    Vec3 m_right{1, 0, 0}, m_down{0, 1, 0}, m_normal{0, 0, 1}, m_centre;
    std::array<double, 2> m_extent{1, 1};
    double m_firstSlice = 0, m_step = 1;
    int m_count = 1;
    bool m_aligned = true;
    std::array<int, 3> m_axes{0, 1, 2};
    std::array<double, 2> m_signs{1, 1};  // +1: the voxel index grows to the right / downwards
    int m_width = 1, m_height = 1;
    double m_zoom = 1.0;
    std::array<double, 2> m_panMm{0, 0};
    Vec3 m_cursor;
};

}  // namespace lucent::render
