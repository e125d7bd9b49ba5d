/// @brief What a recording shows: the whole window (menus, views, panels), or one view alone (a
/// slice view or the 3D pane) at a chosen size, without menus and panels (issue 43 item 24).
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include <functional>
#include <optional>

namespace lucent::ui {

class MainWindow;

struct RecordedView {
    enum class Which { Window, Axial, Coronal, Sagittal, View3D };
    Which which = Which::Window;
    QSize size;  ///< one view's size in pixels; empty: as the layout gives it

    /// `view` one of "window", "axial", "coronal", "sagittal", "3d"; `size` "WxH" (16..8192 each)
    /// or empty. nullopt with the reason in `error` for anything else.
    static std::optional<RecordedView> parse(const QString& view, const QString& size, QString* error);
    /// The names parse takes, for usage lines and messages.
    static QString viewNames();
};

/// Lays `window` out for `view` (a slice view alone in the single layout, the 3D pane in its place,
/// either held at its size) and returns what takes each frame: the window's capture, or the view's
/// own framebuffer.
std::function<QImage()> prepareRecordedView(MainWindow& window, const RecordedView& view);

}  // namespace lucent::ui
