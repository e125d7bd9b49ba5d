/// @brief The live surfaces' mapper with its buffer builds and draws timed (TimedSurfaceMapper.h).
#include "TimedSurfaceMapper.h"

#include "lucent/core/StageTimes.h"

#include <vtkObjectFactory.h>

namespace lucent::render {

vtkStandardNewMacro(TimedSurfaceMapper);

void TimedSurfaceMapper::RenderPiece(vtkRenderer* ren, vtkActor* act) {
    stages::Scope scope("3D pane: live surfaces drawn (VTK mapper, buffers included)");
    vtkOpenGLPolyDataMapper::RenderPiece(ren, act);
}

void TimedSurfaceMapper::BuildBufferObjects(vtkRenderer* ren, vtkActor* act) {
    stages::Scope scope("3D pane: live surfaces' buffers built (VTK mapper)");
    vtkOpenGLPolyDataMapper::BuildBufferObjects(ren, act);
}

}  // namespace lucent::render
