/// @brief Captures of what is drawn: Edit > Copy view (the active view, else the axial one) and Copy window
/// to the clipboard, File > Save view as PNG.
#pragma once

#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QWidget;

namespace lucent::ui {

class ViewerModel;
class ViewGrid;

class CaptureActions : public QObject {
    Q_OBJECT
public:
    /// `window` is what Copy window grabs and what parents the file dialog and the error box.
    CaptureActions(ViewerModel* model, ViewGrid* grid, QWidget* window, QObject* parent = nullptr);

    /// A separator, Copy view, Copy window.
    void addCopyTo(QMenu* edit);
    /// Save view as PNG...
    void addSaveTo(QMenu* file);
    /// Writes the active view (the axial one when none is active) as drawn, annotations included, at
    /// full device-pixel resolution as PNG, atomically; false with `error` ("Open a volume first.").
    bool saveViewPng(const QString& path, QString* error = nullptr);

    QAction* copyView() const { return m_copyView; }
    QAction* copyWindow() const { return m_copyWindow; }
    QAction* saveView() const { return m_saveView; }

signals:
    /// A line for the status bar for `timeoutMs`.
    void message(const QString& text, int timeoutMs);

private:
    void saveViewInteractive();

    ViewerModel* m_model;
    ViewGrid* m_grid;
    QWidget* m_window;
    QAction *m_copyView, *m_copyWindow, *m_saveView;
};

}  // namespace lucent::ui
