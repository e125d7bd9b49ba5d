/// @brief The live surfaces' mapper: VTK's OpenGL polygon mapper, with the GUI thread's time in it recorded
/// as stages (StageTimes.h) while a benchmark measures: building the vertex and index buffers of new
/// surfaces apart from drawing them, so a paint that takes new surfaces says which part costs.
#pragma once

#include <vtkOpenGLPolyDataMapper.h>

namespace lucent::render {

class TimedSurfaceMapper : public vtkOpenGLPolyDataMapper {
public:
    static TimedSurfaceMapper* New();
    vtkTypeMacro(TimedSurfaceMapper, vtkOpenGLPolyDataMapper)
    void RenderPiece(vtkRenderer* ren, vtkActor* act) override;

protected:
    TimedSurfaceMapper() = default;
    void BuildBufferObjects(vtkRenderer* ren, vtkActor* act) override;
};

}  // namespace lucent::render
