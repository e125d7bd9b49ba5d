/// @brief View and window captures, the clipboard, and atomic PNG writing.
#include "lucent/ui/ViewCapture.h"

#include "lucent/io/FileUtil.h"
#include "lucent/ui/SliceViewWidget.h"

#include <QBuffer>
#include <QClipboard>
#include <QGuiApplication>
#include <QWidget>

#include <string_view>

namespace lucent::ui {

QImage captureView(SliceViewWidget* view) {
    // grabFramebuffer() renders paintGL into an image of the framebuffer's size (device pixels),
    // with the HUD's annotations, which are drawn in the same pass.
    return view ? view->grabFramebuffer() : QImage();
}

QImage captureWindow(QWidget* window) {
    // QWidget::grab() renders at the device pixel ratio and includes the GL views' framebuffers.
    return window ? window->grab().toImage() : QImage();
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
    try {
        io::writeFileAtomically(path.toStdString(), {std::string_view(bytes.constData(), std::size_t(bytes.size()))});
    } catch (const std::exception& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

}  // namespace lucent::ui
