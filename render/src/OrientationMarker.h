/// @brief The 3D pane's orientation marker: a cube lettered with the patient's directions (L R A P
/// S I) in a corner of its own, turned with the main camera, so a rotated view still says which
/// way is anterior. VTK's vtkOrientationMarkerWidget needs an interactor, which the pane does not
/// have (Qt takes the input), so the marker is a renderer of its own that follows the camera.
#pragma once

#include <vtkSmartPointer.h>

class vtkAnnotatedCubeActor;
class vtkCamera;
class vtkRenderWindow;
class vtkRenderer;

namespace lucent::render {

class OrientationMarker {
public:
    /// Adds the marker's renderer to `window` as layer `layer` (above the scene's), in the bottom-left
    /// corner of `share` of the pane's width and height (Scene3D::kMarkerShare).
    OrientationMarker(vtkRenderWindow& window, int layer, double share);
    /// Turns the marker as `camera` looks (direction of projection and view-up; not its distance).
    void follow(vtkCamera& camera);
    void setVisible(bool visible);

private:
    vtkSmartPointer<vtkRenderer> m_renderer;
    vtkSmartPointer<vtkAnnotatedCubeActor> m_cube;
};

}  // namespace lucent::render
