/// @brief Scene3D's VTK objects: the render window adopted from the caller's GL context, the volume
/// and label volume props, the surfaces actor, and the planes / crosshair overlay.
#pragma once

#include "OrientationMarker.h"
#include "lucent/render/Scene3D.h"

#include <vtkActor.h>
#include <vtkGPUVolumeRayCastMapper.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkImageData.h>
#include <vtkLookupTable.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkVolume.h>
#include <vtkVolumeProperty.h>

#include <array>
#include <memory>

namespace lucent::render {

struct Scene3D::Impl {
    Impl();
    /// Puts `preset`'s transfer functions into the volume property.
    void applyPreset();
    /// Label colours and opacities into the label volume's property and the surfaces' table.
    void applyLabelTable();
    /// Shows each surface layer that has a label to draw (after the surfaces or the table change).
    void showSurfaceLayers();
    /// Rebuilds the slice plane outlines and crosshair lines at the cursor.
    void updatePlanes();
    vtkSmartPointer<vtkGenericOpenGLRenderWindow> window;
    vtkSmartPointer<vtkRenderer> renderer;
    /// Labels (accepted and live) drawn over the volume rendering with the same camera: a label
    /// inside the skull stays visible under the bone preset (layer 1, its own depth buffer).
    vtkSmartPointer<vtkRenderer> overlay;
    bool glReady = false;
    std::unique_ptr<OrientationMarker> marker;  // layer 2, over the labels

    std::shared_ptr<const Volume> volume;
    std::shared_ptr<const Volume> shown;  // what VTK reads: `volume`, or its coarse copy
    std::size_t shownVoxels = Scene3D::kShownVoxels;
    vtkSmartPointer<vtkImageData> image;
    vtkSmartPointer<vtkGPUVolumeRayCastMapper> mapper;
    vtkSmartPointer<vtkVolumeProperty> property;
    vtkSmartPointer<vtkVolume> prop;
    Preset3D preset = Preset3D::CtBone;
    double lo = 0, hi = 1;  // robust value range (1st and 99.5th percentiles), for MR

    std::shared_ptr<const LabelMap> labels;
    LabelMap labelCells;  // the coarse copy drawn for a label map over Scene3D::kShownVoxels
    vtkSmartPointer<vtkImageData> labelImage;
    vtkSmartPointer<vtkGPUVolumeRayCastMapper> labelMapper;
    vtkSmartPointer<vtkVolumeProperty> labelProperty;
    vtkSmartPointer<vtkVolume> labelProp;
    LabelTable table;

    /// One drawing of the accepted labels' surfaces: its colour table, mapper and actor.
    struct SurfaceLayer {
        vtkSmartPointer<vtkLookupTable> colours;
        vtkSmartPointer<vtkPolyDataMapper> mapper;
        vtkSmartPointer<vtkActor> actor;
    };
    std::shared_ptr<const LabelSurfaces> surfaces;
    // The surfaces are drawn twice from one polygon set: VTK 9.1 judges an actor coloured through a
    // table by the whole table, not by the values drawn, and sends it to the translucent pass, whose
    // blending ignores depth, when any entry is below alpha 1 (the background's alone would do it):
    // nested or interleaved labels (fuzzy C-means' classes) would show through each other like a
    // translucent volume. So the opaque labels are solid geometry, and the labels given an opacity
    // below 1 are drawn over them in the translucent pass; each table gives the other labels alpha 0,
    // whose fragments VTK's shader discards (as it does a hidden label's).
    SurfaceLayer solidSurfaces, translucentSurfaces;

    std::shared_ptr<const LabelSurfaces> liveSurfaces;  // a live run's result, from a coarse copy
    vtkSmartPointer<vtkLookupTable> liveColours;        // live value -> its target label's colour
    std::array<std::uint8_t, 256> liveTargets{};        // set in Impl() to the identity
    vtkSmartPointer<vtkPolyDataMapper> liveMapper;
    vtkSmartPointer<vtkActor> liveActor;
    bool liveProgramsMade = false;  // this GL context drew translucent surfaces once (Scene3D::render)

    Vec3 cursor;
    bool planesVisible = true;
    bool patientPlanes = false;  // planes along the patient's axes (Scene3D::setPatientPlanes)
    vtkSmartPointer<vtkPolyData> planes;
    vtkSmartPointer<vtkPolyDataMapper> planesMapper;
    vtkSmartPointer<vtkActor> planesActor;
};

}  // namespace lucent::render
