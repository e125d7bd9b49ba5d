/// @brief Copy view, Copy window and Save view as PNG (CaptureActions.h).
#include "lucent/ui/CaptureActions.h"

#include "ActionBinding.h"

#include "lucent/ui/ViewCapture.h"
#include "lucent/ui/ViewGrid.h"
#include "lucent/ui/ViewerModel.h"

#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>

namespace lucent::ui {

namespace {

/// The view a capture takes: the active one, else the axial one.
SliceViewWidget* capturedView(ViewGrid& grid) {
    return grid.activeView() ? grid.activeView() : grid.view(render::Orientation::Axial);
}

}  // namespace

CaptureActions::CaptureActions(ViewerModel* model, ViewGrid* grid, QWidget* window, QObject* parent)
    : QObject(parent), m_model(model), m_grid(grid), m_window(window) {
    m_copyView = makeAction(this, "&Copy view", {QKeySequence(QKeySequence::Copy)}, "copyView");
    connect(m_copyView, &QAction::triggered, this, [this] {
        if (!m_model->hasVolume()) return emit message(ViewerModel::noVolumeMessage, 4000);
        copyToClipboard(captureView(capturedView(*m_grid)));
        emit message("The view is on the clipboard.", 4000);
    });
    m_copyWindow = makeAction(this, "Copy &window", {QKeySequence("Ctrl+Shift+C")}, "copyWindow");
    connect(m_copyWindow, &QAction::triggered, this, [this] {
        copyToClipboard(captureWindow(m_window));
        emit message("The window is on the clipboard.", 4000);
    });
    m_saveView = makeAction(this, "Save &view as PNG...", {QKeySequence("Ctrl+Shift+S")}, "saveViewPng");
    connect(m_saveView, &QAction::triggered, this, &CaptureActions::saveViewInteractive);
}

void CaptureActions::addCopyTo(QMenu* edit) {
    edit->addSeparator();
    edit->addActions({m_copyView, m_copyWindow});
}

void CaptureActions::addSaveTo(QMenu* file) { file->addAction(m_saveView); }

bool CaptureActions::saveViewPng(const QString& path, QString* error) {
    if (!m_model->hasVolume()) {
        if (error) *error = ViewerModel::noVolumeMessage;
        return false;
    }
    return saveImagePng(captureView(capturedView(*m_grid)), path, error);
}

void CaptureActions::saveViewInteractive() {
    const QString path = QFileDialog::getSaveFileName(m_window, "Save view as PNG", "lucent-view.png", "PNG images (*.png)");
    QString error;
    if (!path.isEmpty() && !saveViewPng(path, &error)) QMessageBox::critical(m_window, "Cannot save the view", error);
}

}  // namespace lucent::ui
