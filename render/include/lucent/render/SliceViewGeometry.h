/// @brief The maths of one 2D view: which volume axes map to the screen, and screen <-> voxel <-> patient.
#pragma once

#include "lucent/core/Geometry.h"

#include <array>
#include <string>

namespace lucent::render {

enum class Orientation { Axial, Coronal, Sagittal };

const char* orientationName(Orientation o);

/// A view shows the volume plane orthogonal to the volume axis closest to the orientation's patient
/// normal, so an oblique series is shown in its own plane (no resampling across slices). Screen
/// axes follow the radiological convention: axial right = patient left, down = posterior;
/// coronal right = left, down = inferior; sagittal right = posterior, down = inferior.
/// Screen coordinates are pixels from the top-left corner, pixel centres at +0.5.
class SliceViewGeometry {
public:
    void setVolume(const Geometry& geometry);
    void setOrientation(Orientation orientation);
    void setViewport(int width, int height);
    /// Zoom 1 fits the slice in the viewport; pan is in screen pixels.
    void setZoom(double zoom) { m_zoom = zoom; }
    void setPan(double dx, double dy) { m_pan = {dx, dy}; }
    /// Continuous voxel index of the linked cursor; its component along the normal is the slice.
    void setCursor(Vec3 voxel) { m_cursor = voxel; }

    Orientation orientation() const { return m_orientation; }
    double zoom() const { return m_zoom; }
    std::array<double, 2> pan() const { return m_pan; }
    Vec3 cursor() const { return m_cursor; }
    int width() const { return m_width; }
    int height() const { return m_height; }
    /// Volume axis (0, 1, 2) shown left-right, top-bottom, and through the screen.
    int rightAxis() const { return m_axes[0]; }
    int downAxis() const { return m_axes[1]; }
    int normalAxis() const { return m_axes[2]; }
    /// The slice index shown (the cursor rounded along the normal).
    int slice() const;
    int sliceCount() const { return m_geometry.dims[m_axes[2]]; }

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
    double fitScale() const;  // pixels per mm at zoom 1

    Geometry m_geometry;
    Orientation m_orientation = Orientation::Axial;
    std::array<int, 3> m_axes{0, 1, 2};
    std::array<double, 2> m_signs{1, 1};  // +1: the voxel index grows to the right / downwards
    int m_width = 1, m_height = 1;
    double m_zoom = 1.0;
    std::array<double, 2> m_pan{0, 0};
    Vec3 m_cursor;
};

}  // namespace lucent::render
