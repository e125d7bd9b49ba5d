/// @brief OrientationMarker: vtkAnnotatedCubeActor in a bottom-left viewport, its camera copied
/// from the scene's at a fixed distance. World space is patient LPS (Scene3DContent places the
/// volume with its direction matrix), so +x is the patient's left, +y posterior, +z superior.
#include "OrientationMarker.h"


#include <vtkAnnotatedCubeActor.h>
#include <vtkCamera.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <cmath>

namespace lucent::render {

OrientationMarker::OrientationMarker(vtkRenderWindow& window, int layer, double share) {
    m_cube = vtkSmartPointer<vtkAnnotatedCubeActor>::New();
    m_cube->SetXPlusFaceText("L");
    m_cube->SetXMinusFaceText("R");
    m_cube->SetYPlusFaceText("P");
    m_cube->SetYMinusFaceText("A");
    m_cube->SetZPlusFaceText("S");
    m_cube->SetZMinusFaceText("I");
    m_cube->SetFaceTextScale(0.6);
    m_cube->GetTextEdgesProperty()->SetColor(0.1, 0.1, 0.1);
    // (The face properties colour the letters.) One hue per axis: left-right red, anterior-posterior
    // green, superior-inferior blue, on a light cube.
    m_cube->GetXPlusFaceProperty()->SetColor(0.85, 0.35, 0.35);
    m_cube->GetXMinusFaceProperty()->SetColor(0.85, 0.35, 0.35);
    m_cube->GetYPlusFaceProperty()->SetColor(0.35, 0.75, 0.35);
    m_cube->GetYMinusFaceProperty()->SetColor(0.35, 0.75, 0.35);
    m_cube->GetZPlusFaceProperty()->SetColor(0.35, 0.5, 0.9);
    m_cube->GetZMinusFaceProperty()->SetColor(0.35, 0.5, 0.9);
    m_cube->GetCubeProperty()->SetColor(0.8, 0.8, 0.8);
    m_renderer = vtkSmartPointer<vtkRenderer>::New();
    m_renderer->SetLayer(layer);
    m_renderer->SetViewport(0.0, 0.0, share, share);
    m_renderer->PreserveColorBufferOn();  // drawn over the scene, its own depth
    m_renderer->PreserveDepthBufferOff();
    m_renderer->InteractiveOff();
    m_renderer->AddActor(m_cube);
    if (window.GetNumberOfLayers() <= layer) window.SetNumberOfLayers(layer + 1);
    window.AddRenderer(m_renderer);
}

void OrientationMarker::follow(vtkCamera& camera) {
    double dop[3], up[3];
    camera.GetDirectionOfProjection(dop);
    camera.GetViewUp(up);
    vtkCamera* own = m_renderer->GetActiveCamera();
    constexpr double kDistance = 3.2;  // the unit cube fills most of its corner at the default view angle
    own->SetFocalPoint(0, 0, 0);
    own->SetPosition(-dop[0] * kDistance, -dop[1] * kDistance, -dop[2] * kDistance);
    own->SetViewUp(up);
    own->OrthogonalizeViewUp();
    m_renderer->ResetCameraClippingRange();
}

void OrientationMarker::setVisible(bool visible) { m_cube->SetVisibility(visible ? 1 : 0); }

}  // namespace lucent::render
