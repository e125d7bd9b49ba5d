/// @brief The OpenGL set-up every Lucent GUI process needs, before its QApplication exists.
#pragma once

#include <QApplication>
#include <QSurfaceFormat>

namespace lucent::ui {

/// A 3.3 core context for every view, and one share group so the volume is uploaded once.
inline void prepareOpenGl() {
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    QSurfaceFormat::setDefaultFormat(format);
    QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
}

}  // namespace lucent::ui
