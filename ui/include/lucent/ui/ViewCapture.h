/// @brief Images of the views for sharing: a view with its annotations at full resolution, the
/// whole window, copying to the clipboard and saving PNG files atomically.
#pragma once

#include <QImage>
#include <QString>

class QWidget;

namespace lucent::ui {

class SliceViewWidget;

/// The view as drawn (slice, overlays, HUD annotations) at its device-pixel size.
QImage captureView(SliceViewWidget* view);
/// The whole window (menus, views, panels) at its device-pixel size, each GL view as it draws
/// itself on screen. Recordings, --screenshot and Copy window all take this.
QImage captureWindow(QWidget* window);
/// Puts `image` on the system clipboard.
void copyToClipboard(const QImage& image);
/// Writes `image` as PNG to `path` through a temporary file renamed into place: no partial file on
/// failure, and an existing file is only replaced by a complete one. False with `error` naming the
/// file and the cause.
bool saveImagePng(const QImage& image, const QString& path, QString* error);

}  // namespace lucent::ui
