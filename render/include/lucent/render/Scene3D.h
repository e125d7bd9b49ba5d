/// @brief The 3D view's scene without Qt: the volume ray-cast in patient coordinates with a preset,
/// labels over it (never hidden by the bone: the label volume drawn directly, accepted labels and a
/// live run's result as smoothed surfaces), the three slice planes and the crosshair at the cursor,
/// and the camera. VTK stays inside the .cpp files.
#pragma once

#include "lucent/core/LabelMap.h"
#include "lucent/core/LabelTable.h"
#include "lucent/core/Volume.h"
#include "lucent/render/Preset3D.h"

#include <array>
#include <memory>
#include <utility>

namespace lucent::render {

struct LabelSurfaces;

class Scene3D {
public:
    Scene3D();
    ~Scene3D();
    Scene3D(const Scene3D&) = delete;
    Scene3D& operator=(const Scene3D&) = delete;

    // GL: each of these needs the GL context the scene draws in to be current.
    /// Adopts the current context (VTK makes none of its own and blits into the bound framebuffer).
    void initializeGl();
    /// Draws the scene, `width` x `height` device pixels, into the framebuffer bound now.
    void render(int width, int height);
    /// Frees VTK's GL objects; call before the context goes.
    void releaseGl();
    bool glReady() const;

    /// The most voxels the pane ray-casts: a larger volume (or label map) is drawn from a coarse
    /// copy of block means (VolumeReduction.h; majorities for labels), so its texture and rays cost
    /// what the pane can show, not what the volume weighs (1024^3: 512^3 cells, 256 MB of int16).
    static constexpr std::size_t kShownVoxels = std::size_t(1) << 27;
    /// The orientation marker's corner (bottom left): this share of the pane's width and height.
    static constexpr double kMarkerShare = 0.16;

    /// Shows `volume` (kept; read in place up to kShownVoxels, else through a coarse copy); null
    /// clears the scene. Its texture is uploaded once, at the next render. Resets the camera.
    void setVolume(std::shared_ptr<const Volume> volume);
    bool hasVolume() const;
    /// The grid the pane ray-casts: the volume's, or its coarse copy's.
    Geometry shownGeometry() const;
    /// Another voxel budget than kShownVoxels (a smaller GPU; tests), for volumes set from now on.
    void setShownVoxels(std::size_t voxels);
    /// The volume's robust value range (1st and 99.5th percentiles of a sample), as MR presets use it.
    std::pair<double, double> valueRange() const;
    void setPreset(Preset3D preset);
    Preset3D preset() const;

    /// Draws `labels` as a volume (nearest voxel, colours and opacities of `table`); null hides it.
    /// The map is read in place (no copy) when the next render uploads it: after changing its
    /// voxels, call this again before rendering.
    void setLabelVolume(std::shared_ptr<const LabelMap> labels, const LabelTable& table);
    /// Whether the label volume is drawn (set, and not too large for this GL's 3D textures).
    bool labelVolumeShown() const;
    /// Colours and opacities of the label volume and the surfaces.
    void setLabelTable(const LabelTable& table);
    /// Shows accepted labels as surfaces (built by buildLabelSurfaces); null hides them.
    void setSurfaces(std::shared_ptr<const LabelSurfaces> surfaces);

    /// Shows a live run's result as surfaces (built from a coarse copy, lighter than accepted
    /// labels, in the label colours); null hides them.
    void setLiveSurfaces(std::shared_ptr<const LabelSurfaces> surfaces);
    /// The label each live value goes into on Accept: its surfaces are drawn in that label's colour,
    /// as the slice views draw the preview (identity until set).
    void setLiveTargets(const std::array<std::uint8_t, 256>& targets);

    /// Draft: a ray every 2 x 2 pixels instead of every pixel (a quarter of the ray-casting work),
    /// while a live run keeps the pane redrawing, so its frames do not grow with the volume.
    void setDraft(bool draft);

    /// The cursor (a continuous voxel index): the slice planes and the crosshair go through it.
    void setCursor(Vec3 voxel);
    void setPlanesVisible(bool visible);
    /// The slice planes and crosshair along the patient's axes (the slice views' anatomical
    /// planes) instead of the volume's index planes; they differ on an oblique volume.
    void setPatientPlanes(bool patient);

    /// Anterior view (looking along +y in LPS from the front, head up = +z), whole volume in view.
    void resetCamera();
    /// Turns the camera about the focal point: `azimuthDeg` about the view up, `elevationDeg`
    /// about the view's horizontal axis.
    void rotate(double azimuthDeg, double elevationDeg);
    /// Moves towards the focal point by `factor` (> 1 closer).
    void zoom(double factor);
    /// Moves the scene by fractions of the view's width and height (positive: right and up).
    void pan(double dxFraction, double dyFraction);
    /// Camera position, focal point and view up in patient mm (tests, settings).
    void camera(Vec3& position, Vec3& focal, Vec3& up) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

}  // namespace lucent::render
