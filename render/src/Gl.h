/// @brief OpenGL 3.3 core entry points. glvnd's libGL/libOpenGL export every core function, so the
/// prototypes are used directly (no loader); render code needs only a current context.
#pragma once

#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
