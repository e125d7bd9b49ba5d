/// @brief View and window captures, the clipboard, and atomic PNG writing.
#include "lucent/ui/ViewCapture.h"

#include "SaveFile.h"

#include "lucent/ui/SliceViewWidget.h"

#include <QBuffer>
#include <QClipboard>
#include <QGuiApplication>
#include <QOpenGLWidget>
#include <QPainter>
#include <QWidget>

#include <string_view>
#include <utility>
#include <vector>

namespace lucent::ui {

QImage captureView(SliceViewWidget* view) {
    // grabFramebuffer() renders paintGL into an image of the framebuffer's size (device pixels),
    // with the HUD's annotations, which are drawn in the same pass.
    return view ? view->grabFramebuffer() : QImage();
}

QImage captureWindow(QWidget* window) {
    if (!window) return {};
    // Each GL view as it draws itself, taken before the window: QWidget::grab() renders the views
    // again inside its own pass, where the 3D pane's VTK surfaces came out with black holes (Mesa,
    // 2x2 layout) that the screen never showed. The views' own frames go over the window's.
    std::vector<std::pair<QOpenGLWidget*, QImage>> views;
    for (QOpenGLWidget* view : window->findChildren<QOpenGLWidget*>())
        if (view->isVisible() && view->width() > 0 && view->height() > 0) views.emplace_back(view, view->grabFramebuffer());
    QImage image = window->grab().toImage();
    QPainter painter(&image);
    for (const auto& [view, frame] : views) {
        const QPoint at = view->mapTo(window, QPoint(0, 0));
        painter.drawImage(QRectF(at.x(), at.y(), view->width(), view->height()), frame);
        view->update();  // the window's pass left its own rendering in the view's framebuffer
    }
    painter.end();
    return image;
}

void copyToClipboard(const QImage& image) { QGuiApplication::clipboard()->setImage(image); }

bool saveImagePng(const QImage& image, const QString& path, QString* error) {
    if (image.isNull()) {
        if (error) *error = path + ": nothing to save (no image)";
        return false;
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        if (error) *error = path + ": the image could not be encoded as PNG";
        return false;
    }
    return saveFile(path, std::string_view(bytes.constData(), std::size_t(bytes.size())), error);
}

}  // namespace lucent::ui
